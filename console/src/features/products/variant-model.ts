// The editor's variant grid as data. The server's variantModel has one header per option (vairantKey and its
// vairantValues) and one item per variant (its values in header order, price, stock, sku, images). The grid keeps
// options and rows, each row's values aligned with every option ("" under an option that has no values yet, which
// takes no part in the variants), prices and stock as text as typed. Structural edits keep the data of every row
// that still exists; new combinations start blank.
import type { VariantModel, VariantModelInput } from "#shared/contract/product.ts";
import { problemOf, variantCells } from "#shared/publish/product-form-rules.ts";
import { numberTextOf } from "#shared/publish/product-form.ts";

export type VariantOption = { name: string; values: string[] };
type VariantRow = { values: string[]; price: string; stock: string; sku: string; images: string[] };
export type VariantGrid = { options: VariantOption[]; rows: VariantRow[] };

/** The contract's limits. */
export const MAX_OPTIONS = 5;
const MAX_VARIANTS = 5000;

const emptyGrid = (): VariantGrid => ({ options: [], rows: [] });
const blankRow = (values: string[]): VariantRow => ({ values, price: "", stock: "", sku: "", images: [] });
const keyOf = (values: string[]) => values.join("\u0001");

/** The grid of a product's variantModel (rows as the server has them: no combination is added or dropped). */
export function gridOf(model: VariantModel | null | undefined): VariantGrid {
  if (!model || !model.headers.length) return emptyGrid();
  const options = model.headers.map((h) => ({ name: h.vairantKey, values: [...h.vairantValues] }));
  const rows = model.items.map((i) => ({
    values: options.map((_, k) => (i.values.length ? i.values : i.kvId.split(";"))[k] ?? ""),
    price: numberTextOf(i.price),
    stock: numberTextOf(i.stock),
    sku: i.sku ?? "",
    images: [...i.images],
  }));
  return { options, rows };
}

/** Whether an option takes part in the variants (it has values). */
const active = (o: VariantOption) => o.values.length > 0;

/** Every combination of the options' values, in option order ("" for an option without values). */
export function combinations(options: VariantOption[]): string[][] {
  if (!options.some(active)) return [];
  let out: string[][] = [[]];
  for (const o of options) {
    const values = active(o) ? o.values : [""];
    out = out.flatMap((c) => values.map((v) => [...c, v]));
  }
  return out;
}

/** Every combination of the options, each row's data kept when its combination still exists. */
function rebuildRows(options: VariantOption[], rows: VariantRow[]): VariantRow[] {
  const byKey = new Map<string, VariantRow>();
  for (const r of rows) if (!byKey.has(keyOf(r.values))) byKey.set(keyOf(r.values), r);
  return combinations(options).map((values) => byKey.get(keyOf(values)) ?? blankRow(values));
}

/** Rows with the same values after a change are one row (the first one's data wins). */
function dedupe(rows: VariantRow[]): VariantRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = keyOf(r.values);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const without = <T>(list: T[], index: number) => list.filter((_, i) => i !== index);
const replaced = <T>(list: T[], index: number, value: T) => list.map((x, i) => (i === index ? value : x));

export function addOption(g: VariantGrid, name = ""): VariantGrid {
  if (g.options.length >= MAX_OPTIONS) return g;
  return { options: [...g.options, { name, values: [] }], rows: g.rows.map((r) => ({ ...r, values: [...r.values, ""] })) };
}

export function renameOption(g: VariantGrid, oi: number, name: string): VariantGrid {
  return { ...g, options: replaced(g.options, oi, { ...g.options[oi], name }) };
}

export function removeOption(g: VariantGrid, oi: number): VariantGrid {
  const options = without(g.options, oi);
  if (!options.some(active)) return { options, rows: [] };
  return { options, rows: dedupe(g.rows.map((r) => ({ ...r, values: without(r.values, oi) }))) };
}

