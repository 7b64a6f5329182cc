// The panel's publish request: the shop group, its chosen sites and a category per site. A global-selling (CBT) shop
// lists in one global category (site 5) for all its sites, the product's own; a local shop group lists in each site's
// own category: the product's where its category is on that site (edited in the panel's 类目 section), else the one
// chosen for the site in the publish section, with its required attributes' values (the console publish screen's
// per-site cateInfo, shared/contract/publish.ts).
import type { ProductDetail } from "../../shared/contract/product.ts";
import type { AttrValue } from "./panel-values.ts";
import type { InputOf } from "./protocol.ts";

/** A global-selling shop lists in one global category for all its sites. */
export const GLOBAL_SITE = 5;

export type PublishInput = InputOf<"publish">;

/** A category chosen for one site in the publish section, with its attribute values by attribute id. */
export type SiteCategory = { cateId: string; name: string; attrs: Record<string, AttrValue> };

/** The sites the group lists in a category of: the global site for a global shop, else each chosen site. */
export const categorySitesOf = (isCbt: boolean, sites: number[]): number[] => (isCbt ? [GLOBAL_SITE] : [...sites].sort((a, b) => a - b));

/**
 * Where each category site's category comes from: the product's own (its category is on that site), one chosen for the
 * site (a local group only: a global shop's global category is the product's), or none yet.
 */
export function categorySources(
  own: { site: number | null; cateId: string },
  isCbt: boolean,
  sites: number[],
  chosen: Record<number, SiteCategory | undefined>,
): { site: number; from: "product" | "chosen" | "none" }[] {
  return categorySitesOf(isCbt, sites).map((site) => ({
    site,
    from: own.site === site && own.cateId ? "product" : !isCbt && chosen[site]?.cateId ? "chosen" : "none",
  }));
}

/** The publish request for one product as saved: its own category where it is on a category site, else the site's chosen one. */
export function publishRequestOf(
  p: ProductDetail,
  groupId: string,
  isCbt: boolean,
  sites: number[],
  chosen: Record<number, SiteCategory | undefined> = {},
): PublishInput {
  const own = p.cateInfo;
  const cateInfo = categorySources({ site: own?.site ?? null, cateId: own?.cateId ?? "" }, isCbt, sites, chosen).flatMap(
    ({ site, from }) => {
      if (from === "product" && own)
        return [
          {
            site,
            cateId: own.cateId,
            attrs: own.attrs.map((a) => ({ id: a.nameId, valueId: a.valueId ?? null, valueName: a.value ?? null })),
          },
        ];
      const c = chosen[site];
      if (from === "chosen" && c)
        return [
          {
            site,
            cateId: c.cateId,
            attrs: Object.entries(c.attrs)
              .filter(([, v]) => v.valueId || v.value.trim())
              .map(([id, v]) => ({ id, valueId: v.valueId, valueName: v.value.trim() || null })),
          },
        ];
      return [];
    },
  );
  return { accountGroupId: groupId, sites, productIds: [p.id], cateInfo };
}
