// What the extension keeps between browser sessions, in extension storage (local area): the server URL, the
// 公司名 (tenant) setting, the login session, the offline queues (collections, the side panel's edits) and the panel's
// recent products; the side panel's per-tab state lives in the session area (gone with the browser session). Each item
// is versioned so a later shape change ships a migration.
import { storage } from "wxt/utils/storage";
import type { TabStates } from "./panel-tabs.ts";

type Session = {
  accessToken: string;
  /** Present when the login asked for offline_access; used to renew the access token. */
  refreshToken: string | null;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number;
  userName: string;
  tenantName: string | null;
};

/** The slice of WXT's storage item the background uses (so tests and callers need no more). */
type Item<T> = { getValue(): Promise<T>; setValue(value: T): Promise<void> };

/** A collection that could not reach the server yet, keyed by its source item (one entry per item). */
type QueuedCollect = { key: string; product: unknown; queuedAt: number; attempts: number };

/** An edit the side panel saved while the server could not be reached: one per product, the newest body wins. */
type QueuedEdit = { productId: string; body: unknown; queuedAt: number; attempts: number };

/** A product the side panel opened (its recent list, newest first). */
export type RecentProduct = { id: string; title: string; image: string | null; sourceUrl: string | null; openedAt: number };

/** The recent list keeps this many products. */
export const MAX_RECENT = 20;

/**
 * Version 1 of the recent list held product ids only (the panel's first draft, never released); version 2 keeps what
 * the list shows. The migration turns ids into entries with an empty title (the panel names them 商品 <id>).
 */
const recentMigrations = {
  2: (old: unknown): RecentProduct[] =>
    (Array.isArray(old) ? old : [])
      .filter((v): v is string => typeof v === "string" && v !== "")
      .slice(0, MAX_RECENT)
      .map((id) => ({ id, title: "", image: null, sourceUrl: null, openedAt: 0 })),
};

/** The list after opening `p`: first, once, at most MAX_RECENT. */
export function addRecent(list: RecentProduct[], p: RecentProduct): RecentProduct[] {
  return [p, ...list.filter((r) => r.id !== p.id)].slice(0, MAX_RECENT);
}

export type StorageItems = {
  serverUrl: Item<string>;
  tenant: Item<string>;
  session: Item<Session | null>;
  collectQueue: Item<QueuedCollect[]>;
  editQueue: Item<QueuedEdit[]>;
  recentProducts: Item<RecentProduct[]>;
  /** The side panel's per-tab state (panel-tabs.ts), for the browser session only. */
  panelTabs: Item<TabStates>;
};

export function defineStorageItems(): StorageItems {
  return {
    serverUrl: storage.defineItem<string>("local:serverUrl", { fallback: "", version: 1 }),
    tenant: storage.defineItem<string>("local:tenant", { fallback: "", version: 1 }),
    session: storage.defineItem<Session | null>("local:session", { fallback: null, version: 1 }),
    collectQueue: storage.defineItem<QueuedCollect[]>("local:collectQueue", { fallback: [], version: 1 }),
    editQueue: storage.defineItem<QueuedEdit[]>("local:editQueue", { fallback: [], version: 1 }),
    recentProducts: storage.defineItem<RecentProduct[]>("local:recentProducts", {
      fallback: [],
      version: 2,
      migrations: recentMigrations,
    }),
    panelTabs: storage.defineItem<TabStates>("session:panelTabs", { fallback: {}, version: 1 }),
  };
}
