// Shipping costs: what Mercado Libre charges a seller to ship a parcel, quoted before anything is listed.
// Docs: docs/13-shipping/costos-de-envios.md ("Consultar costos de envíos de un ítem":
// GET /users/{user_id}/shipping_options/free, dimensions "HxWxL,weight" or item_id, coverage.all_country.list_cost);
// docs/26-faqs/mercado-envios-costos-y-cotizaciones.md (send item_price, listing_type_id, mode/logistic_type and
// free_shipping with the dimensions, or list_cost may be 0; weight in whole grams; the cost is in the site's currency);
// docs/26-faqs/items-atributos-de-envio-y-dimensiones.md (dimensions in cm, weight in grams);
// Global Selling "Shipping fee calculator" (global-selling.mercadolibre.com/devsite/shipment-fee-calculation:
// GET /global/shipments/costs?dimensions=, one USD quote per marketplace site of the global seller).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";

/** GET /users/{user_id}/shipping_options/free: the seller's cost for one unit, in the site's currency. */
const freeShippingCost = z.looseObject({
  coverage: z.looseObject({
    all_country: z.looseObject({
      list_cost: z.number().min(0),
      currency_id: z.string(),
      billable_weight: z.number().nullish(),
    }),
    /** Only when a discount applies (verbose=true). */
    discount: z.looseObject({ rate: z.number(), type: z.string().nullish(), promoted_amount: z.number().nullish() }).nullish(),
  }),
});

/** GET /global/shipments/costs: one entry per marketplace site and logistic type, in USD. */
const globalShipmentCost = z.looseObject({
  list_cost: z.number().min(0),
  site_id: z.string(),
  currency: z.string(),
  logistic_type: z.string().nullish(),
  billable_weight: z.looseObject({ unit: z.string(), value: z.number(), type: z.string().nullish() }).nullish(),
});

/** The `dimensions` parameter: the three sides in centimetres and the weight in whole grams ("10x20x30,500"). */
export function dimensionsParam(sidesCm: readonly [number, number, number], grams: number): string {
  const side = (n: number) => String(Math.max(1, Math.round(n * 10) / 10));
  return `${sidesCm.map(side).join("x")},${Math.max(1, Math.round(grams))}`;
}

export type FreeShippingQuery = {
  /** dimensionsParam(...) */
  dimensions: string;
  /** The unit price, in the site's currency. */
  itemPrice: number;
  listingTypeId: string;
  /** true: the seller pays the shipping (free for the buyer). */
  freeShipping: boolean;
  mode?: string;
  logisticType?: string;
  condition?: string;
};

/** A seller's cost to ship one unit of these dimensions and price (with the discount it gets, verbose). */
export const getFreeShippingCost = (s: MeliSession, userId: string, q: FreeShippingQuery, o: CallOptions = {}) =>
  s.send("GET", `/users/${encodeURIComponent(userId)}/shipping_options/free`, {
    ...o,
    query: {
      dimensions: q.dimensions,
      item_price: q.itemPrice,
      listing_type_id: q.listingTypeId,
      mode: q.mode ?? "me2",
      logistic_type: q.logisticType,
      condition: q.condition ?? "new",
      free_shipping: q.freeShipping,
      verbose: true,
    },
    schema: freeShippingCost,
  });

/** A global seller's cost to ship a parcel of these dimensions to each of its marketplace sites, before listing. */
export const getGlobalShipmentCosts = (s: MeliSession, dimensions: string, o: CallOptions = {}) =>
  s.send("GET", "/global/shipments/costs", { ...o, query: { dimensions }, schema: globalShipmentCost.array() });
