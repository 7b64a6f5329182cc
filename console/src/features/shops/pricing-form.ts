// The pricing rules of a shop as the edit dialogs hold them (text as typed) and as UpdateAccount / BatchUpdateAccount
// take them (the contract's accountInfo: a field left out keeps its value, null clears it). Each field is read with a
// Chinese message first and then checked by the contract's own rule, so the form and the server agree.
import { z } from "zod";
import { accountInfo, type AccountInfo, type ShopAccount } from "#shared/contract/meli.ts";
import { AUTO_REPRICE_DEFAULT_MAX_PERCENT, DEFAULT_MIN_MARGIN } from "#shared/publish/margin.ts";
import { DEFAULT_ADJUST_RATE } from "#shared/publish/price.ts";
import { numberText } from "../../lib/number-text.ts";

const PRICE_MAX = 1_000_000_000;
const SORT_LIMIT = 1_000_000;

const info = accountInfo.shape;

/** Optional text up to `max` characters: blank is null (clears the value). */
const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label}最多${max}个字符`)
    .transform((s) => (s === "" ? null : s));

export const pricingFields = {
  alias: optionalText("店铺别名", 64).pipe(info.alias.unwrap()),
  adjustRate: numberText("价格倍率", { min: 0.01, max: 100, decimals: 4 }).pipe(info.adjustRate.unwrap()),
  overPrice: numberText("加价金额", { min: 0, max: PRICE_MAX }).pipe(info.overPrice.unwrap()),
  tinyPrice: numberText("价格尾数", { min: 0, max: 0.99, below: 1 }).pipe(info.tinyPrice.unwrap()),
  limitMinPrice: numberText("最低限价", { min: 0, max: PRICE_MAX }).pipe(info.limitMinPrice.unwrap()),
  limitMaxPrice: numberText("最高限价", { min: 0, max: PRICE_MAX }).pipe(info.limitMaxPrice.unwrap()),
  brand: optionalText("品牌", 100).pipe(info.brand.unwrap()),
  sort: numberText("排序值", { min: -SORT_LIMIT, max: SORT_LIMIT, decimals: 0, negative: true }),
  minMargin: numberText("最低利润率", { min: 0, max: 99.99, decimals: 2 }).pipe(info.minMargin.unwrap()),
};

/** The fields the batch dialog offers (an alias names one shop, so it is edited one shop at a time). */
export const BATCH_FIELDS = [
  "adjustRate",
  "overPrice",
  "tinyPrice",
  "limitMinPrice",
  "limitMaxPrice",
  "minMargin",
  "brand",
  "sort",
] as const;
export type BatchField = (typeof BATCH_FIELDS)[number];

export const pricingLabels: Record<keyof typeof pricingFields, string> = {
  alias: "店铺别名",
  adjustRate: "价格倍率",
  overPrice: "加价金额",
  tinyPrice: "价格尾数",
  limitMinPrice: "最低限价",
  limitMaxPrice: "最高限价",
  brand: "品牌",
  sort: "排序值",
  minMargin: "最低利润率（%）",
};

export const pricingHints: Record<keyof typeof pricingFields, string> = {
  alias: "便于区分店铺，留空则显示美客多昵称",
  adjustRate: `刊登价 = 商品价 × 倍率（再计入费用与运费），0.01 到 100；留空按默认 ${DEFAULT_ADJUST_RATE}，费率 20% 以内的类目利润率约 30%`,
  overPrice: "按倍率计算后再加的金额（运费、包装），单位为店铺币种",
  tinyPrice: "价格的小数部分统一为该值，如 0.99；留空则不调整",
  limitMinPrice: "低于该价格的商品不刊登到此店铺",
  limitMaxPrice: "高于该价格的商品不刊登到此店铺",
  brand: "刊登时未填写品牌的商品使用该品牌",
  sort: "整数，越小越靠前",
  minMargin: `利润占售价的比例低于该值时，刊登检查、插件和订单列表标红提醒；留空为默认 ${DEFAULT_MIN_MARGIN}%`,
};

const MIN_ABOVE_MAX = "最高限价不能低于最低限价";

/** 自动调价 (issue 32): one shop at a time, in its own part of the dialog. */
export const autoRepriceLabels = { autoReprice: "自动调价", autoRepriceMaxPercent: "每日调价上限（±%）" };
export const autoRepriceHints = {
  autoReprice:
    "汇率、类目费率或定价规则变动后，利润率低于最低利润率的刊登自动按定价规则重新定价；不会把售价调到最低利润率以下，每次调价的原因记入刊登日志",
  autoRepriceMaxPercent: `同一刊登一天内售价最多上调或下调的比例（相对当天首次调价前的售价），0.01 到 50；留空为默认 ${AUTO_REPRICE_DEFAULT_MAX_PERCENT}%`,
};
const autoRepriceFields = {
  autoReprice: z.boolean(),
  autoRepriceMaxPercent: numberText("每日调价上限", { min: 0.01, max: 50, decimals: 2 }).pipe(info.autoRepriceMaxPercent.unwrap()),
};

// ---------------------------------------------------------------------------------------------------------------
// One shop (UpdateAccount): every field, prefilled with the shop's values.

export const pricingForm = z.object({ ...pricingFields, ...autoRepriceFields }).superRefine((v, ctx) => {
  if (v.limitMinPrice != null && v.limitMaxPrice != null && v.limitMinPrice > v.limitMaxPrice) {
    ctx.addIssue({ code: "custom", path: ["limitMaxPrice"], message: MIN_ABOVE_MAX });
  }
});
export type PricingFormValues = z.input<typeof pricingForm>;
export type PricingValues = z.output<typeof pricingForm>;

const numText = (n: number | null) => (n == null ? "" : String(n));

export function pricingValuesOf(s: ShopAccount): PricingFormValues {
  return {
    alias: s.alias ?? "",
    adjustRate: numText(s.adjustRate),
    overPrice: numText(s.overPrice),
    tinyPrice: numText(s.tinyPrice),
    limitMinPrice: numText(s.limitMinPrice),
    limitMaxPrice: numText(s.limitMaxPrice),
    brand: s.brand ?? "",
    sort: String(s.sort),
    minMargin: numText(s.minMargin),
    autoReprice: s.autoReprice,
    autoRepriceMaxPercent: numText(s.autoRepriceMaxPercent),
  };
}

/** UpdateAccount's info: every field (a blank one clears; a blank sort is 0). */
export function pricingInfoOf(v: PricingValues): AccountInfo {
  return { ...v, sort: v.sort ?? 0 };
}

// ---------------------------------------------------------------------------------------------------------------
// Several shops (BatchUpdateAccount): only the ticked fields change; a ticked blank field clears the value.

const { alias: _alias, ...batchFields } = pricingFields;

export const batchPricingForm = z
  .object({
    ...batchFields,
    apply: z.object(Object.fromEntries(BATCH_FIELDS.map((f) => [f, z.boolean()])) as Record<BatchField, z.ZodBoolean>),
  })
  .superRefine((v, ctx) => {
    if (!BATCH_FIELDS.some((f) => v.apply[f])) {
      ctx.addIssue({ code: "custom", path: ["apply"], message: "请至少勾选一项要修改的规则" });
    }
    if (v.apply.sort && v.sort === null) ctx.addIssue({ code: "custom", path: ["sort"], message: "请输入排序值" });
    if (v.apply.limitMinPrice && v.apply.limitMaxPrice && v.limitMinPrice != null && v.limitMaxPrice != null) {
      if (v.limitMinPrice > v.limitMaxPrice) ctx.addIssue({ code: "custom", path: ["limitMaxPrice"], message: MIN_ABOVE_MAX });
    }
  });
export type BatchPricingFormValues = z.input<typeof batchPricingForm>;
export type BatchPricingValues = z.output<typeof batchPricingForm>;

export const emptyBatchValues = (): BatchPricingFormValues => ({
  adjustRate: "",
  overPrice: "",
  tinyPrice: "",
  limitMinPrice: "",
  limitMaxPrice: "",
  brand: "",
  sort: "",
  minMargin: "",
  apply: Object.fromEntries(BATCH_FIELDS.map((f) => [f, false])) as Record<BatchField, boolean>,
});

/** BatchUpdateAccount's info: the ticked fields only. */
export function batchInfoOf(v: BatchPricingValues): AccountInfo {
  const out: AccountInfo = {};
  for (const f of BATCH_FIELDS) {
    if (!v.apply[f]) continue;
    if (f === "sort") out.sort = v.sort ?? 0;
    else (out as Record<string, unknown>)[f] = v[f];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The rules as the table shows them.

/** The short lines of a shop's pricing rules; the markup and the minimum margin say when they are the defaults. */
export function pricingSummary(
  s: Pick<ShopAccount, "adjustRate" | "overPrice" | "tinyPrice" | "limitMinPrice" | "limitMaxPrice" | "minMargin">,
) {
  const lines: string[] = [];
  lines.push(s.adjustRate != null ? `倍率 ×${s.adjustRate}` : `倍率 ×${DEFAULT_ADJUST_RATE}（默认）`);
  if (s.overPrice != null) lines.push(`加价 +${s.overPrice}`);
  if (s.tinyPrice != null) lines.push(`尾数 ${s.tinyPrice.toFixed(2).replace(/^0/, "")}`);
  if (s.limitMinPrice != null || s.limitMaxPrice != null) {
    lines.push(`限价 ${s.limitMinPrice ?? "不限"} ~ ${s.limitMaxPrice ?? "不限"}`);
  }
  lines.push(s.minMargin != null ? `最低利润率 ${s.minMargin}%` : `最低利润率 ${DEFAULT_MIN_MARGIN}%（默认）`);
  return lines;
}
