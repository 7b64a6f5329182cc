// The product editor's form: titles and descriptions per language, the numbers as text, images, attributes. The
// schema reads it into CreateOrUpdateProduct's values with Chinese messages; the variants live in their own grid
// (variant-model.ts) and join the body at save.
import { z } from "zod";
import { webUrl } from "#shared/contract/collect.ts";
import type { InputOf } from "#shared/api/define.ts";
import type { createOrUpdateProductInput, ProductDetail } from "#shared/contract/product.ts";
import { numberText } from "../../lib/number-text.ts";
import { sizeText } from "./bulk-forms.ts";
import { EDIT_LANGUAGES } from "./product-names.ts";
import { toVariantModelInput, type VariantGrid } from "./variant-model.ts";

export const TITLE_MAX = 1000;
export const DESCRIPTION_MAX = 500_000;
export const MAX_IMAGES = 50;

const urlText = (label: string, required: boolean) =>
  z
    .string()
    .trim()
    .refine((s) => !required || s !== "", `请输入${label}`)
    .refine((s) => s === "" || webUrl.safeParse(s).success, `${label}应为 http 或 https 链接`);

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label}最多${max}个字符`)
    .transform((s) => s || null);

export const productEditorForm = z.object({
  titles: z
    .record(z.string(), z.string().max(TITLE_MAX, `标题最多${TITLE_MAX}个字符`))
    .refine((t) => Object.values(t).some((v) => v.trim() !== ""), "请至少填写一种语言的标题"),
  descriptions: z.record(z.string(), z.string().max(DESCRIPTION_MAX, `描述最多${DESCRIPTION_MAX}个字符`)),
  price: numberText("价格", { min: 0, max: 1_000_000_000 }),
  currency: z
    .string()
    .trim()
    .refine((s) => s === "" || /^[A-Za-z]{3}$/.test(s), "币种为3位字母代码，如 CNY、USD")
    .transform((s) => (s ? s.toUpperCase() : null)),
  stock: numberText("库存", { min: 0, max: 10_000_000, decimals: 0 }),
  sku: optionalText("SKU", 128),
  brand: optionalText("品牌", 200),
  size: sizeText,
  weight: numberText("重量", { min: 0, max: 1_000_000 }),
  videoUrl: urlText("视频链接", false).transform((s) => s || null),
  profit: numberText("利润率", { min: -100, max: 10_000, negative: true }),
  images: z.array(z.object({ url: urlText("图片链接", true) })).max(MAX_IMAGES, `最多${MAX_IMAGES}张图片`),
  mainImage: z.string(),
  /** The category's site ("" while none is chosen), its id and its full name (the tree-select's selection text). */
  site: z.string(),
  cateId: z.string().trim().max(64, "类目ID最多64个字符"),
  categoryName: z.string().trim().max(500, "类目名称最多500个字符"),
  attributes: z
    .array(
      z.object({
        name: z.string().trim().min(1, "请输入属性名").max(200, "属性名最多200个字符"),
        value: z.string().trim().max(2000, "属性值最多2000个字符"),
      }),
    )
    .max(500, "最多500个属性"),
});
export type ProductEditorValues = z.input<typeof productEditorForm>;
export type ProductEditorOutput = z.output<typeof productEditorForm>;

/** The languages the editor shows: zh, es, pt, en, then any other language the product has. */
export function editorLanguagesOf(d: Pick<ProductDetail, "title" | "description"> | null): string[] {
  const extra = d
    ? [...Object.keys(d.title), ...Object.keys(d.description)].filter((l) => !(EDIT_LANGUAGES as readonly string[]).includes(l))
    : [];
  return [...EDIT_LANGUAGES, ...new Set(extra)];
}

const numberOf = (v: string | number | null | undefined) => {
  if (v === null || v === undefined || v === "") return "";
  const n = Number(v);
  return Number.isFinite(n) ? String(n) : String(v);
};

/** The form's values for a product (null: a new product). */
export function editorValuesOf(d: ProductDetail | null): ProductEditorValues {
  const titles: Record<string, string> = {};
  const descriptions: Record<string, string> = {};
  for (const lang of editorLanguagesOf(d)) {
    titles[lang] = d?.title[lang] ?? "";
    descriptions[lang] = d?.description[lang] ?? "";
  }
  const images = d ? (d.images.length ? d.images : d.image ? [d.image] : []) : [];
  return {
    titles,
    descriptions,
    price: numberOf(d?.price),
    currency: d?.currency ?? "",
    stock: numberOf(d?.stock),
    sku: d?.sku ?? "",
    brand: d?.brand ?? "",
    size: d?.size ?? "",
    weight: numberOf(d?.weight),
    videoUrl: d?.videoUrl ?? "",
    profit: numberOf(d?.profit),
    images: images.map((url) => ({ url })),
    mainImage: d?.image ?? images[0] ?? "",
    attributes: d ? d.attributes.map((a) => ({ name: a.name, value: a.value })) : [],
    site: String(d?.cateInfo?.site ?? d?.site ?? ""),
    cateId: d?.cateInfo?.cateId ?? d?.cateId ?? "",
    categoryName: d?.categoryName ?? "",
  };
}

/** CreateOrUpdateProduct's body as the client takes it. */
export type SaveProductBody = InputOf<typeof createOrUpdateProductInput>;

const nonBlank = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).filter(([, t]) => t.trim() !== ""));

/** CreateOrUpdateProduct's body: the product's id and the stamp it was read with (a newer save answers 409). */
export function saveBodyOf(
  d: (Pick<ProductDetail, "id" | "concurrencyStamp"> & Partial<Pick<ProductDetail, "cateInfo">>) | null,
  v: ProductEditorOutput,
  grid: VariantGrid,
): SaveProductBody {
  const images = v.images.map((i) => i.url.trim());
  const main = images.includes(v.mainImage) ? v.mainImage : (images[0] ?? null);
  const site = v.site ? Number(v.site) : null;
  // The attribute values chosen belong to the category: kept while it stays, dropped when it changes.
  const same = d?.cateInfo && d.cateInfo.cateId === v.cateId && d.cateInfo.site === site;
  const cateInfo = site && v.cateId ? { cateId: v.cateId, site, attrs: same ? d.cateInfo!.attrs : [] } : null;
  return {
    ...(d ? { id: d.id, concurrencyStamp: d.concurrencyStamp } : {}),
    title: Object.fromEntries(
      Object.entries(v.titles)
        .map(([l, t]) => [l, t.trim()])
        .filter(([, t]) => t !== ""),
    ),
    description: nonBlank(v.descriptions),
    price: v.price,
    currency: v.currency,
    stock: v.stock,
    sku: v.sku,
    brand: v.brand,
    size: v.size,
    weight: v.weight,
    videoUrl: v.videoUrl,
    profit: v.profit,
    image: main,
    images,
    attributes: v.attributes,
    cateInfo,
    categoryName: cateInfo ? v.categoryName || null : null,
    variantModel: toVariantModelInput(grid),
  };
}
