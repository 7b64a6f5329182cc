// Global Selling (CBT) items: one global item in English and USD, sold on the seller's marketplace sites.
// Docs: Global Selling "Publish items" (global-selling.mercadolibre.com/devsite/global-listing, updated 2026-01-28):
// POST /global/items with sites_to_sell [{site_id, logistic_type, listing_type_id, net_proceeds | price (USD)}] answers
// the global item and one entry per site, each the marketplace item (with its seller_id) or that site's error, so a
// site can fail while the others go live; POST /global/items/{CBT id} adds sites to an existing item. Global Selling
// "Marketplace items" (devsite/marketplace-items): GET /items/{CBT id}/marketplace_items lists the sites it is on.
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import { errorBody, mlId } from "../types.ts";

/** One site of sites_to_sell: what the seller receives there (net_proceeds, USD) or its price (USD), not both. */
export type SiteToSell = {
  site_id: string;
  logistic_type: "remote" | "fulfillment";
  listing_type_id?: string;
  net_proceeds?: number;
  price?: number;
  /** The title in the site's language. */
  title?: string;
};

/** One entry of site_items: the marketplace item created on the site, or why the site refused it. */
const siteItem = z.looseObject({
  site_id: z.string().nullish(),
  item_id: z.string().optional(),
  seller_id: mlId.optional(),
  logistic_type: z.string().optional(),
  error: errorBody.optional(),
});
export type SiteItem = z.infer<typeof siteItem>;

/** POST /global/items and POST /global/items/{id}. */
const globalItemAnswer = z.looseObject({
  item_id: z.string().min(1),
  site_id: z.string().optional(),
  site_items: z.array(siteItem),
});
export type GlobalItemAnswer = z.infer<typeof globalItemAnswer>;

/** GET /items/{CBT id}/marketplace_items. */
const marketplaceItems = z.looseObject({
  item_id: z.string(),
  marketplace_items: z.array(
    z.looseObject({
      item_id: z.string(),
      site_id: z.string(),
      user_id: mlId.optional(),
      logistic_type: z.string().nullish(),
      status: z.string().nullish(),
    }),
  ),
});
export type MarketplaceItems = z.infer<typeof marketplaceItems>;

/**
 * POST /global/items: creates the global item and its marketplace items. The key goes out as x-idempotency-key, so a
 * creation resent after a lost answer is not a second item.
 */
export const createGlobalItem = (
  s: MeliSession,
  body: Record<string, unknown> & { sites_to_sell: SiteToSell[] },
  idempotencyKey: string,
  o: CallOptions = {},
) =>
  s.send<GlobalItemAnswer>("POST", "/global/items", {
    ...o,
    body,
    headers: { ...o.headers, "x-idempotency-key": idempotencyKey },
    schema: globalItemAnswer,
  });

/** POST /global/items/{CBT id}: sells an existing global item on more sites. */
export const addGlobalItemSites = (s: MeliSession, globalItemId: string, sites: SiteToSell[], o: CallOptions = {}) =>
  s.send<GlobalItemAnswer>("POST", `/global/items/${encodeURIComponent(globalItemId)}`, {
    ...o,
    body: { sites_to_sell: sites },
    schema: globalItemAnswer,
  });

/** GET /items/{CBT id}/marketplace_items: the sites a global item is sold on, and its item there. */
export const getMarketplaceItems = (s: MeliSession, globalItemId: string, o: CallOptions = {}) =>
  s.send<MarketplaceItems>("GET", `/items/${encodeURIComponent(globalItemId)}/marketplace_items`, { ...o, schema: marketplaceItems });

/**
 * PUT /global/items/{id} (Global Selling "Publish items", devsite/global-listing): on the global item (CBT…) what every
 * site shares (stock, pictures, package attributes); on one of its marketplace items that site's price, title and
 * status. Success is {} with 200.
 */
export const updateGlobalItem = (s: MeliSession, itemId: string, body: Record<string, unknown>, o: CallOptions = {}) =>
  s.send("PUT", `/global/items/${encodeURIComponent(itemId)}`, { ...o, body, schema: z.looseObject({}) });
