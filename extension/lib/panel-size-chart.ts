// The panel's size chart (a fashion category on a marketplace site asks SIZE_GRID_ID): the shop group's charts of the
// site (GetMeliSizeCharts, pulled with PullMeliChart as the console's 同步尺码表 does), the chart's rows matched to the
// product's variants by their size with the pre-flight's own rule (shared/publish/preflight.ts variantSizeRows, which the
// publisher applies too), and, when the variants do not differ by size (a plain item, colours only), the one row chosen
// for the item. They go to the publish request as the console's do: the attributes SIZE_GRID_ID and SIZE_GRID_ROW_ID of
// the site's cateInfo.
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID, type SizeChart } from "#shared/contract/size-charts.ts";
import { variantSizeRows } from "#shared/publish/preflight.ts";
import { withoutConstantOptions } from "#shared/publish/variations.ts";
import type { AttrValue } from "./panel-values.ts";

/** The attributes the size chart picker fills (the attribute form leaves them to it: shared/publish/category-form.ts). */
export { SIZE_CHART_ATTRIBUTES } from "#shared/publish/category-form.ts";

/** Whether a category's attributes ask for a size chart, and for the item's row. */
export const sizeChartAsked = (attributes: readonly CategoryAttribute[]) => ({
  chart: attributes.some((a) => a.id === SIZE_GRID_ID),
  row: attributes.some((a) => a.id === SIZE_GRID_ROW_ID),
});

/** The group's charts a site's category can use: that site's (a global category: any of the group's). */
export { chartsOfSite } from "#shared/publish/sites.ts";

/**
 * The product's variants as the publisher reads them: option names and values in option order, without an option that
 * has one value for every variant (it tells no variant apart, so it is not a variation).
 */
export const variantsOf = (p: Pick<ProductDetail, "variants">): { keys: string[]; values: string[] }[] =>
  withoutConstantOptions(p.variants.map((v) => ({ keys: v.variant_Key, values: v.variant_Values }))).filter((v) => v.keys.length > 0);

export type SizeMatch = {
  /** Each size of the variants once, in the variants' order, with its row (null: the chart has none for it). */
  sizes: { value: string; variants: number; rowId: string | null; label: string | null }[];
  /** The sizes the chart has no row for. */
  unmatched: string[];
};

/**
 * The chart's rows for the product's variants: per size when the variants differ by the chart's main attribute (the
 * pre-flight's match), else null (a plain item or variants by colour only: one row is chosen for the item).
 */
export function matchRows(
  chart: SizeChart,
  p: Pick<ProductDetail, "variants">,
  attributes: readonly CategoryAttribute[],
): SizeMatch | null {
  const rows = variantSizeRows(chart, variantsOf(p), attributes);
  if (!rows) return null;
  const sizes: SizeMatch["sizes"] = [];
  for (const r of rows) {
    const seen = sizes.find((s) => s.value === r.value);
    if (seen) seen.variants++;
    else sizes.push({ ...r, variants: 1, label: chart.rows.find((x) => x.id === r.rowId)?.label ?? null });
  }
  return { sizes, unmatched: sizes.filter((s) => !s.rowId).map((s) => s.value) };
}

/** The chart and the item's row as the site's attribute values (a new chart drops the row chosen for the old one). */
export function withChart(attrs: Record<string, AttrValue>, chartId: string, rowId: string | null = null): Record<string, AttrValue> {
  const next: Record<string, AttrValue> = { ...attrs, [SIZE_GRID_ID]: { valueId: null, value: chartId } };
  if (rowId) next[SIZE_GRID_ROW_ID] = { valueId: null, value: rowId };
  else delete next[SIZE_GRID_ROW_ID];
  return next;
}

/** The chart and row chosen in the attribute values (empty when none). */
export const chosenChart = (attrs: Record<string, AttrValue>) => ({
  chartId: attrs[SIZE_GRID_ID]?.value ?? "",
  rowId: attrs[SIZE_GRID_ROW_ID]?.value ?? "",
});
