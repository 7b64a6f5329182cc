// An item of a fashion category and its size chart (docs/12-products/guias-de-talles.md "Asociar guía de talles a la
// publicación"; validacion-de-guia-de-talles.md "Validaciones al asociar una guía a una publicación"): SIZE_GRID_ID
// names a chart of the category's domain and site that is the seller's (or a shared one), and SIZE_GRID_ROW_ID one of
// its rows, on each variation (on the item when it has none). Errors block with the page's codes (2611, 2613, 2614,
// 2617); a row whose SIZE is not the variation's, or a chart of another GENDER than the item's, is the page's WARNING
// (2615, 2616): the item is created and Mercado Libre moderates it later.
import type { Category } from "./categories.ts";
import type { Cause } from "./errors.ts";
import type { AttributeValue, Store, User, Variation } from "./store.ts";

// The seller's charts (charts.ts serves them), kept beside the store's state.
export type ChartValue = { id?: string; name: string };
export type ChartAttribute = { id: string; name?: string; values: ChartValue[] };
export type ChartRow = { id: string; attributes: ChartAttribute[] };
export type Chart = {
  id: string;
  names: Record<string, string>;
  domain_id: string;
  site_id: string;
  type: "SPECIFIC" | "BRAND" | "STANDARD";
  seller_id: number;
  main_attribute_id: string;
  attributes: ChartAttribute[];
  rows: ChartRow[];
  date_created: string;
};

const charts = new WeakMap<Store, Map<string, Chart>>();
export const chartsOf = (store: Store) => {
  let m = charts.get(store);
  if (!m) charts.set(store, (m = new Map()));
  return m;
};

export const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase();

const fashionCause = (cause_id: number, code: string, references: string[], message: string, type: Cause["type"] = "error"): Cause => ({
  department: "structured-data",
  cause_id,
  type,
  code,
  references,
  message,
});

const valueOf = (attrs: AttributeValue[], id: string) => {
  const a = attrs.find((x) => x.id === id);
  return a ? (a.value_name ?? a.value_id) : null;
};

/** A row's sizes: its SIZE (computed from the main attribute) and the main attribute's own value. */
const rowSizes = (chart: Chart, row: Chart["rows"][number]) =>
  row.attributes.filter((a) => a.id === "SIZE" || a.id === chart.main_attribute_id).flatMap((a) => a.values.map((v) => fold(v.name)));

/** A missing SIZE_GRID_ID is the required-attribute rule's; the rest is checked here. */
export function checkSizeGrid(
  store: Store,
  seller: User,
  category: Category,
  attributes: AttributeValue[],
  variations: Variation[],
  c: { causes: Cause[]; warnings: Cause[] },
) {
  if (!category.attributes.some((a) => a.id === "SIZE_GRID_ID")) return;
  const gridId = valueOf(attributes, "SIZE_GRID_ID");
  if (!gridId) return;
  const chart = chartsOf(store).get(gridId);
  if (chart && chart.type === "SPECIFIC" && !store.ownIds(seller).includes(chart.seller_id)) {
    c.causes.push(
      fashionCause(
        2617,
        "invalid.fashion_grid.seller_id.values",
        ["item.seller_id"],
        `The size chart ${gridId} doesn't belong to the seller id [${seller.id}]`,
      ),
    );
    return;
  }
  if (!chart || `${chart.site_id}-${chart.domain_id}` !== category.domainId) {
    c.causes.push(fashionCause(2613, "invalid.fashion_grid.grid_id.values", ["item.name"], "Attribute [SIZE_GRID_ID] is not valid"));
    return;
  }
  const itemGender = valueOf(attributes, "GENDER");
  const chartGender = chart.attributes.find((a) => a.id === "GENDER")?.values[0];
  if (itemGender && chartGender && fold(itemGender) !== fold(chartGender.name) && itemGender !== chartGender.id)
    c.warnings.push(fashionCause(2616, "invalid.fashion_grid.size.values", ["item.name"], "Attribute [GENDER] is not valid", "warning"));
  // Each unit sold (a variation, or the item when it has none): its row must be the chart's, for its size.
  const units = variations.length
    ? variations.map((v, i) => ({ ref: `item.variations[${i}].attributes`, attrs: [...v.attribute_combinations, ...v.attributes] }))
    : [{ ref: "item.attributes", attrs: attributes }];
  for (const u of units) {
    const rowId = valueOf(u.attrs, "SIZE_GRID_ROW_ID");
    if (!rowId) {
      c.causes.push(fashionCause(2611, "missing.fashion_grid.grid_row_id.values", [u.ref], "Attribute [SIZE_GRID_ROW_ID] is missing"));
      continue;
    }
    const row = chart.rows.find((r) => r.id === rowId);
    if (!row) {
      c.causes.push(fashionCause(2614, "invalid.fashion_grid.grid_row_id.values", [u.ref], "Attribute [SIZE_GRID_ROW_ID] is not valid"));
      continue;
    }
    const sizeOf = (attrs: AttributeValue[]) =>
      valueOf(attrs, "SIZE") ?? valueOf(attrs, chart.main_attribute_id) ?? valueOf(attrs, "SHOE_SIZE");
    const size = sizeOf(u.attrs) ?? (variations.length ? sizeOf(attributes) : null);
    if (size && !rowSizes(chart, row).includes(fold(size)))
      c.warnings.push(fashionCause(2615, "invalid.fashion_grid.size.values", [u.ref], "Attribute [SIZE] is not valid", "warning"));
  }
}
