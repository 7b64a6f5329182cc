// The panel's publish request: the shop group, its chosen sites and a category per site. A global-selling (CBT) shop
// lists in one global category (site 5) for all its sites, the product's own; a local shop group lists in each site's
// own category: the product's where its category is on that site (edited in the panel's 类目 section), else the one
// chosen for the site in the publish section, with its required attributes' values (the console publish screen's
// per-site cateInfo, shared/contract/publish.ts). A fashion category asks for one of the shop group's size charts: for a
// chosen category it is among the site's chosen attribute values; for the product's own category it is chosen in the
// publish section too (charts belong to the shop group, not the product) and joins the product's own values. Where the
// GTIN pool falls short in a category that takes it, the reason the item has no GTIN chosen in the panel joins them.
import type { ProductDetail } from "#shared/contract/product.ts";
import { requestAttrsOf, SIZE_CHART_ATTRIBUTES } from "#shared/publish/category-form.ts";
import { EMPTY_GTIN_REASON } from "#shared/publish/gtin-rule.ts";
import { categorySitesOf } from "#shared/publish/sites.ts";
import type { AttrValue } from "./panel-values.ts";
import type { InputOf } from "./protocol.ts";

/** The EMPTY_GTIN_REASON value id chosen per category site (the side panel's 无条码原因 field, panel-gtin.ts). */
export type GtinReasons = Record<number, string | undefined>;

/** A site's attributes with the chosen reason in place of any the product had. */
function withGtinReason<T extends { attrs: { id: string }[] }>(c: T, valueId: string | undefined): T {
  if (!valueId) return c;
  const reason = { id: EMPTY_GTIN_REASON, valueId, valueName: null };
  return { ...c, attrs: [...c.attrs.filter((a) => a.id !== EMPTY_GTIN_REASON), reason] };
}

export type PublishInput = InputOf<"publish">;

/** A category chosen for one site in the publish section, with its attribute values by attribute id. */
export type SiteCategory = { cateId: string; name: string; attrs: Record<string, AttrValue> };

/**
 * The size chart (SIZE_GRID_ID, SIZE_GRID_ROW_ID values) chosen in the publish section for the product's own category
 * on a site: it applies while the product's category is still `cateId`.
 */
export type OwnChart = { cateId: string; attrs: Record<string, AttrValue> };

/** The request's attribute values: those with a value, a typed one trimmed. */
const requestAttrs = (attrs: Record<string, AttrValue>) => requestAttrsOf(attrs, (v) => v.value);

/**
 * Where each category site's category comes from (the category sites are the shared rule's, shared/publish/sites.ts):
 * the product's own (its category is on that site), one chosen for the site (a local group only: a global shop's global
 * category is the product's), or none yet.
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

/**
 * The publish request for one product as saved: its own category where it is on a category site (with the size chart
 * chosen for it there, which replaces any chart among its own values), else the site's chosen one.
 */
export function publishRequestOf(
  p: ProductDetail,
  groupId: string,
  isCbt: boolean,
  sites: number[],
  chosen: Record<number, SiteCategory | undefined> = {},
  ownCharts: Record<number, OwnChart | undefined> = {},
  gtinReasons: GtinReasons = {},
): PublishInput {
  const own = p.cateInfo;
  const cateInfo = categorySources({ site: own?.site ?? null, cateId: own?.cateId ?? "" }, isCbt, sites, chosen).flatMap(
    ({ site, from }) => {
      if (from === "product" && own) {
        const chart = ownCharts[site]?.cateId === own.cateId ? requestAttrs(ownCharts[site]!.attrs) : [];
        const replaced = new Set(chart.length ? [...SIZE_CHART_ATTRIBUTES, ...chart.map((a) => a.id)] : []);
        return [
          {
            site,
            cateId: own.cateId,
            attrs: [
              ...own.attrs
                .filter((a) => !replaced.has(a.nameId))
                .map((a) => ({ id: a.nameId, valueId: a.valueId ?? null, valueName: a.value ?? null })),
              ...chart,
            ],
          },
        ];
      }
      const c = chosen[site];
      if (from === "chosen" && c) return [{ site, cateId: c.cateId, attrs: requestAttrs(c.attrs) }];
      return [];
    },
  );
  return { accountGroupId: groupId, sites, productIds: [p.id], cateInfo: cateInfo.map((c) => withGtinReason(c, gtinReasons[c.site])) };
}
