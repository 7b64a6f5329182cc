// The normalized product every collection route produces (extension and server crawler alike), and the result envelope
// of one extraction. See shared/design/COLLECTION.md "Output".
import { z } from "zod";

export const platforms = ["1688", "taobao", "tmall", "aliexpress", "pinduoduo", "temu", "shein", "amazon", "jd", "generic"] as const;
export const platform = z.enum(platforms);
export type Platform = z.infer<typeof platform>;

// Float-safe "at most two decimals": 0.1 + 0.2 style noise must not fail a price that was rounded with round2().
const hasTwoDecimalsAtMost = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;

/** A price: a plain number (never a string), at most 2 decimals. */
const money = z.number().finite().nonnegative().refine(hasTwoDecimalsAtMost, "at most 2 decimals");
const stockCount = z.number().int().nonnegative();
const httpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, "must be an absolute http(s) URL");
/** Language of a title: ISO 639-1 code, lower case ("zh", "en", "es"). */
const languageCode = z.string().regex(/^[a-z]{2}$/, "must be a 2-letter language code");

const dimensions = z.object({
  lengthCm: z.number().positive(),
  widthCm: z.number().positive(),
  heightCm: z.number().positive(),
});

export const productAttribute = z.object({ name: z.string().min(1), value: z.string().min(1) });

const optionValue = z.object({
  /** Stable within its option; variants refer to it. The platform's value id when it has one, else the value name. */
  id: z.string().min(1),
  name: z.string().min(1),
  image: httpUrl.optional(),
});

const productOption = z.object({ name: z.string().min(1), values: z.array(optionValue).min(1) });
export type ProductOption = z.infer<typeof productOption>;

export const productVariant = z.object({
  /** The platform's sku id, always a string (ids may pass 2^53). */
  sku: z.string().min(1),
  /** One option value id per option, in the order of `options`. */
  optionValues: z.array(z.string()),
  price: money.optional(),
  originalPrice: money.optional(),
  stock: stockCount.optional(),
  image: httpUrl.optional(),
  weightG: z.number().positive().optional(),
  dims: dimensions.optional(),
});
export type ProductVariant = z.infer<typeof productVariant>;

const productShop = z.object({ id: z.string().min(1).optional(), name: z.string().min(1).optional(), url: httpUrl.optional() });

const productShape = z.object({
  platform,
  itemId: z.string().min(1),
  sourceUrl: httpUrl,
  /** Title by language; the source's own title is under `titleLanguage`. */
  title: z.record(languageCode, z.string().min(1)),
  titleLanguage: languageCode,
  brand: z.string().min(1).optional(),
  /** ISO 4217 code of every price of the product. */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  /** The price a buyer pays now (the lowest variant price when variants differ). */
  price: money.optional(),
  /** The price before discount, when the page shows one. */
  originalPrice: money.optional(),
  priceRange: z.object({ min: money, max: money }).optional(),
  stock: stockCount.optional(),
  images: z.array(httpUrl),
  video: httpUrl.optional(),
  descriptionHtml: z.string().min(1).optional(),
  /** Where the description lives when the page loads it separately (1688, Taobao, AliExpress). */
  descriptionUrl: httpUrl.optional(),
  attributes: z.array(productAttribute),
  options: z.array(productOption),
  variants: z.array(productVariant),
  weightG: z.number().positive().optional(),
  dims: dimensions.optional(),
  shop: productShop.optional(),
  /** The source platform's category (its id, and its path where the page names it): the key of category mapping. */
  sourceCategory: z.object({ id: z.string().min(1).max(100).optional(), path: z.string().min(1).max(500).optional() }).optional(),
});

export const extractedProduct = productShape.superRefine((p, ctx) => {
  if (!(p.titleLanguage in p.title)) ctx.addIssue({ code: "custom", path: ["title"], message: "no title in titleLanguage" });
  if (p.priceRange && p.priceRange.min > p.priceRange.max) ctx.addIssue({ code: "custom", path: ["priceRange"], message: "min > max" });
  p.options.forEach((o, i) => {
    const ids = new Set(o.values.map((v) => v.id));
    if (ids.size !== o.values.length) ctx.addIssue({ code: "custom", path: ["options", i], message: "duplicate value id" });
  });
  const skus = new Set<string>();
  p.variants.forEach((v, i) => {
    if (skus.has(v.sku)) ctx.addIssue({ code: "custom", path: ["variants", i, "sku"], message: "duplicate sku" });
    skus.add(v.sku);
    if (v.optionValues.length !== p.options.length) {
      ctx.addIssue({ code: "custom", path: ["variants", i, "optionValues"], message: "one value per option expected" });
      return;
    }
    v.optionValues.forEach((id, j) => {
      if (!p.options[j].values.some((ov) => ov.id === id))
        ctx.addIssue({ code: "custom", path: ["variants", i, "optionValues", j], message: `unknown value id ${id}` });
    });
  });
});
export type ExtractedProduct = z.infer<typeof extractedProduct>;

const productFields = Object.keys(productShape.shape) as (keyof ExtractedProduct)[];
export type ProductField = keyof ExtractedProduct;
/** What an adapter or a generic source may give: any subset of the product. */
export type PartialProduct = Partial<ExtractedProduct>;

const blockKind = z.enum(["login", "captcha"]);
export type BlockKind = z.infer<typeof blockKind>;

/** "partial": a product, but the page showed variants or a price that did not come out (see `incompleteFields`). */
const extractStatus = z.enum(["ok", "partial", "blocked", "not-product"]);

/** Fields a page showed signs of that no source could read; the seller is told by their Chinese names. */
export const incompleteField = z.enum(["price", "variants"]);
export type IncompleteField = z.infer<typeof incompleteField>;
const incompleteFieldNames: Record<IncompleteField, string> = { price: "价格", variants: "规格" };

/** The warning shown for a partial result: "部分字段未采集: 价格、规格". */
export function incompleteWarning(fields: readonly string[]): string {
  return `部分字段未采集: ${fields.map((f) => incompleteFieldNames[f as IncompleteField] ?? f).join("、")}`;
}

export const extractResult = z.object({
  status: extractStatus,
  block: blockKind.optional(),
  platform,
  /** The adapter that read the page, and which of its page shapes matched. */
  adapter: z.string().optional(),
  shape: z.string().optional(),
  product: extractedProduct.optional(),
  sources: z.partialRecord(z.enum(productFields as [ProductField, ...ProductField[]]), z.string()),
  /** Fields a seller needs that no source gave (see `expectedFields`). */
  missingFields: z.array(z.string()),
  /** With status "partial": what the page showed but did not come out. */
  incompleteFields: z.array(incompleteField).optional(),
  warnings: z.array(z.string()),
});
export type ExtractResult = z.infer<typeof extractResult>;

/** The fields reported in missingFields when absent; "description" stands for descriptionHtml or descriptionUrl. */
export const expectedFields = ["title", "price", "currency", "images", "description", "attributes", "shop", "weightG"] as const;