/** A new value of an option: the first one joins every row; a further one adds its combinations (blank). */
export function addValue(g: VariantGrid, oi: number, value: string): VariantGrid {
  const v = value.trim();
  const option = g.options[oi];
  if (!v || option.values.includes(v)) return g;
  const options = replaced(g.options, oi, { ...option, values: [...option.values, v] });
  if (option.values.length === 0 && g.rows.length) {
    return { options, rows: g.rows.map((r) => ({ ...r, values: replaced(r.values, oi, v) })) };
  }
  return { options, rows: [...g.rows, ...rebuildRows(options, []).filter((r) => r.values[oi] === v)] };
}

/** Renames a value everywhere it is used (a name already taken is refused). */
export function renameValue(g: VariantGrid, oi: number, vi: number, value: string): VariantGrid {
  const option = g.options[oi];
  const old = option.values[vi];
  const v = value.trim();
  if (!v || v === old || option.values.includes(v)) return g;
  return {
    options: replaced(g.options, oi, { ...option, values: replaced(option.values, vi, v) }),
    rows: g.rows.map((r) => (r.values[oi] === old ? { ...r, values: replaced(r.values, oi, v) } : r)),
  };
}

/** Drops a value and its rows; an option's last value leaves the rows and only stops taking part. */
export function removeValue(g: VariantGrid, oi: number, vi: number): VariantGrid {
  const option = g.options[oi];
  const old = option.values[vi];
  const options = replaced(g.options, oi, { ...option, values: without(option.values, vi) });
  if (!options.some(active)) return { options, rows: [] };
  if (option.values.length === 1) return { options, rows: dedupe(g.rows.map((r) => ({ ...r, values: replaced(r.values, oi, "") }))) };
  return { options, rows: g.rows.filter((r) => r.values[oi] !== old) };
}

export type RowField = "price" | "stock" | "sku";

export function setCell(g: VariantGrid, ri: number, field: RowField, value: string): VariantGrid {
  return { ...g, rows: replaced(g.rows, ri, { ...g.rows[ri], [field]: value }) };
}

/** One value for a column in every row (批量填写). */
export function fillColumn(g: VariantGrid, field: RowField, value: string): VariantGrid {
  return { ...g, rows: g.rows.map((r) => ({ ...r, [field]: value })) };
}

/** Why a cell's text cannot be saved, or null: a variant's price, stock and SKU follow the product's own rules. */
export const cellProblem = (field: RowField, text: string): string | null => problemOf(variantCells[field], text);

/** What keeps the grid from being saved (the first few), or an empty list. */
export function gridProblems(g: VariantGrid): string[] {
  const out: string[] = [];
  const names = new Set<string>();
  g.options.forEach((o, i) => {
    const name = o.name.trim();
    if (!active(o)) return;
    if (!name) out.push(`第 ${i + 1} 个规格请填写规格名`);
    else if (names.has(name)) out.push(`规格名“${name}”重复`);
    names.add(name);
  });
  if (g.options.length > MAX_OPTIONS) out.push(`最多 ${MAX_OPTIONS} 个规格`);
  if (g.rows.length > MAX_VARIANTS) out.push(`最多 ${MAX_VARIANTS} 个规格组合，当前 ${g.rows.length} 个`);
  for (const [i, r] of g.rows.entries()) {
    for (const field of ["price", "stock", "sku"] as const) {
      const p = cellProblem(field, r[field]);
      if (p) out.push(`第 ${i + 1} 行：${p}`);
    }
    if (out.length >= 5) break;
  }
  return out.slice(0, 5);
}

/** CreateOrUpdateProduct's variantModel of the grid: only options with values; blank cells are null. */
export function toVariantModelInput(g: VariantGrid): VariantModelInput {
  const used = g.options.map((o, i) => (active(o) ? i : -1)).filter((i) => i >= 0);
  if (!used.length) return { headers: [], items: [] };
  return {
    headers: used.map((i) => ({ vairantKey: g.options[i].name.trim(), vairantValues: [...g.options[i].values] })),
    items: g.rows.map((r) => ({
      values: used.map((i) => r.values[i]),
      price: r.price.trim() === "" ? null : Number(r.price),
      stock: r.stock.trim() === "" ? null : Number(r.stock),
      sku: r.sku.trim() || null,
      images: [...r.images],
    })),
  };
}
