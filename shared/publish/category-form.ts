// What a category's attribute form asks the seller, and the title a category is predicted from: the console's publish
// screen and product editor and the extension's side panel ask the same attributes and predict from the same title.
import type { CategoryAttribute } from "../contract/category.ts";

/** Filled by the publisher from the product or the request (not asked). */
const FILLED_BY_PUBLISHER = new Set(["sku", "gtin", "size", "weight", "condition"]);
const HIDDEN_TAGS = ["hidden", "read_only", "fixed"];

/** The attributes the form asks for: required first, then conditional_required; alphabetical by name within each. */
export function askedAttributes(attributes: CategoryAttribute[]): { attr: CategoryAttribute; required: boolean }[] {
  return attributes
    .filter((a) => !(a.alias && FILLED_BY_PUBLISHER.has(a.alias)) && a.id !== "GTIN" && !a.tags.some((t) => HIDDEN_TAGS.includes(t)))
    .map((attr) => ({ attr, required: attr.isRequired || attr.tags.includes("required") }))
    .filter(({ attr, required }) => required || attr.tags.includes("conditional_required"))
    .sort((a, b) => Number(b.required) - Number(a.required) || a.attr.name.localeCompare(b.attr.name));
}

/** The title Mercado Libre predicts best from: the site's language first (pt for Brazil, en for CBT), then any. */
export function categoryTitleOf(titles: Record<string, string>, site: number): string {
  const first = site === 2 ? "pt" : site === 5 ? "en" : "es";
  for (const lang of [first, "en", "es", "pt", "zh"]) if (titles[lang]?.trim()) return titles[lang].trim();
  return (
    Object.values(titles)
      .find((t) => t.trim())
      ?.trim() ?? ""
  );
}
