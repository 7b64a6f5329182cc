// The edit dialog's form: the title in each language, price and currency, weight, brand and status. Fields hold text;
// the schema turns them into UpdateCollect's values (blank = none) with Chinese messages.
import { z } from "zod";
import type { CollectDetail } from "#shared/contract/collect.ts";
import { CollectStatus } from "#shared/contract/enums.ts";
import { TITLE_LANGUAGES } from "./format.ts";

export const TITLE_MAX = 1000;
const PRICE_MAX = 1_000_000_000;
const WEIGHT_MAX = 10_000_000;

/** A decimal typed as text: blank is null; otherwise at least 0, at most `max`, with up to `decimals` decimals. */
const decimalText = (label: string, max: number, decimals: number) =>
  z
    .string()
    .trim()
    .refine((s) => s === "" || new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`).test(s), `${label}请输入不小于0的数字，最多${decimals}位小数`)
    .refine((s) => s === "" || Number(s) <= max, `${label}不能超过${max}`)
    .transform((s) => (s === "" ? null : Number(s)));

export const collectEditForm = z.object({
  titles: z
    .record(z.string(), z.string().max(TITLE_MAX, `标题最多${TITLE_MAX}个字符`))
    .refine((t) => Object.values(t).some((v) => v.trim() !== ""), "请至少填写一种语言的标题"),
  price: decimalText("价格", PRICE_MAX, 2),
  currency: z
    .string()
    .trim()
    .refine((s) => s === "" || /^[A-Za-z]{3}$/.test(s), "币种为3位字母代码，如 CNY、USD")
    .transform((s) => (s === "" ? null : s.toUpperCase())),
  weight: decimalText("重量", WEIGHT_MAX, 2),
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

const numberText = (v: string | null) => {
  if (v == null || v === "") return "";
  const n = Number(v);
  return Number.isFinite(n) ? String(n) : v;
};

export function editValuesOf(d: CollectDetail): CollectEditValues {
  const titles: Record<string, string> = {};
  for (const lang of titleLanguagesOf(d.title)) titles[lang] = d.title[lang] ?? "";
  return {
    titles,
    price: numberText(d.price),
    currency: d.currency ?? "",
    weight: numberText(d.weight),
    brand: d.brand ?? "",
    status: String(d.status),
  };
}

/** UpdateCollect's body; blank titles are dropped; the concurrency stamp makes a stale edit answer 409. */
export function updateBodyOf(d: Pick<CollectDetail, "id" | "concurrencyStamp">, v: CollectEditOutput) {
  const title: Record<string, string> = {};
  for (const [lang, text] of Object.entries(v.titles)) if (text.trim()) title[lang] = text.trim();
  return {
    id: d.id,
    concurrencyStamp: d.concurrencyStamp,
    title,
    price: v.price,
    currency: v.currency,
    weight: v.weight,
    brand: v.brand,
    status: v.status,
  };
}
