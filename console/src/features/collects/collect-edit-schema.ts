// The edit dialog's form: the title in each language, price and currency, weight, brand and status. Fields hold text;
// the schema turns them into UpdateCollect's values (blank = none) with Chinese messages. Titles, price and currency
// follow the product editor's rules (shared/publish/product-form-rules.ts); the weight is read the same way, up to a
// collect's own maximum.
import { z } from "zod";
import type { CollectDetail } from "#shared/contract/collect.ts";
import { CollectStatus } from "#shared/contract/enums.ts";
import { currencyText, priceText, titlesText } from "#shared/publish/product-form-rules.ts";
import { numberTextOf, textsIn, titleBodyOf } from "#shared/publish/product-form.ts";
import { numberText } from "#shared/text/form-text.ts";
import { TITLE_LANGUAGES } from "./format.ts";

export { TITLE_MAX } from "#shared/publish/product-form.ts";
const WEIGHT_MAX = 10_000_000;

export const collectEditForm = z.object({
  titles: titlesText,
  price: priceText,
  currency: currencyText,
  weight: numberText("重量", { min: 0, max: WEIGHT_MAX }),
  brand: z
    .string()
    .trim()
    .max(200, "品牌最多200个字符")
    .transform((s) => (s === "" ? null : s)),
  status: z.enum(Object.values(CollectStatus).map(String) as [string, ...string[]]).transform(Number),
});
export type CollectEditValues = z.input<typeof collectEditForm>;
export type CollectEditOutput = z.output<typeof collectEditForm>;

/** The title languages the form shows: zh, es, en, then any other language the product has. */
export function titleLanguagesOf(title: Record<string, string>): string[] {
  const extra = Object.keys(title).filter((l) => !(TITLE_LANGUAGES as readonly string[]).includes(l));
  return [...TITLE_LANGUAGES, ...extra];
}

export function editValuesOf(d: CollectDetail): CollectEditValues {
  return {
    titles: textsIn(titleLanguagesOf(d.title), d.title),
    price: numberTextOf(d.price),
    currency: d.currency ?? "",
    weight: numberTextOf(d.weight),
    brand: d.brand ?? "",
    status: String(d.status),
  };
}

/** UpdateCollect's body; blank titles are dropped; the concurrency stamp makes a stale edit answer 409. */
export function updateBodyOf(d: Pick<CollectDetail, "id" | "concurrencyStamp">, v: CollectEditOutput) {
  return {
    id: d.id,
    concurrencyStamp: d.concurrencyStamp,
    title: titleBodyOf(v.titles),
    price: v.price,
    currency: v.currency,
    weight: v.weight,
    brand: v.brand,
    status: v.status,
  };
}
