// Items on a local site (MLM, MLB, MLC, MCO): creation, one item's read and a seller's item search.
// Docs: docs/12-products/publica-productos.md ("Publica un artículo": POST /items and its answer; "Consultar
// productos": GET /items/{id}); docs/04-items/items-y-busquedas.md (GET /users/{id}/items/search: sku is the item's
// seller_custom_field, seller_sku its SELLER_SKU attribute; status, limit ≤ 100, offset; results are item ids).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import { mlId } from "../types.ts";

/** An item as POST /items and GET /items/{id} answer it (publica-productos.md): the fields we read, the rest kept. */
const meliItem = z.looseObject({
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
const itemSearchPage = z.looseObject({
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
  s.send<MeliItem>("POST", "/items", { ...o, body, headers: { ...o.headers, "x-idempotency-key": idempotencyKey }, schema: meliItem });

/** GET /users/{id}/items/search (items-y-busquedas.md): the seller's item ids matching the filters. */
export const searchSellerItems = (s: MeliSession, sellerId: string, q: SellerItemsQuery = {}, o: CallOptions = {}) =>
  s.send<ItemSearchPage>("GET", `/users/${encodeURIComponent(sellerId)}/items/search`, {
    ...o,
    query: { sku: q.sku, seller_sku: q.sellerSku, status: q.status, limit: q.limit, offset: q.offset },
    schema: itemSearchPage,
  });

// ---------------------------------------------------------------------------------------------------------------
// The listing centre's calls: reads for sync and import, edits, descriptions, variations, pictures, sale terms.

/** A variation (variaciones.md "Consultar variaciones"): GET /items/{id}/variations answers a list of these. */
const itemVariation = z.looseObject({
  id: mlId,
  price: z.number().nullish(),
  available_quantity: z.number().nullish(),
  sold_quantity: z.number().nullish(),
  picture_ids: z.array(z.string()).nullish(),
  seller_custom_field: z.string().nullish(),
  attribute_combinations: z
    .array(z.looseObject({ id: z.string(), value_id: z.string().nullish(), value_name: z.string().nullish() }))
    .nullish(),
  attributes: z.array(z.looseObject({ id: z.string(), value_id: z.string().nullish(), value_name: z.string().nullish() })).nullish(),
});

/**
 * An item as the listing centre reads it (GET /items/{id}, the multiget's bodies, GET /marketplace/items/{id}): what a
 * listing record keeps, its variations' stock and SKUs, its pictures and package.
 */
const listingItem = meliItem.extend({
  sold_quantity: z.number().nullish(),
  thumbnail: z.string().nullish(),
  pictures: z.array(z.looseObject({ id: z.string(), url: z.string().nullish(), secure_url: z.string().nullish() })).nullish(),
  health: z.number().nullish(),
  date_created: z.string().nullish(),
  /** A marketplace item of a global (CBT) item names it here. */
  parent_item_id: z.string().nullish(),
  attributes: z
    .array(
      z.looseObject({
        id: z.string(),
        value_id: z.string().nullish(),
        value_name: z.string().nullish(),
        value_struct: z.looseObject({ number: z.number(), unit: z.string() }).nullish(),
      }),
    )
    .nullish(),
  variations: z.array(itemVariation).nullish(),
  shipping: z.looseObject({ dimensions: z.string().nullish() }).nullish(),
});
export type ListingItem = z.infer<typeof listingItem>;

/**
 * One entry of the multiget GET /items?ids= (items-y-busquedas.md "Multiget"): {code, body}, the item when 200, the
 * error body otherwise (404 for an id that does not exist).
 */
const multigetFound = z.looseObject({ code: z.literal(200), body: listingItem });
const multigetMissed = z.looseObject({
  code: z.number().refine((c) => c !== 200, "a 200 entry must carry an item"),
  body: z.looseObject({ message: z.string().nullish(), error: z.string().nullish() }).nullish(),
});
const multigetEntry = z.union([multigetFound, multigetMissed]);
export type MultigetEntry = z.infer<typeof multigetEntry>;
export const isFoundEntry = (e: MultigetEntry): e is z.infer<typeof multigetFound> => e.code === 200;

/** Ids per multiget (items-y-busquedas.md: at most 20). */
export const MULTIGET_MAX_IDS = 20;

/** GET /items?ids= with the seller's token: one entry per id, in the order asked (items-y-busquedas.md "Multiget"). */
export const getItems = (s: MeliSession, ids: string[], o: CallOptions = {}) =>
  s.send("GET", "/items", { ...o, query: { ids: ids.join(",") }, schema: multigetEntry.array() });

/** GET /items/{id} (publica-productos.md "Consultar productos"): the publisher's and the listing centre's read. */
export const getItem = (s: MeliSession, itemId: string, o: CallOptions = {}) =>
  s.send("GET", `/items/${encodeURIComponent(itemId)}`, { ...o, schema: listingItem });

/**
 * GET /marketplace/items/{id}: a global item (CBT…) or one of its marketplace items, as the global seller holds it
 * (Global Selling "Marketplace items", global-selling.mercadolibre.com/devsite/marketplace-items).
 */
export const getMarketplaceItem = (s: MeliSession, itemId: string, o: CallOptions = {}) =>
  s.send("GET", `/marketplace/items/${encodeURIComponent(itemId)}`, { ...o, schema: listingItem });

/**
 * GET /users/{id}/items/search?search_type=scan (items-y-busquedas.md "Search de ítems con scan"): past 1,000 items
 * the search pages with a scroll_id (each page gives the next one, valid 5 minutes; an expired one is a 400).
 */
export const scanSellerItems = (s: MeliSession, sellerId: string, p: { limit: number; scrollId?: string }, o: CallOptions = {}) =>
  s.send("GET", `/users/${encodeURIComponent(sellerId)}/items/search`, {
    ...o,
    query: { search_type: "scan", limit: p.limit, scroll_id: p.scrollId },
    schema: itemSearchPage,
  });

/** A PUT's answer: the item as it is after the change (or {} where the marketplace answers only success). */
const putAnswer = z.looseObject({ id: z.string().optional() });

/**
 * PUT /items/{id} (producto-sincroniza-modifica-publicaciones.md; variaciones.md "Modificar el stock"): price, stock,
 * status, title, pictures, variations (every variation id to keep), shipping.dimensions, or {deleted:"true"}.
 */
export const updateItem = (s: MeliSession, itemId: string, body: Record<string, unknown>, o: CallOptions = {}) =>
  s.send("PUT", `/items/${encodeURIComponent(itemId)}`, { ...o, body, schema: putAnswer });

/**
 * Deleting an item as re-publica.md / producto-sincroniza-modifica-publicaciones.md describe it: a live item is
 * closed first (PUT {status:"closed"}), then PUT {deleted:"true"}; a closed item cannot be reopened.
 */
export async function deleteItem(s: MeliSession, itemId: string, p: { closed: boolean }, o: CallOptions = {}) {
  if (!p.closed) await updateItem(s, itemId, { status: "closed" }, o);
  return updateItem(s, itemId, { deleted: "true" }, o);
}

/** GET /items/{id}/description (descripcion-de-articulos.md): plain text only. */
const itemDescription = z.looseObject({ plain_text: z.string().nullish(), text: z.string().nullish() });
export const getItemDescription = (s: MeliSession, itemId: string, o: CallOptions = {}) =>
  s.send("GET", `/items/${encodeURIComponent(itemId)}/description`, { ...o, schema: itemDescription });

/**
 * POST /items/{id}/description for an item without one, PUT to change it (descripcion-de-articulos.md); the text is
 * plain (no HTML, no emoji).
 */
export const writeItemDescription = (s: MeliSession, itemId: string, plainText: string, p: { exists: boolean }, o: CallOptions = {}) =>
  s.send(p.exists ? "PUT" : "POST", `/items/${encodeURIComponent(itemId)}/description`, {
    ...o,
    body: { plain_text: plainText },
    schema: itemDescription,
  });

/** GET /items/{id}/variations (variaciones.md "Consultar variaciones"): the item's variations. */
export const getItemVariations = (s: MeliSession, itemId: string, o: CallOptions = {}) =>
  s.send("GET", `/items/${encodeURIComponent(itemId)}/variations`, { ...o, schema: itemVariation.array() });

/**
 * The stock of an item with variations (variaciones.md "Modificar el stock"): PUT /items/{id} listing every
 * variation by id (a variation left out would be deleted) with its new available_quantity.
 */
export const updateVariationStock = (
  s: MeliSession,
  itemId: string,
  stock: { id: string | number; available_quantity: number }[],
  o: CallOptions = {},
) => updateItem(s, itemId, { variations: stock.map((v) => ({ id: v.id, available_quantity: v.available_quantity })) }, o);

/** POST /pictures/items/upload's answer (trabajar-con-imagenes.md "Validar y cargar una imagen"). */
const uploadedPicture = z.looseObject({
  id: z.string().min(1),
  max_size: z.string().nullish(),
  variations: z.array(z.looseObject({ size: z.string(), url: z.string(), secure_url: z.string().nullish() })).nullish(),
});

/**
 * POST /pictures/items/upload (trabajar-con-imagenes.md): the file as multipart field `file` (JPG or PNG, up to
 * 10 MB); the answer's id goes into an item's pictures as {id}.
 */
export const uploadPicture = (s: MeliSession, file: { data: Buffer; filename: string; contentType: string }, o: CallOptions = {}) =>
  s.send("POST", "/pictures/items/upload", { ...o, multipart: { field: "file", ...file }, schema: uploadedPicture });

/**
 * GET /categories/{id}/sale_terms (publica-productos.md "Garantía del producto"): the warranty terms an item of the
 * category takes in sale_terms (WARRANTY_TYPE values, WARRANTY_TIME units).
 */
const saleTerm = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  value_type: z.string(),
  values: z.array(z.looseObject({ id: z.string(), name: z.string() })).nullish(),
  allowed_units: z.array(z.looseObject({ id: z.string(), name: z.string().nullish() })).nullish(),
  default_unit: z.string().nullish(),
});
export const getCategorySaleTerms = (s: MeliSession, categoryId: string, o: CallOptions = {}) =>
  s.send("GET", `/categories/${encodeURIComponent(categoryId)}/sale_terms`, { ...o, schema: saleTerm.array() });

/** GET /visits/items?ids= (docs/19-metrics/recurso-de-visitas.md "Visitas totales por artículo"): { item id: total }. */
const itemVisits = z.record(z.string(), z.unknown());
/** Ids per visits call (the listing sync reads them in chunks of this many). */
export const VISITS_MAX_IDS = 50;
export const getItemVisits = (s: MeliSession, ids: string[], o: CallOptions = {}) =>
  s.send("GET", "/visits/items", { ...o, query: { ids: ids.join(",") }, schema: itemVisits });
