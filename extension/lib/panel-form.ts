// The side panel's product form's rules: the fields as typed (text, panel-values.ts) read by a zod schema with the
// console editor's rules and Chinese messages (shared/text/form-text.ts), and turned into CreateOrUpdateProduct's body
// with the product's id and the concurrency stamp it was read with (a newer save in between answers 409). Descriptions
// are not edited here: a field left out of the body keeps its value. The panel loads this module when it saves, so zod
// stays out of its first chunk.
import { z } from "zod";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { numberText, sizeText } from "#shared/text/form-text.ts";
import { TITLE_MAX, type PanelValues } from "./panel-values.ts";
import { saveProductInput } from "./protocol.ts";

export {
  languageNames,
  moveImage,
  PANEL_LANGUAGES,
  TITLE_MAX,
  translateSource,
  translateTargets,
  valuesOf,
  type AttrValue,
  type PanelValues,
  type VariantRow,
} from "./panel-values.ts";

const price = numberText("价格", { min: 0, max: 1_000_000_000 });
const stock = numberText("库存", { min: 0, max: 10_000_000, decimals: 0 });

/** The console editor's rules for the fields the panel edits. */
export const panelForm = z.object({
  titles: z
    .record(z.string(), z.string().max(TITLE_MAX, `标题最多${TITLE_MAX}个字符`))
    .refine((t) => Object.values(t).some((v) => v.trim() !== ""), "请至少填写一种语言的标题"),
  price,
  currency: z
    .string()
    .trim()
    .refine((s) => s === "" || /^[A-Za-z]{3}$/.test(s), "币种为3位字母代码，如 CNY、USD")
    .transform((s) => (s ? s.toUpperCase() : null)),
  stock,
  weight: numberText("重量", { min: 0, max: 1_000_000 }),
  size: sizeText,
  variants: z.array(z.object({ price, stock })),
});

/** The first message of each field that fails, by field ("variants.0.price" for a variant's). */
export function problemsOf(values: PanelValues): Record<string, string> {
  const r = panelForm.safeParse(values);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = issue.path.join(".");
    out[key] ??= issue.message;
  }
  return out;
}

export type SaveBody = z.input<typeof saveProductInput>;

/** The server's contract check of a body (what the background's receiver runs too). */
export const saveProductInputCheck = (body: SaveBody) => saveProductInput.safeParse(body);

/**
 * CreateOrUpdateProduct's body for the values (which passed panelForm). The attribute values belong to the category:
 * those of the asked attributes are sent with their names; a changed category starts with none.
 */
export function saveBodyOf(d: ProductDetail, v: PanelValues, asked: CategoryAttribute[] = []): SaveBody {
  const parsed = panelForm.parse(v);
  const images = v.images;
  const site = v.site ? Number(v.site) : null;
  const names = new Map(asked.map((a) => [a.id, a.name]));
  const attrs = Object.entries(v.attrs)
    .filter(([id, a]) => (a.valueId || a.value.trim()) && (names.has(id) || d.cateInfo?.attrs.some((x) => x.nameId === id)))
    .map(([id, a]) => ({
      nameId: id,
      name: names.get(id) ?? d.cateInfo?.attrs.find((x) => x.nameId === id)?.name ?? "",
      valueId: a.valueId,
      value: a.value.trim() || null,
    }));
  const cateInfo = site && v.cateId ? { cateId: v.cateId, site, attrs } : null;
  const title = Object.fromEntries(
    Object.entries(v.titles)
      .map(([l, t]) => [l, t.trim()])
      .filter(([, t]) => t !== ""),
  );
  return {
    id: d.id,
    concurrencyStamp: d.concurrencyStamp,
    title,
    price: parsed.price,
    currency: parsed.currency,
    stock: parsed.stock,
    weight: parsed.weight,
    size: parsed.size,
    image: images.includes(v.mainImage) ? v.mainImage : (images[0] ?? null),
    images,
    cateInfo,
    categoryName: cateInfo ? v.categoryName || null : null,
    ...(d.variantModel.items.length
      ? {
          variantModel: {
            headers: d.variantModel.headers.map((h) => ({ vairantKey: h.vairantKey, vairantValues: h.vairantValues })),
            items: v.variants.map((row, i) => ({
              values: row.values,
              price: parsed.variants[i].price,
              stock: parsed.variants[i].stock,
              sku: row.sku,
              images: row.images,
            })),
          },
        }
      : {}),
  };
}
