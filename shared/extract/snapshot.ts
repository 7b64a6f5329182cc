// The extractor's input (a snapshot of one page) and the contract every site adapter fulfils.
import { z } from "zod";
import type { BlockKind, PartialProduct, Platform } from "./product.ts";

/** A network answer the extension saw while the page loaded (mtop calls, price calls). Raw text keeps big ids exact. */
interface InterceptedResponse {
  url: string;
  status?: number;
  body: string;
}

export interface Snapshot {
  /** The product page address (the one the user opened or the crawler asked for). */
  url: string;
  /** ISO 8601 time of capture. */
  capturedAt: string;
  /** The page's HTML (server: the fetched body; extension: document.documentElement.outerHTML). */
  html?: string;
  /**
   * Page variables copied by the extension's MAIN-world script, keyed by the names in an adapter's `globals` (a dotted
   * name such as "runParams.data" means only that part was copied). Values went through JSON in the page, so numeric
   * ids there may already have lost precision: adapters prefer the HTML's script text when both exist.
   */
  globals?: Record<string, unknown>;
  intercepted?: InterceptedResponse[];
}

const MAX_HTML = 20 * 1024 * 1024;

/** For a route that receives snapshots (the extension's upload): the same shape, bounded. */
export const snapshotSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  capturedAt: z.iso.datetime({ offset: true }),
  html: z.string().max(MAX_HTML).optional(),
  globals: z.record(z.string(), z.unknown()).optional(),
  intercepted: z
    .array(z.object({ url: z.string().max(4096), status: z.number().int().optional(), body: z.string().max(MAX_HTML) }))
    .max(50)
    .optional(),
});

/** What locate() found: the raw page data and the name of the page shape it had. */
export interface Located<T = unknown> {
  shape: string;
  data: T;
}

export type Warn = (message: string) => void;

export interface Adapter<T = unknown> {
  /** Source id recorded in `sources` for the fields this adapter gave. */
  id: string;
  platform: Platform;
  /** Every host of the platform (login and captcha hosts too), for detectPlatform and block pages. */
  hosts: RegExp;
  /** The item id when `url` is one of this platform's product pages, else null. */
  match(url: URL): string | null;
  /** Page variables the extension's MAIN-world script may copy for this adapter (never cookies or tokens). */
  globals: string[];
  /** Called when locate() found nothing: is this a login or captcha page? */
  detectBlock(snapshot: Snapshot): BlockKind | null;
  locate(snapshot: Snapshot): Located<T> | null;
  map(located: Located<T>, snapshot: Snapshot, warn: Warn): PartialProduct;
}

/** A global by its adapter-declared name: exact key first, else walk a dotted path from its root key. */
export function readGlobal(snapshot: Snapshot, name: string): unknown {
  const g = snapshot.globals;
  if (!g) return undefined;
  if (name in g) return g[name];
  const parts = name.split(".");
  let cur: unknown = g[parts[0]];
  for (const p of parts.slice(1)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

const SECRET_KEY = /token|csrf|cookie|session|passw|secret|^_?tb_token|^x5sec/i;

/**
 * A copy of a page value without the keys that look like credentials (csrfToken, _tb_token_…), for the extension's
 * MAIN-world script to run on every global it copies.
 */
export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_KEY.test(k)) continue;
    out[k] = scrubSecrets(v, depth + 1);
  }
  return out;
}
