// Shipping costs as Mercado Libre quotes them to a seller before listing (there is no whole freight table: it answers
// one cost per parcel):
// - GET /users/{user_id}/shipping_options/free (docs/13-shipping/costos-de-envios.md "Consultar costos de envíos de un
//   ítem"; docs/26-faqs/mercado-envios-costos-y-cotizaciones.md): item_id or dimensions ("HxWxL,grams", whole grams)
//   are required; without item_price (and no item) list_cost is 0; the answer is coverage.all_country {list_cost,
//   currency_id, billable_weight} in the site's currency, with coverage.discount when one applies (verbose).
// - GET /global/shipments/costs?dimensions= (Global Selling "Shipping fee calculator"): a global seller's USD cost per
//   marketplace site, weights in lb.
// The sandbox's own cost model: a price per band of billable weight (the larger of the weight and the volume weight at
// 5,000 cm³ a kilo), in USD, at the site's dollar rate; at or above the site's free-shipping threshold the seller gets
// half off (free shipping is then mandatory), under it a seller who does not offer free shipping pays nothing.
import type { FastifyInstance } from "fastify";
import { badRequest, forbidden, notFound } from "./errors.ts";
import { caller, params, query, route } from "./http.ts";
import { isLocalSite, roundPrice, SITES, type LocalSiteId } from "./sites.ts";
import type { Store } from "./store.ts";

/** Grams: the upper end of each band (the first starts at 0), and its cost in USD. */
const BANDS = [100, 200, 300, 500, 1000, 2000, 5000, 10000, 20000, 30000];
const USD = [2.5, 3.1, 3.8, 5.0, 7.9, 12.5, 24.0, 42.0, 78.0, 115.0];
/** Past the last band, per started kilo. */
const USD_PER_KILO_OVER = 4;
/** Global selling: each marketplace's remote shipping against the base band cost. */
const GLOBAL_FACTOR: Record<LocalSiteId, number> = { MLM: 1, MLB: 1.15, MLC: 1.1, MCO: 0.95 };
const FREE_SHIPPING_DISCOUNT = 0.5;
const GRAMS_PER_LB = 453.592;

/** The band cost in USD of a billable weight in grams. */
function bandUsd(grams: number): number {
  const i = BANDS.findIndex((to) => grams <= to);
  if (i >= 0) return USD[i];
  return USD[USD.length - 1] + USD_PER_KILO_OVER * Math.ceil((grams - BANDS[BANDS.length - 1]) / 1000);
}

type Parcel = { sides: [number, number, number]; grams: number };

/** "HxWxL,weight" in centimetres and grams; null when malformed (whole grams only where asked). */
function parseDimensions(value: string | undefined, wholeGrams: boolean): Parcel | null {
  const m = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$/.exec((value ?? "").trim());
  if (!m) return null;
  const grams = Number(m[4]);
  if (wholeGrams && !Number.isInteger(grams)) return null;
  const sides = [Number(m[1]), Number(m[2]), Number(m[3])] as [number, number, number];
  return sides.every((s) => s > 0) && grams > 0 ? { sides, grams } : null;
}

const volumeGrams = (p: Parcel) => (p.sides[0] * p.sides[1] * p.sides[2]) / 5;
const billableGrams = (p: Parcel) => Math.ceil(Math.max(p.grams, volumeGrams(p)));

/** A local seller's full (list) cost for a parcel, in the site's currency. */
export const localShippingCost = (site: LocalSiteId, parcel: Parcel) =>
  roundPrice(site, bandUsd(billableGrams(parcel)) * SITES[site].perUsd);

/** A global seller's remote shipping to a marketplace site, USD. */
export const globalShippingCost = (site: LocalSiteId, parcel: Parcel) =>
  Math.round(bandUsd(billableGrams(parcel)) * GLOBAL_FACTOR[site] * 100) / 100;

/** The seller's share at a price: half off at the threshold, nothing under it without free shipping. */
export function sellerShare(site: LocalSiteId, full: number, price: number, freeShipping: boolean) {
  const mandatory = price >= SITES[site].fixedFeeUnder;
  if (!mandatory && !freeShipping) return { cost: 0, discount: null };
  if (!mandatory) return { cost: full, discount: null };
  const cost = roundPrice(site, full * (1 - FREE_SHIPPING_DISCOUNT));
  return { cost, discount: { rate: FREE_SHIPPING_DISCOUNT, type: "mandatory_free_shipping", promoted_amount: full } };
}

export function registerFreightRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });

  f.get("/users/:id/shipping_options/free", auth, async (req) => {
    const me = caller(req);
    const q = query(req);
    const user = store.state.users.get(Number(params(req).id));
    if (!user) throw badRequest("seller_id must have a value!");
    if (!store.ownIds(me).includes(user.id)) throw forbidden();
    if (!isLocalSite(user.siteId)) throw badRequest(`Shipping options are not available for site ${user.siteId}`);
    const site = user.siteId;
    let parcel: Parcel | null = null;
    let price = q.item_price === undefined || q.item_price === "" ? null : Number(q.item_price);
    if (price !== null && !(price >= 0)) throw badRequest(`Invalid value for item_price: ${q.item_price}`);
    if (q.item_id) {
      const item = store.state.items.get(q.item_id);
      if (!item || item.status !== "active" || item.seller_id !== user.id) throw notFound(`Item with id ${q.item_id} not found`);
      const dims = typeof item.shipping.dimensions === "string" ? item.shipping.dimensions : undefined;
      parcel = parseDimensions(dims, false) ?? { sides: [10, 10, 10], grams: 500 };
      price ??= item.price;
    }
    if (q.dimensions !== undefined) {
      parcel = parseDimensions(q.dimensions, true);
      if (!parcel) throw badRequest(`Invalid dimensions: ${q.dimensions} (expected HxWxL,weight in cm and whole grams)`);
    }
    if (!parcel) throw badRequest("item_id or dimensions is required");
    const free = String(q.free_shipping).toLowerCase() === "true";
    // Dimensions alone are not enough context: the FAQ's list_cost 0.
    const share = price === null ? { cost: 0, discount: null } : sellerShare(site, localShippingCost(site, parcel), price, free);
    const verbose = String(q.verbose).toLowerCase() === "true";
    return {
      coverage: {
        all_country: { list_cost: share.cost, currency_id: SITES[site].currency, billable_weight: billableGrams(parcel) },
        ...(verbose && share.discount ? { discount: share.discount } : {}),
      },
    };
  });

  f.get("/global/shipments/costs", auth, async (req) => {
    const me = caller(req);
    if (me.siteId !== "CBT") throw forbidden("Only global sellers can quote global shipments");
    const parcel = parseDimensions(query(req).dimensions, false);
    if (!parcel) throw badRequest(`Invalid dimensions: ${query(req).dimensions ?? ""}`);
    const lb = (g: number) => Math.round((g / GRAMS_PER_LB) * 1000) / 1000;
    const volumetric = volumeGrams(parcel) > parcel.grams;
    return me.marketplaces
      .filter((m) => isLocalSite(m.siteId))
      .map((m) => ({
        list_cost: globalShippingCost(m.siteId as LocalSiteId, parcel),
        site_id: m.siteId,
        currency: "USD",
        logistic_type: m.logisticType,
        weight: { unit: "lb", net_value: lb(parcel.grams), volumetric_value: lb(volumeGrams(parcel)) },
        billable_weight: { unit: "lb", value: lb(billableGrams(parcel)), type: volumetric ? "volumetric" : "net" },
      }));
  });
}
