// Field-by-field merge of what each source gave, in source order (site adapter, JSON-LD, microdata, OpenGraph,
// heuristics), recording which source gave each field. Fields that only make sense together come from one source.
import type { PartialProduct, ProductField } from "./product.ts";
import { round2 } from "./values.ts";

export interface SourceOutput {
  source: string;
  product: PartialProduct;
}

export type FieldSources = Partial<Record<ProductField, string>>;

/**
 * Groups taken whole from the first source that has any of their fields: a price with another source's range, or
 * variants with another source's options, would not describe the same thing.
 */
const GROUPS: ProductField[][] = [
  ["title", "titleLanguage"],
  ["price", "originalPrice", "priceRange"],
  ["options", "variants"],
  ["descriptionHtml", "descriptionUrl"],
];

const SINGLE: ProductField[] = ["itemId", "brand", "stock", "images", "video", "attributes", "weightG", "dims", "shop", "sourceCategory"];

export function isPresent(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "string" || Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.values(v).some(isPresent);
  if (typeof v === "number") return Number.isFinite(v);
  return true;
}

/**
 * A source's product fields completed from its own variants: the lowest variant price (and its original price), the
 * range when prices differ, and the total stock when every variant has one.
 */
export function deriveFromVariants(p: PartialProduct): PartialProduct {
  const variants = p.variants ?? [];
  const out = { ...p };
  if (out.stock === undefined && variants.length && variants.every((v) => v.stock !== undefined))
    out.stock = variants.reduce((n, v) => n + v.stock!, 0);
  const prices = variants.map((v) => v.price).filter((x): x is number => x !== undefined);
  if (!prices.length) return out;
  const min = round2(Math.min(...prices));
  const max = round2(Math.max(...prices));
  if (out.price === undefined) out.price = min;
  if (!out.priceRange && max > min) out.priceRange = { min, max };
  if (out.originalPrice === undefined) {
    const originals = (p.variants ?? []).filter((v) => v.price === min && v.originalPrice !== undefined).map((v) => v.originalPrice!);
    if (originals.length) out.originalPrice = Math.min(...originals);
  }
  return out;
}

export function mergeSources(outputs: SourceOutput[]): { product: PartialProduct; sources: FieldSources } {
  const product: PartialProduct = {};
  const sources: FieldSources = {};
  const set = (field: ProductField, from: SourceOutput) => {
    (product as Record<string, unknown>)[field] = from.product[field];
    sources[field] = from.source;
  };
  for (const group of GROUPS) {
    const from = outputs.find((o) => group.some((f) => isPresent(o.product[f])));
    if (!from) continue;
    for (const f of group) if (isPresent(from.product[f])) set(f, from);
  }
  for (const f of SINGLE) {
    const from = outputs.find((o) => isPresent(o.product[f]));
    if (from) set(f, from);
  }
  // The currency belongs to the prices: the price source's own currency first, then any other source's.
  const priceSource = outputs.find((o) => o.source === sources.price || o.source === sources.variants);
  const currencyFrom =
    priceSource && isPresent(priceSource.product.currency) ? priceSource : outputs.find((o) => isPresent(o.product.currency));
  if (currencyFrom) set("currency", currencyFrom);
  return { product, sources };
}
