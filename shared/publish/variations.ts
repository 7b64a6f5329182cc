// A product's variants as Mercado Libre's variations: which of a category's variation attributes (allow_variations) an
// option name stands for, and which of them the variants carry. The pre-flight and the publisher map options with it,
// and the attribute forms (category-form.ts: the console's publish screen, the extension's side panel) leave out what
// the variants carry, so the seller is not asked for an item-level SIZE that each variation already gives.
import { CategoryAttributeModelType, type CategoryAttribute } from "../contract/category.ts";

/** Case, accents and edge spaces folded away (option names and chart labels compare this way). */
export const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").trim().toLowerCase();

/** Option names sellers use for Mercado Libre's two common variation attributes. */
const VARIATION_SYNONYMS: Record<string, string[]> = {
  COLOR: ["颜色", "颜色分类", "色", "color", "colour", "cor"],
  SIZE: ["尺码", "尺寸", "大小", "size", "talla", "tamano", "tamanho"],
};

/** The category's variation attribute (allow_variations) a product option name stands for: by id, name, zh or synonym. */
export function variationAttributeOf(key: string, attributes: readonly CategoryAttribute[]): CategoryAttribute | null {
  const k = fold(key);
  const candidates = attributes.filter((a) => a.modelType === CategoryAttributeModelType.Variation);
  return (
    candidates.find((a) => fold(a.id) === k || fold(a.name) === k || (a.zh !== null && fold(a.zh) === k)) ??
    candidates.find((a) => VARIATION_SYNONYMS[a.id]?.includes(k)) ??
    null
  );
}

/**
 * The category's variation attributes the product's variants carry: with two or more variants (option names and
 * values as the publisher reads them: an option with one value for all is none), each one an option name stands for.
 * Their values go on each variation, so they are given, not asked of the item: the pre-flight counts them given and
 * the attribute forms leave them out.
 */
export function variantAttributes(variants: readonly { keys: readonly string[] }[], attributes: readonly CategoryAttribute[]): Set<string> {
  const varied = variants.filter((v) => v.keys.length > 0);
  const ids = new Set<string>();
  if (varied.length <= 1) return ids;
  for (const key of new Set(varied.flatMap((v) => v.keys))) {
    const attr = variationAttributeOf(key, attributes);
    if (attr) ids.add(attr.id);
  }
  return ids;
}

/**
 * The variants as the publisher reads them: an option with one value for every variant ("Ships From: China") tells no
 * variant apart, so it is no variation and leaves each variant's option names and values. The server's planner and the
 * extension's side panel read a product's variants with it.
 */
export function withoutConstantOptions<V extends { keys: string[]; values: string[] }>(variants: readonly V[]): V[] {
  const distinct = (variants[0]?.keys ?? []).map((_, i) => new Set(variants.map((v) => v.values[i])).size > 1);
  return variants.map((v) => ({ ...v, keys: v.keys.filter((_, i) => distinct[i]), values: v.values.filter((_, i) => distinct[i]) }));
}
