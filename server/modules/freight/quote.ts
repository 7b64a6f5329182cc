// A site's freight table from Mercado Libre's own quotes. Mercado Libre has no table endpoint: it quotes one parcel at a
// time (endpoints/shipping-costs.ts). So PullMeliFreight quotes a compact parcel at the top weight of each band and
// stores what the seller pays for it: the band's worst case, so a price that includes the freight never falls short
// for a parcel of that band (a bulky, light parcel is billed by volume and can still cost more: docs/decisions.md).
import type { MeliSession } from "../../integrations/mercadolibre/client.ts";
import { dimensionsParam, getFreeShippingCost, getGlobalShipmentCosts } from "../../integrations/mercadolibre/endpoints/shipping-costs.ts";
import { badRequest } from "../../http/errors.ts";

/** Grams: the upper end of each band the table holds (the first starts at 0). */
export const FREIGHT_BANDS = [100, 200, 300, 500, 1000, 2000, 5000, 10000, 20000, 30000] as const;

/**
 * The parcel quoted for a weight: a cube small enough that its volume weight (at 4,000 cm³ a kilo, under the 5,000 the
 * carriers use) stays under the weight, at least 3 cm a side.
 */
export function parcelOf(grams: number): [number, number, number] {
  const side = Math.max(3, Math.floor(Math.cbrt(grams * 4)));
  return [side, side, side];
}

/**
 * The unit price quoted on a local site: where Mercado Libre makes free shipping mandatory (its "costos de venta"
 * pages: MXN 299, BRL 79, CLP 19,990, COP 60,000), so the quote is what the seller pays on every sale it must ship free;
 * under it, the items we publish (free_shipping false) leave the shipping to the buyer.
 */
export const QUOTE_PRICE: Record<1 | 2 | 3 | 4, number> = { 1: 299, 2: 79, 3: 19990, 4: 60000 };

type QuotedBand = { start: number; end: number; freight: number };
export type QuotedTable = { currency: string; bands: QuotedBand[] };

const banded = (costs: number[]): QuotedBand[] =>
  FREIGHT_BANDS.map((end, i) => ({ start: i === 0 ? 0 : FREIGHT_BANDS[i - 1], end, freight: costs[i] }));

/** A local seller's table: its cost for each band's parcel, with free shipping, in the site's currency. */
export async function quoteLocalTable(shop: MeliSession, userId: string, site: 1 | 2 | 3 | 4, currency: string): Promise<QuotedTable> {
  const costs: number[] = [];
  for (const grams of FREIGHT_BANDS) {
    const answer = await getFreeShippingCost(shop, userId, {
      dimensions: dimensionsParam(parcelOf(grams), grams),
      itemPrice: QUOTE_PRICE[site],
      listingTypeId: "gold_special",
      freeShipping: true,
    });
    const quote = answer.coverage.all_country;
    if (quote.currency_id.toUpperCase() !== currency) throw badRequest(`美客多返回的运费币种${quote.currency_id}与站点币种${currency}不符`);
    costs.push(quote.list_cost);
  }
  return { currency, bands: banded(costs) };
}

/**
 * A global seller's table (USD): for each band, the dearest of its marketplace sites' remote shipping, since global
 * selling's freight rules are one table for every site a global item is sold on.
 */
export async function quoteGlobalTable(shop: MeliSession): Promise<QuotedTable & { sites: string[] }> {
  const costs: number[] = [];
  const sites = new Set<string>();
  for (const grams of FREIGHT_BANDS) {
    const answer = await getGlobalShipmentCosts(shop, dimensionsParam(parcelOf(grams), grams));
    const remote = answer.filter((a) => (a.logistic_type ?? "remote") === "remote");
    if (!remote.length) throw badRequest("美客多没有返回跨境运费：该全球卖家还没有开通任何站点");
    const other = remote.find((a) => a.currency.toUpperCase() !== "USD");
    if (other) throw badRequest(`美客多返回的跨境运费币种${other.currency}不是USD`);
    for (const a of remote) sites.add(a.site_id);
    costs.push(Math.max(...remote.map((a) => a.list_cost)));
  }
  return { currency: "USD", bands: banded(costs), sites: [...sites].sort() };
}
