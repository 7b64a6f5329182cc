// Selling costs: GET /sites/{SITE}/listing_prices. Docs: docs/12-products/comision-por-vender.md ("Costos por
// vender"): the answer is a list with one entry per listing type (an example filtered by category and listing type
// shows the single entry alone, so one object is read as a list of one); the fixed fee per sale depends on the seller's
// logistic type and shipping mode (sites switched to that structure in March-April 2026), so both are sent: without
// them the fixed fee answered "no coincidirá" with what is charged.
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import type { MeliSiteCode } from "../types.ts";

/** One listing type's costs (comision-por-vender.md "Descripción de atributos"). */
const listingPrice = z.looseObject({
  listing_type_id: z.string(),
  listing_type_name: z.string().optional(),
  currency_id: z.string(),
  /** The cost of publishing. */
  listing_fee_amount: z.number(),
  /** The cost of one sale at the price asked. */
  sale_fee_amount: z.number(),
  sale_fee_details: z
    .looseObject({
      /** The whole commission, in % of the price. */
      percentage_fee: z.number(),
      /** The fixed cost per unit sold (for the logistic type and shipping mode asked). */
      fixed_fee: z.number(),
      gross_amount: z.number().optional(),
      financing_add_on_fee: z.number().optional(),
      meli_percentage_fee: z.number().optional(),
    })
    .optional(),
});
export type ListingPrice = z.infer<typeof listingPrice>;

/** comision-por-vender.md "Parámetros" (logistic_type values: drop_off, cross_docking, xd_drop_off, self_service…). */
export type ListingPricesQuery = {
  price: number;
  categoryId?: string;
  listingTypeId?: string;
  currencyId?: string;
  logisticType?:
    "drop_off" | "cross_docking" | "xd_drop_off" | "self_service" | "turbo" | "fulfillment" | "default" | "custom" | "not_specified";
  shippingMode?: "me2" | "me1" | "custom" | "not_specified";
  /** Grams; required on MLA only. */
  billableWeight?: number;
  quantity?: number;
};

/** The answer read as a list (one object is a list of one), so a bad entry names its field. */
const listingPrices = z.preprocess((v) => (Array.isArray(v) ? v : [v]), listingPrice.array());

/** GET /sites/{SITE}/listing_prices: the costs of each listing type for a price, read as a list. */
export const getListingPrices = (s: MeliSession, site: MeliSiteCode, q: ListingPricesQuery, o: CallOptions = {}) =>
  s.send<ListingPrice[]>("GET", `/sites/${site}/listing_prices`, {
    ...o,
    query: {
      price: q.price,
      category_id: q.categoryId,
      listing_type_id: q.listingTypeId,
      currency_id: q.currencyId,
      logistic_type: q.logisticType,
      shipping_mode: q.shippingMode,
      billable_weight: q.billableWeight,
      quantity: q.quantity,
    },
    schema: listingPrices,
  });
