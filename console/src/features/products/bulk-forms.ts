// The bulk edit dialogs' forms: each field holds text as typed; the schemas read it into the contract's values with
// Chinese messages, and the *Body functions build the call's body with the selection (ids or the filter).
import { z } from "zod";
import { ProductStatus, Site, ThirdPlatformType } from "#shared/contract/enums.ts";
import { translateLanguages } from "#shared/contract/product.ts";
import { bulkBody, type BulkTarget } from "./bulk-target.ts";
import { numberText } from "../../lib/number-text.ts";
import { sizeText } from "#shared/text/form-text.ts";

const PRICE_MAX = 1_000_000_000;
const WEIGHT_MAX = 1_000_000;

const rate = (required: boolean) => numberText("倍率", { min: 0.01, max: 100, decimals: 4, required });
const tinyPrice = numberText("尾数", { min: 0, max: 0.99, below: 1 });

/** Leaves out the fields that are null (the call's defaults apply). */
const present = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };

// ---------------------------------------------------------------------------------------------------------------
// 统一价格: every product at (fixPrice × rate), ending on tinyPrice.

export const samePriceForm = z.object({
  fixPrice: numberText("价格", { min: 0, max: PRICE_MAX, required: true }),
  rate: rate(false),
  tinyPrice,
});
export type SamePriceValues = z.output<typeof samePriceForm>;
export const samePriceBody = (t: BulkTarget, v: SamePriceValues) =>
  bulkBody(t, { fixPrice: v.fixPrice ?? 0, ...present({ rate: v.rate, tinyPrice: v.tinyPrice }) });

// ---------------------------------------------------------------------------------------------------------------
// 调整价格: each price becomes price × rate + add, ending on tinyPrice.

export const adjustPriceForm = z.object({
  rate: rate(true),
  add: numberText("加减金额", { min: -1_000_000, max: 1_000_000, negative: true }),
  tinyPrice,
});
export type AdjustPriceValues = z.output<typeof adjustPriceForm>;
export const adjustPriceBody = (t: BulkTarget, v: AdjustPriceValues) =>
  bulkBody(t, { rate: v.rate ?? 1, price: v.add ?? 0, ...present({ tinyPrice: v.tinyPrice }) });

// ---------------------------------------------------------------------------------------------------------------
// 重量尺寸: one weight (or a random one between min and max) and/or a size.

const grams = (label: string) => numberText(label, { min: 0, max: WEIGHT_MAX });
export const weightForm = z
  .object({
    mode: z.enum(["fixed", "random"]),
    weight: grams("重量"),
    minWeight: grams("最小重量"),
    maxWeight: grams("最大重量"),
    size: sizeText,
  })
  .superRefine((v, ctx) => {
    if (v.mode === "random") {
      if (v.minWeight === null) ctx.addIssue({ code: "custom", path: ["minWeight"], message: "请输入最小重量" });
      if (v.maxWeight === null) ctx.addIssue({ code: "custom", path: ["maxWeight"], message: "请输入最大重量" });
      else if (v.minWeight !== null && v.minWeight > v.maxWeight)
        ctx.addIssue({ code: "custom", path: ["maxWeight"], message: "最大重量不能小于最小重量" });
    } else if (v.weight === null && v.size === null) ctx.addIssue({ code: "custom", path: ["weight"], message: "请输入重量或尺寸" });
  });
export type WeightValues = z.output<typeof weightForm>;
export const weightBody = (t: BulkTarget, v: WeightValues) =>
  v.mode === "random"
    ? bulkBody(t, {
        weight: null,
        isRandom: true,
        minRandomWeight: v.minWeight,
        maxRandomWeight: v.maxWeight,
        ...present({ size: v.size }),
      })
    : bulkBody(t, { isRandom: false, weight: v.weight, ...present({ size: v.size }) });

// ---------------------------------------------------------------------------------------------------------------
// 状态, 标签, 类目, 分配.

