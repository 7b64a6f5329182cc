// Items on a local site (MLM, MLB, MLC, MCO): creation, one item's read and a seller's item search.
// Docs: docs/12-products/publica-productos.md ("Publica un artículo": POST /items and its answer; "Consultar
// productos": GET /items/{id}); docs/04-items/items-y-busquedas.md (GET /users/{id}/items/search: sku is the item's
// seller_custom_field, seller_sku its SELLER_SKU attribute; status, limit ≤ 100, offset; results are item ids).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import { mlId } from "../types.ts";

/** An item as POST /items and GET /items/{id} answer it (publica-productos.md): the fields we read, the rest kept. */
export const meliItem = z.looseObject({
  id: z.string().min(1),
  site_id: z.string().optional(),
  title: z.string().optional(),
  seller_id: mlId.optional(),
  category_id: z.string().optional(),
  price: z.number().nullish(),
  currency_id: z.string().nullish(),
  available_quantity: z.number().optional(),
  listing_type_id: z.string().optional(),
  /** active, paused, closed, under_review, inactive, … */
  status: z.string().optional(),
  sub_status: z.array(z.string()).optional(),
  permalink: z.string().nullish(),
  seller_custom_field: z.string().nullish(),
});
export type MeliItem = z.infer<typeof meliItem>;

/** GET /users/{id}/items/search: a page of item ids. */
export const itemSearchPage = z.looseObject({
  seller_id: mlId.optional(),
  results: z.array(z.string()),
  paging: z.looseObject({ total: z.number(), offset: z.number().optional(), limit: z.number().optional() }),
  /** Only with search_type=scan. */
  scroll_id: z.string().nullish(),
});
export type ItemSearchPage = z.infer<typeof itemSearchPage>;

export type SellerItemsQuery = {
  /** The item's seller_custom_field (our publish key). */
  sku?: string;
  /** The SELLER_SKU attribute. */
  sellerSku?: string;
  status?: "active" | "paused" | "closed" | "under_review" | "inactive";
  /** At most 100. */
  limit?: number;
  /** At most 1000 (offset + limit); past it, search_type=scan. */
  offset?: number;
};

/**
 * POST /items: creates an item (publica-productos.md "Publica un artículo"). The key goes out as x-idempotency-key,
 * so a creation resent after a lost answer is not a second item.
 */
export const createItem = (s: MeliSession, body: Record<string, unknown>, idempotencyKey: string, o: CallOptions = {}) =>
  s.send("POST", "/items", { ...o, body, headers: { ...o.headers, "x-idempotency-key": idempotencyKey }, schema: meliItem });

/** GET /items/{id} (publica-productos.md "Consultar productos"). */
export const getItem = (s: MeliSession, itemId: string, o: CallOptions = {}) =>
  s.send("GET", `/items/${encodeURIComponent(itemId)}`, { ...o, schema: meliItem });

/** GET /users/{id}/items/search (items-y-busquedas.md): the seller's item ids matching the filters. */
export const searchSellerItems = (s: MeliSession, sellerId: string, q: SellerItemsQuery = {}, o: CallOptions = {}) =>
  s.send("GET", `/users/${encodeURIComponent(sellerId)}/items/search`, {
    ...o,
    query: { sku: q.sku, seller_sku: q.sellerSku, status: q.status, limit: q.limit, offset: q.offset },
    schema: itemSearchPage,
  });
