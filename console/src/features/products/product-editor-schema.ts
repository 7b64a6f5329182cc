// The product editor's form: titles and descriptions per language, the numbers as text, images, attributes. The
// schema reads it into CreateOrUpdateProduct's values with Chinese messages; the variants live in their own grid
// (variant-model.ts) and join the body at save. The fields the extension's side panel edits too, and how a product
// becomes the form's values and back, are the shared product form's (shared/publish/product-form.ts, its rules).
import { z } from "zod";
import { webUrl } from "#shared/contract/collect.ts";
import type { InputOf } from "#shared/api/define.ts";
import type { createOrUpdateProductInput, ProductDetail } from "#shared/contract/product.ts";
import {
  categoryBodyOf,
  categoryValuesOf,
  DESCRIPTION_MAX,
  editLanguagesOf,
  imagesOf,
  MAX_IMAGES,
  mainImageAmong,
  numberTextOf,
  sameCategory,
  textsIn,
  titleBodyOf,
} from "#shared/publish/product-form.ts";
import { optionalText, productFields, skuText } from "#shared/publish/product-form-rules.ts";
import { numberText } from "../../lib/number-text.ts";
import { toVariantModelInput, type VariantGrid } from "./variant-model.ts";

const urlText = (label: string, required: boolean) =>
  z
    .string()
    .trim()
    .refine((s) => !required || s !== "", `请输入${label}`)
    .refine((s) => s === "" || webUrl.safeParse(s).success, `${label}应为 http 或 https 链接`);

export const productEditorForm = z.object({
  ...productFields,
  descriptions: z.record(z.string(), z.string().max(DESCRIPTION_MAX, `描述最多${DESCRIPTION_MAX}个字符`)),
  sku: skuText,
  brand: optionalText("品牌", 200),
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
export const editorLanguagesOf = (d: Pick<ProductDetail, "title" | "description"> | null): string[] =>
  d ? editLanguagesOf(d.title, d.description) : editLanguagesOf();

/** The form's values for a product (null: a new product). */
export function editorValuesOf(d: ProductDetail | null): ProductEditorValues {
  const languages = editorLanguagesOf(d);
  const images = d ? imagesOf(d) : [];
  return {
    titles: textsIn(languages, d?.title ?? {}),
    descriptions: textsIn(languages, d?.description ?? {}),
    price: numberTextOf(d?.price),
    currency: d?.currency ?? "",
    stock: numberTextOf(d?.stock),
    sku: d?.sku ?? "",
    brand: d?.brand ?? "",
    size: d?.size ?? "",
    weight: numberTextOf(d?.weight),
    videoUrl: d?.videoUrl ?? "",
    profit: numberTextOf(d?.profit),
    images: images.map((url) => ({ url })),
    mainImage: mainImageAmong(images, d?.image) ?? "",
    attributes: d ? d.attributes.map((a) => ({ name: a.name, value: a.value })) : [],
    ...categoryValuesOf(d),
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
  // The attribute values chosen belong to the category: kept while it stays, dropped when it changes.
  const category = categoryBodyOf(v, sameCategory(d, v) ? d!.cateInfo!.attrs : []);
  return {
    ...(d ? { id: d.id, concurrencyStamp: d.concurrencyStamp } : {}),
    title: titleBodyOf(v.titles),
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
    image: mainImageAmong(images, v.mainImage),
    images,
    attributes: v.attributes,
    ...category,
    variantModel: toVariantModelInput(grid),
  };
}
