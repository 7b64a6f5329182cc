// The category cache in IndexedDB (spec §9: a local database, version 1, one object store): each site's tree with the
// server's version of it, so a reload neither fetches the tree again nor shows a stale one (the version is checked
// with the server, which answers notModified without the tree). Cleared on logout.
import { openDB, type IDBPDatabase } from "idb";
import type { CategoryNode, SiteId } from "../stores/platform.ts";

const CATEGORY_DB_NAME = "erp-category-cache";
const CATEGORY_DB_VERSION = 1;
const CATEGORY_STORE = "categories";

/** One site's cached tree (key: the site id). */
export type CachedCategoryTree = { version: string; tree: CategoryNode[]; savedAt: number };

let db: Promise<IDBPDatabase> | null = null;

function open(): Promise<IDBPDatabase> {
  db ??= openDB(CATEGORY_DB_NAME, CATEGORY_DB_VERSION, {
    upgrade(d) {
      if (!d.objectStoreNames.contains(CATEGORY_STORE)) d.createObjectStore(CATEGORY_STORE);
    },
  });
  return db;
}

/** A record this version of the console wrote (anything else, such as a bare array, is ignored and replaced). */
function isCached(v: unknown): v is CachedCategoryTree {
  return (
    !!v && typeof v === "object" && typeof (v as CachedCategoryTree).version === "string" && Array.isArray((v as CachedCategoryTree).tree)
  );
}

export async function readCategoryTree(site: SiteId): Promise<CachedCategoryTree | undefined> {
  const v: unknown = await (await open()).get(CATEGORY_STORE, site);
  return isCached(v) ? v : undefined;
}

export async function writeCategoryTree(site: SiteId, version: string, tree: CategoryNode[]): Promise<void> {
  await (await open()).put(CATEGORY_STORE, { version, tree, savedAt: Date.now() } satisfies CachedCategoryTree, site);
}

export async function readAllCategoryTrees(): Promise<Map<SiteId, CachedCategoryTree>> {
  const d = await open();
  const keys = (await d.getAllKeys(CATEGORY_STORE)) as SiteId[];
  const out = new Map<SiteId, CachedCategoryTree>();
  for (const k of keys) {
    const v: unknown = await d.get(CATEGORY_STORE, k);
    if (isCached(v)) out.set(k, v);
  }
  return out;
}

export async function clearCategoryCache(): Promise<void> {
  await (await open()).clear(CATEGORY_STORE);
}
