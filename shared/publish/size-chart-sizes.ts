// The sizes a new size chart is made of (CreateMeliChart, from the console's publish screen and the side panel): the
// values of the product's option that stands for the category's size attribute (variationAttributeOf, the rule the
// pre-flight matches rows with), each once in the variants' order; and a typed list of sizes read back.
import type { CategoryAttribute } from "../contract/category.ts";
import { fold, variationAttributeOf } from "./variations.ts";

/** Each size once (first spelling kept), in order, empty values dropped. */
function uniqueSizes(values: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const v of values.map((x) => x.trim()).filter(Boolean)) if (!seen.has(fold(v))) seen.set(fold(v), v);
  return [...seen.values()];
}

/** The variants' sizes: their values for the option that is the category's SIZE (none: the product has no size option). */
export function variantSizes(
  variants: readonly { keys: readonly string[]; values: readonly string[] }[],
  attributes: readonly CategoryAttribute[],
  sizeAttributeId = "SIZE",
): string[] {
  const out: string[] = [];
  for (const v of variants) {
    const at = v.keys.findIndex((k) => variationAttributeOf(k, attributes)?.id === sizeAttributeId);
    if (at >= 0 && v.values[at]) out.push(v.values[at]);
  }
  return uniqueSizes(out);
}

/** Sizes as typed: separated by commas (also Chinese ones), 、 or line breaks. */
export const parseSizes = (text: string) => uniqueSizes(text.split(/[,，、;；\n]+/));

/** The sizes a chart has no row for (rows labelled by size). */
export const sizesMissingFrom = (rows: readonly { label: string }[], sizes: readonly string[]) => {
  const have = new Set(rows.flatMap((r) => r.label.split(" / ").map(fold)));
  return sizes.filter((s) => !have.has(fold(s)));
};
