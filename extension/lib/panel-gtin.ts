// The side panel's 无条码原因 field (Mercado Libre's EMPTY_GTIN_REASON): asked for a category site whose category takes
// it where the pre-flight found the GTIN pool short (shared gtin-rule.ts), and kept while a reason is chosen there, so
// a product without GTIN can be published from the panel with an empty pool.
import type { PreflightResultView } from "#shared/contract/publish.ts";
import { fixedByGtinReason } from "#shared/publish/gtin-rule.ts";
import { categorySiteOf, categorySitesOf } from "#shared/publish/sites.ts";
import type { GtinReasons } from "./panel-publish.ts";

/**
 * The category sites whose field shows, in site order (a global shop's one global category, else each chosen site):
 * those the pre-flight found short of codes where a reason would do, and those with a reason chosen.
 */
export function gtinReasonSites(preflight: PreflightResultView | null, isCbt: boolean, sites: number[], chosen: GtinReasons): number[] {
  const shown = new Set<number>();
  for (const p of preflight?.pairs ?? []) if (p.problems.some(fixedByGtinReason)) shown.add(categorySiteOf(isCbt, p.site));
  for (const [site, valueId] of Object.entries(chosen)) if (valueId) shown.add(Number(site));
  return categorySitesOf(isCbt, sites).filter((s) => shown.has(s));
}
