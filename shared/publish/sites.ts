// Where a publish's categories are chosen (spec §3 publish request cateInfo): a local shop group lists in each site's own
// category; a global-selling (CBT) shop lists one global item in one CBT category, the global site's, on every site it
// sells on. The console's publish screen, the extension's side panel and the server's planner decide it here.
import { Site } from "../contract/enums.ts";
import { MELI_SITES } from "../contract/meli.ts";

/** The global site: a global-selling shop's one category is this site's, and its items are priced here (USD). */
export const GLOBAL_SITE = Site.cbt;

export const isGlobalSite = (site: number) => site === GLOBAL_SITE;

/** The site whose category a listing on `site` uses: the global site for a global-selling shop, else its own. */
export const categorySiteOf = (isCbt: boolean, site: number): number => (isCbt ? GLOBAL_SITE : site);

const inSiteOrder = <S extends number>(sites: readonly S[]): S[] => [...sites].sort((a, b) => a - b);

/**
 * The sites a publish asks a category for, in site order: none before a site is chosen, the global site alone for a
 * global-selling shop, else each chosen site.
 */
export function categorySitesOf<S extends number>(isCbt: boolean, sites: readonly S[]): (S | typeof GLOBAL_SITE)[] {
  if (sites.length === 0) return [];
  return isCbt ? [GLOBAL_SITE] : inSiteOrder(sites);
}

/** The chosen sites with `site` ticked (on) or unticked, in site order. */
export const withSite = <S extends number>(sites: readonly S[], site: S, on: boolean): S[] =>
  inSiteOrder(on ? [...new Set([...sites, site])] : sites.filter((s) => s !== site));

/** The shop group's size charts a category site can use: that site's, or any of them for the global category. */
export const chartsOfSite = <C extends { site: number }>(charts: readonly C[], site: number): C[] =>
  charts.filter((c) => isGlobalSite(site) || c.site === site);

/** A site's Chinese name (墨西哥, 跨境（CBT）…), or 站点 n for a number we do not know. */
export const siteName = (site: number) => MELI_SITES[site as keyof typeof MELI_SITES]?.name ?? `站点 ${site}`;
