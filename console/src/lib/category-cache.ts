// The category cache in IndexedDB (spec §9: a local database, version 1, one object store): category trees per site,
// so a reload does not fetch megabytes again. Cleared on logout.
import { openDB, type IDBPDatabase } from "idb";
import type { CategoryNode, SiteId } from "../stores/platform.ts";

export const CATEGORY_DB_NAME = "erp-category-cache";
export const CATEGORY_DB_VERSION = 1;
export const CATEGORY_STORE = "categories";

let db: Promise<IDBPDatabase> | null = null;

function open(): Promise<IDBPDatabase> {
  db ??= openDB(CATEGORY_DB_NAME, CATEGORY_DB_VERSION, {
    upgrade(d) {
      if (!d.objectStoreNames.contains(CATEGORY_STORE)) d.createObjectStore(CATEGORY_STORE);
    },
  });
  return db;
}

export async function readCategoryTree(site: SiteId): Promise<CategoryNode[] | undefined> {
  return (await open()).get(CATEGORY_STORE, site);
}

export async function writeCategoryTree(site: SiteId, tree: CategoryNode[]): Promise<void> {
  await (await open()).put(CATEGORY_STORE, tree, site);
}

export async function readAllCategoryTrees(): Promise<Map<SiteId, CategoryNode[]>> {
  const d = await open();
  const keys = (await d.getAllKeys(CATEGORY_STORE)) as SiteId[];
  const out = new Map<SiteId, CategoryNode[]>();
  for (const k of keys) out.set(k, await d.get(CATEGORY_STORE, k));
  return out;
}

export async function clearCategoryCache(): Promise<void> {
  await (await open()).clear(CATEGORY_STORE);
}
