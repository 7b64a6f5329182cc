// What a category's attribute form asks the seller, and the title a category is predicted from: the console's publish
// screen and product editor and the extension's side panel ask the same attributes and predict from the same title.
// Not asked: what the publisher fills from the product, the size chart (its own field: a chart of the shop group's), and,
// given the product's variants, the variation attributes they carry (a SIZE the variants differ by goes on each
// variation; the pre-flight counts it given by the same rule, variantAttributes).
import type { CategoryAttribute } from "../contract/category.ts";
import { siteLanguage } from "../contract/meli.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID } from "../contract/size-charts.ts";
import { variantAttributes } from "./variations.ts";

/** The size chart's attributes: chosen in the size chart field (one of the shop group's charts), not the form. */
export const SIZE_CHART_ATTRIBUTES: ReadonlySet<string> = new Set([SIZE_GRID_ID, SIZE_GRID_ROW_ID]);

/** Filled by the publisher from the product or the request (not asked). */
const FILLED_BY_PUBLISHER = new Set(["sku", "gtin", "size", "weight", "condition"]);
const HIDDEN_TAGS = ["hidden", "read_only", "fixed"];

/**
 * The attributes the form asks for: required first, then conditional_required; alphabetical by name within each. With
 * the product's variants (option names and values, as the publisher reads them), those the variants carry are left out.
 */
export function askedAttributes(
  attributes: CategoryAttribute[],
  variants: readonly { keys: readonly string[] }[] = [],
): { attr: CategoryAttribute; required: boolean }[] {
  const carried = variantAttributes(variants, attributes);
  return attributes
    .filter(
      (a) =>
        !(a.alias && FILLED_BY_PUBLISHER.has(a.alias)) &&
        a.id !== "GTIN" &&
        !SIZE_CHART_ATTRIBUTES.has(a.id) &&
        !carried.has(a.id) &&
        !a.tags.some((t) => HIDDEN_TAGS.includes(t)),
    )
    .map((attr) => ({ attr, required: attr.isRequired || attr.tags.includes("required") }))
    .filter(({ attr, required }) => required || attr.tags.includes("conditional_required"))
    .sort((a, b) => Number(b.required) - Number(a.required) || a.attr.name.localeCompare(b.attr.name));
}

/** The title Mercado Libre predicts best from: the site's language first (pt for Brazil, en for CBT), then any. */
export function categoryTitleOf(titles: Record<string, string>, site: number): string {
  const first = siteLanguage(site);
  for (const lang of [first, "en", "es", "pt", "zh"]) if (titles[lang]?.trim()) return titles[lang].trim();
  return (
    Object.values(titles)
      .find((t) => t.trim())
      ?.trim() ?? ""
  );
}

/**
 * The form's attribute values as the publish request's cateInfo attrs: those with a chosen value id or a typed name
 * (trimmed), in the form's order. `typed` reads a value's typed name (the console's and the panel's values name it apart).
 */
export function requestAttrsOf<V extends { valueId?: string | null }>(
  values: Record<string, V>,
  typed: (v: V) => string | null | undefined,
): { id: string; valueId: string | null; valueName: string | null }[] {
  return Object.entries(values).flatMap(([id, v]) => {
    const valueName = typed(v)?.trim() || null;
    return v.valueId || valueName ? [{ id, valueId: v.valueId || null, valueName }] : [];
  });
}
