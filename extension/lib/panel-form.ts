// The side panel's product form's rules: the fields as typed (text, panel-values.ts) read by a zod schema with the
// console editor's rules and Chinese messages (shared/publish/product-form-rules.ts), and turned into
// CreateOrUpdateProduct's body with the product's id and the concurrency stamp it was read with (a newer save in between
// answers 409). Descriptions are not edited here: a field left out of the body keeps its value. The panel loads this
// module when it saves, so zod stays out of its first chunk.
import { z } from "zod";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { categoryBodyOf, mainImageAmong, titleBodyOf } from "#shared/publish/product-form.ts";
import { productFields, variantCells } from "#shared/publish/product-form-rules.ts";
import type { PanelValues } from "./panel-values.ts";
import { saveProductInput } from "./protocol.ts";

export { moveImage, translateSource, translateTargets, valuesOf, type PanelValues } from "./panel-values.ts";

/** The console editor's rules for the fields the panel edits. */
const panelForm = z.object({
  ...productFields,
  variants: z.array(z.object({ price: variantCells.price, stock: variantCells.stock })),
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
  const names = new Map(asked.map((a) => [a.id, a.name]));
  const attrs = Object.entries(v.attrs)
    .filter(([id, a]) => (a.valueId || a.value.trim()) && (names.has(id) || d.cateInfo?.attrs.some((x) => x.nameId === id)))
    .map(([id, a]) => ({
      nameId: id,
      name: names.get(id) ?? d.cateInfo?.attrs.find((x) => x.nameId === id)?.name ?? "",
      valueId: a.valueId,
      value: a.value.trim() || null,
    }));
  return {
    id: d.id,
    concurrencyStamp: d.concurrencyStamp,
    title: titleBodyOf(v.titles),
    price: parsed.price,
    currency: parsed.currency,
    stock: parsed.stock,
    weight: parsed.weight,
    size: parsed.size,
    image: mainImageAmong(v.images, v.mainImage),
    images: v.images,
    ...categoryBodyOf(v, attrs),
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
