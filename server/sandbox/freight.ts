// Freight by weight band per site: what a seller pays Mercado Libre's shipping for a parcel, as the sellers' freight
// table publishes it (a band is "over from_weight, up to to_weight grams"). Mercado Libre has no one endpoint for the
// whole table (its API answers a cost per item or per dimensions); the sandbox serves it whole at
// GET /sites/{SITE}/shipping_costs so PullMeliFreight can store a site's table in one read (docs/decisions.md
// "Freight rules"). Local sites in their currency, CBT (global selling) in USD.
import type { FastifyInstance } from "fastify";
import { notFound } from "./errors.ts";
import { params, route } from "./http.ts";
import { roundPrice, SITE_IDS, SITES, type SiteId } from "./sites.ts";

/** Grams: the upper end of each band (the first starts at 0). */
const BANDS = [100, 200, 300, 500, 1000, 2000, 5000, 10000, 20000, 30000];
/** The global-selling cost of each band, USD. */
const USD = [2.5, 3.1, 3.8, 5.0, 7.9, 12.5, 24.0, 42.0, 78.0, 115.0];

export type FreightBand = { from_weight: number; to_weight: number; cost: number };

/** The site's table: global selling's costs in USD, a local site's in its currency (its dollar rate, rounded). */
export function freightTable(site: SiteId): FreightBand[] {
  return BANDS.map((to, i) => ({
    from_weight: i === 0 ? 0 : BANDS[i - 1],
    to_weight: to,
    cost: site === "CBT" ? USD[i] : roundPrice(site, USD[i] * SITES[site].perUsd),
  }));
}

export function registerFreightRoutes(f: FastifyInstance) {
  f.get("/sites/:site/shipping_costs", route({ auth: "optional" }), async (req) => {
    const site = params(req).site.toUpperCase();
    if (!(SITE_IDS as readonly string[]).includes(site)) throw notFound(`Site ${params(req).site} not found`);
    const id = site as SiteId;
    return { site_id: id, currency_id: id === "CBT" ? "USD" : SITES[id].currency, weight_unit: "g", costs: freightTable(id) };
  });
}
