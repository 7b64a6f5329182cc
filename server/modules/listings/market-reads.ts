// What the listing centre reads of Mercado Libre, and what a read changes on a listing: the multiget (GET /items?ids=,
// 20 ids a call) answering one ItemRead per id, the visits resource (GET /visits/items?ids=, 50 ids a call), and the
// listing fields an item's read sets. The calls themselves are the adapter's (integrations/mercadolibre/endpoints).
import type { FastifyBaseLogger } from "fastify";
import type { listings } from "../../db/schema.ts";
import type { MeliExchange, MeliSession } from "../../integrations/mercadolibre/client.ts";
import {
  getItems,
  getItemVisits,
  isFoundEntry,
  MULTIGET_MAX_IDS,
  VISITS_MAX_IDS,
  type ListingItem,
} from "../../integrations/mercadolibre/endpoints/items.ts";
import { AppError } from "../../http/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";

/** Ids per multiget (Mercado Libre's maximum). */
export const MULTIGET_IDS = MULTIGET_MAX_IDS;
/** Ids per visits call (Mercado Libre's maximum): a sync works in units of this many listings. */
export const VISITS_IDS = VISITS_MAX_IDS;

/** One item's read: the item, gone (deleted on the marketplace), or a failure with its reason. */
export type ItemRead = { kind: "item"; item: ListingItem } | { kind: "deleted" } | { kind: "failed"; reason: string };

export function statusOfItem(meliStatus: string | null | undefined): ListingStatus {
  if (meliStatus === "paused") return ListingStatus.Paused;
  if (meliStatus === "closed") return ListingStatus.Closed;
  if (meliStatus === "under_review" || meliStatus === "inactive") return ListingStatus.UnderReview;
  return ListingStatus.Active;
}

/** The SKUs an item carries: SELLER_SKU attributes and seller_custom_field, on the item and on its variations. */
export function skusOfItem(item: ListingItem): string[] {
  const out: string[] = [];
  const fromAttrs = (attrs: { id: string; value_name?: string | null }[] | null | undefined) =>
    (attrs ?? []).filter((a) => a.id === "SELLER_SKU" && a.value_name).map((a) => a.value_name!.trim());
  out.push(...fromAttrs(item.attributes));
  if (item.seller_custom_field) out.push(item.seller_custom_field.trim());
  for (const v of item.variations ?? []) {
    out.push(...fromAttrs(v.attributes));
    if (v.seller_custom_field) out.push(v.seller_custom_field.trim());
  }
  return [...new Set(out.filter(Boolean))];
}

/** What a read item changes on its listing. */
export function itemValues(item: ListingItem, now: Date): Partial<typeof listings.$inferInsert> {
  const v: Partial<typeof listings.$inferInsert> = { status: statusOfItem(item.status), syncTime: now };
  if (typeof item.title === "string") v.title = item.title;
  if (typeof item.price === "number") v.price = item.price.toFixed(2);
  if (typeof item.currency_id === "string") v.currency = item.currency_id;
  if (typeof item.available_quantity === "number") v.stock = item.available_quantity;
  if (typeof item.sold_quantity === "number") v.orders = item.sold_quantity;
  if (typeof item.permalink === "string") v.permalink = item.permalink;
  if (typeof item.health === "number") v.health = item.health.toFixed(2);
  const image = item.pictures?.[0]?.secure_url ?? item.pictures?.[0]?.url ?? item.thumbnail;
  if (image) v.image = image;
  return v;
}

export const chunks = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/** Runs `fn` over items with at most `limit` at once. */
export async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await fn(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The call log names the ids read (the client's exchange has the path without its query). */
const withIds = (observe: (x: MeliExchange) => void, ids: string[]) => (x: MeliExchange) =>
  observe({ ...x, path: `${x.path}?ids=${ids.join(",")}` });

/**
 * Multiget of up to 20 ids; every id answers one ItemRead (a failed call fails them all with its reason). A 404 entry,
 * or an item whose sub_status says deleted, is gone from the marketplace.
 */
export async function readItems(shop: MeliSession, ids: string[], observe: (x: MeliExchange) => void): Promise<Map<string, ItemRead>> {
  const out = new Map<string, ItemRead>();
  try {
    const answer = await getItems(shop, ids, { observe: withIds(observe, ids) });
    for (const [i, entry] of answer.entries()) {
      if (isFoundEntry(entry)) {
        const item = entry.body;
        out.set(item.id, item.sub_status?.includes("deleted") ? { kind: "deleted" } : { kind: "item", item });
      } else if (entry.code === 404) out.set(ids[i], { kind: "deleted" });
      else out.set(ids[i], { kind: "failed", reason: entry.body?.message ?? `HTTP ${entry.code}` });
    }
  } catch (err) {
    // A shop whose authorization is gone (MeliApiError "reauthorize") fails the whole call (重新授权), not each item.
    if (!(err instanceof AppError) || ("kind" in err && err.kind === "reauthorize")) throw err;
    for (const id of ids) out.set(id, { kind: "failed", reason: err.message });
  }
  for (const id of ids) if (!out.has(id)) out.set(id, { kind: "failed", reason: "美客多未返回该商品" });
  return out;
}

/**
 * Total visits of local items (global items have none), VISITS_IDS a call. An id left out of the answer, or a failed
 * call, has no entry: its listing keeps the views it had.
 */
export async function readVisits(
  shop: MeliSession,
  ids: string[],
  observe: (x: MeliExchange) => void,
  log: FastifyBaseLogger,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const c of chunks(ids, VISITS_IDS)) {
    try {
      const answer = await getItemVisits(shop, c, { observe: withIds(observe, c) });
      for (const id of c) {
        const n = answer[id];
        if (typeof n === "number" && Number.isInteger(n) && n >= 0) out.set(id, n);
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      log.warn({ err, ids: c.length }, "listing visits read failed");
    }
  }
  return out;
}
