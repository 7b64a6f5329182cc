// Freight rules (spec §3 freight rule; §7 MeliOther PullMeliFreight, GetMeliFreights): the freight of a parcel by weight
// band per site, pulled from Mercado Libre and used by the publish price formula when isContainsFreight.
import { z } from "zod";
import { pagedQuery, queryInt } from "./common.ts";
import { siteNumber } from "./meli.ts";

const freightRule = z.object({
  id: z.string(),
  /** Our site number (1-5; 5 is global selling's table). */
  site: siteNumber,
  /** Grams: the rule holds weights over start, up to and with end. */
  start: z.number(),
  end: z.number(),
  /** In `currency` (the site's; USD for global selling). */
  freight: z.number(),
  currency: z.string(),
  creationTime: z.string(),
});
export type FreightRule = z.infer<typeof freightRule>;

export const pullMeliFreightQuery = z.object({ site: queryInt(1, 5) });
export const pullMeliFreightResult = z.object({ site: siteNumber, count: z.number().int(), currency: z.string() });

export const getMeliFreightsQuery = pagedQuery(["site", "start", "end", "freight", "creationTime"]).extend({
  Site: queryInt(1, 5).optional(),
});
export const freightRulePage = z.object({ items: z.array(freightRule), totalCount: z.number().int() });
export type FreightRulePage = z.infer<typeof freightRulePage>;

/** Grams as the rules read them: over start, up to and with end (the first band starts at 0 and holds 0). */
export function freightFor<R extends { start: number | string; end: number | string; freight: number | string }>(
  rules: readonly R[],
  weightGrams: number | null,
): R | null {
  if (weightGrams === null || !Number.isFinite(weightGrams) || weightGrams < 0) return null;
  return rules.find((r) => (weightGrams > Number(r.start) || Number(r.start) === 0) && weightGrams <= Number(r.end)) ?? null;
}
