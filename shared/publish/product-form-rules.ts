// The product editor's rules (product-form.ts is its model): the fields as typed, read by zod with Chinese messages into
// CreateOrUpdateProduct's values. The console's product editor, its variant grid and the extension's side panel check a
// product's fields with these; the console's collect editor checks a collected product's titles and currency the same way.
import { z } from "zod";
import { numberText, sizeText } from "../text/form-text.ts";
import { TITLE_MAX } from "./product-form.ts";

/** Titles per language: each within TITLE_MAX, at least one not blank. */
export const titlesText = z
  .record(z.string(), z.string().max(TITLE_MAX, `标题最多${TITLE_MAX}个字符`))
  .refine((t) => Object.values(t).some((v) => v.trim() !== ""), "请至少填写一种语言的标题");

/** A currency code (CNY, USD…), upper-cased; blank is null. */
export const currencyText = z
  .string()
  .trim()
  .refine((s) => s === "" || /^[A-Za-z]{3}$/.test(s), "币种为3位字母代码，如 CNY、USD")
  .transform((s) => (s ? s.toUpperCase() : null));

/** A trimmed text of at most `max` characters; blank is null. */
export const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label}最多${max}个字符`)
    .transform((s) => s || null);

export const priceText = numberText("价格", { min: 0, max: 1_000_000_000 });
const stockText = numberText("库存", { min: 0, max: 10_000_000, decimals: 0 });
const weightText = numberText("重量", { min: 0, max: 1_000_000 });
export const skuText = optionalText("SKU", 128);

/** The fields both editors edit, with the same rules. */
export const productFields = {
  titles: titlesText,
  price: priceText,
  currency: currencyText,
  stock: stockText,
  weight: weightText,
  size: sizeText,
};

/** A variant's own price, stock and SKU, checked as the product's. */
export const variantCells = { price: priceText, stock: stockText, sku: skuText };

/** The first message a rule gives for a value, or null when it passes. */
export function problemOf(rule: z.ZodType, value: unknown): string | null {
  const r = rule.safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? "格式不正确");
}