const choice = (values: readonly number[], message: string) =>
  z
    .string()
    .refine((s) => values.map(String).includes(s), message)
    .transform(Number);

export const statusForm = z.object({ status: choice(Object.values(ProductStatus), "请选择状态") });
export const statusBody = (t: BulkTarget, v: z.output<typeof statusForm>) => bulkBody(t, { status: v.status });

/** The label choice "any label" (when taking labels off). */
export const ANY_LABEL = "any";
export const labelForm = z
  .object({ op: z.enum(["link", "cancel"]), labelId: z.string() })
  .refine((v) => v.op === "cancel" || (v.labelId !== "" && v.labelId !== ANY_LABEL), { path: ["labelId"], message: "请选择标签" });
export type LabelValues = z.output<typeof labelForm>;
/** Link: the label on every product. Cancel: the label off (only that label when one is chosen, else any label). */
export const labelBody = (t: BulkTarget, v: LabelValues) =>
  v.op === "link"
    ? { op: "link" as const, body: bulkBody(t, { labelId: v.labelId }) }
    : { op: "cancel" as const, body: bulkBody(t, { labelId: v.labelId && v.labelId !== ANY_LABEL ? v.labelId : null }) };

export const categoryForm = z.object({
  cateId: z.string().trim().min(1, "请选择类目").max(64, "类目ID最多64个字符"),
  site: choice(Object.values(Site), "请选择站点"),
  categoryName: z
    .string()
    .trim()
    .max(500, "类目名称最多500个字符")
    .transform((s) => s || null),
});
export const categoryBody = (t: BulkTarget, v: z.output<typeof categoryForm>) =>
  bulkBody(t, { productCateInfo: { cateId: v.cateId, site: v.site, attrs: [], categoryName: v.categoryName } });

export const assignForm = z.object({ userId: z.string().min(1, "请选择子账号") });
export const assignBody = (t: BulkTarget, v: z.output<typeof assignForm>) => bulkBody(t, { userId: v.userId });

// ---------------------------------------------------------------------------------------------------------------
// 查找替换.

export const replaceForm = z
  .object({
    keyword: z
      .string()
      .refine((s) => s.trim() !== "", "请输入要查找的内容")
      .refine((s) => s.length <= 200, "查找内容最多200个字符"),
    replaceText: z.string().max(1000, "替换内容最多1000个字符"),
    isReplaceTitle: z.boolean(),
    isReplaceDescription: z.boolean(),
    isIgnoreCase: z.boolean(),
  })
  .refine((v) => v.isReplaceTitle || v.isReplaceDescription, { path: ["isReplaceTitle"], message: "请至少选择标题或描述" });
export const replaceBody = (t: BulkTarget, v: z.output<typeof replaceForm>) => bulkBody(t, { ...v });

// ---------------------------------------------------------------------------------------------------------------
// 翻译: titles (and descriptions) from one language to es / pt / en, through a chosen or the default service.

export const AUTO_LANGUAGE = "auto";
export const DEFAULT_PROVIDER = "default";

export const translateForm = z
  .object({
    from: z.string(),
    to: z.enum(translateLanguages, { error: "请选择目标语言" }),
    isContainsDescription: z.boolean(),
    provider: z
      .string()
      .refine((s) => s === DEFAULT_PROVIDER || Object.values(ThirdPlatformType).map(String).includes(s), "请选择翻译服务"),
  })
  .refine((v) => v.from !== v.to, { path: ["to"], message: "目标语言不能与源语言相同" });
export type TranslateValues = z.output<typeof translateForm>;
export const translateBody = (t: BulkTarget, v: TranslateValues) =>
  bulkBody(t, {
    from: v.from === AUTO_LANGUAGE ? null : v.from,
    to: v.to,
    isContainsDescription: v.isContainsDescription,
    thirdPlatformType: v.provider === DEFAULT_PROVIDER ? null : Number(v.provider),
  });
