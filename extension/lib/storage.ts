// What the extension keeps between browser sessions, in extension storage (local area): the server URL, the
// 公司名 (tenant) setting and the login session. Each item is versioned so a later shape change ships a migration.
import { storage } from "wxt/utils/storage";

export type Session = {
  accessToken: string;
  /** Present when the login asked for offline_access; used to renew the access token. */
  refreshToken: string | null;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number;
  userName: string;
  tenantName: string | null;
};

/** The slice of WXT's storage item the background uses (so tests and callers need no more). */
export type Item<T> = { getValue(): Promise<T>; setValue(value: T): Promise<void> };

/** A collection that could not reach the server yet, keyed by its source item (one entry per item). */
export type QueuedCollect = { key: string; product: unknown; queuedAt: number; attempts: number };

export type StorageItems = {
  serverUrl: Item<string>;
  tenant: Item<string>;
  session: Item<Session | null>;
  collectQueue: Item<QueuedCollect[]>;
};

export function defineStorageItems(): StorageItems {
  return {
    serverUrl: storage.defineItem<string>("local:serverUrl", { fallback: "", version: 1 }),
    tenant: storage.defineItem<string>("local:tenant", { fallback: "", version: 1 }),
    session: storage.defineItem<Session | null>("local:session", { fallback: null, version: 1 }),
    collectQueue: storage.defineItem<QueuedCollect[]>("local:collectQueue", { fallback: [], version: 1 }),
  };
}
