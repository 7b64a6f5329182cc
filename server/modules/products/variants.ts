// Variants between their stored shape and the wire. Stored as the extractor has them (options with value ids, each
// variant naming one value id per option), so collected products keep the platform's ids; the wire shows the spec's
// variant list (variant_Key / variant_Values) and the editor's grid (variantModel), and the editor's grid comes back
// as options and variants, keeping the ids of values that kept their names.
import { badRequest } from "../../http/errors.ts";
import type { VariantModel, VariantModelInput } from "#shared/contract/product.ts";

export type StoredOption = { name: string; values: { id: string; name: string; image?: string }[] };
export type StoredVariant = {
  sku: string;
  optionValues: string[];
  price?: number | string | null;
  originalPrice?: number | null;
  stock?: number | null;
  image?: string;
  images?: string[];
  weightG?: number;
};

const money = (v: unknown): string | null => {
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n.toFixed(2) : null;
};
const imagesOf = (v: StoredVariant) => v.images ?? (v.image ? [v.image] : []);

/** A variant's value names in option order (an unknown id shows as itself). */
function valueNames(options: StoredOption[], v: StoredVariant): string[] {
  return v.optionValues.map((vid, i) => options[i]?.values.find((x) => x.id === vid)?.name ?? vid);
}

export function toVariantItems(options: StoredOption[], variants: StoredVariant[]) {
  const keys = options.map((o) => o.name);
  return variants.map((v) => ({
    sku: v.sku,
    price: money(v.price),
    stock: typeof v.stock === "number" ? v.stock : null,
    images: imagesOf(v),
    variant_Key: keys,
    variant_Values: valueNames(options, v),
  }));
}

export function toVariantModel(options: StoredOption[], variants: StoredVariant[]): VariantModel {
  return {
    headers: options.map((o) => ({ vairantKey: o.name, vairantValues: o.values.map((x) => x.name) })),
    items: variants.map((v) => {
      const values = valueNames(options, v);
      return {
        kvId: values.join(";"),
        values,
        price: money(v.price),
        stock: typeof v.stock === "number" ? v.stock : null,
        sku: v.sku,
        images: imagesOf(v),
      };
    }),
  };
}

/**
 * The editor's grid as stored options and variants. Every item names one value of each header; no two items the
 * same combination; skus unique. Value ids and images of the old options are kept where the names match, and an item
 * without a sku keeps the old variant's sku for the same combination (else `<base>-<n>`).
 */
export function fromVariantModel(
  model: VariantModelInput,
  old: { options: StoredOption[]; variants: StoredVariant[] },
  skuBase: string,
): { options: StoredOption[]; variants: StoredVariant[] } {
  const problems: string[] = [];
  const options: StoredOption[] = model.headers.map((h) => {
    const before = old.options.find((o) => o.name === h.vairantKey);
    const names = [...new Set(h.vairantValues)];
    if (names.length !== h.vairantValues.length) problems.push(`variantModel.headers: ${h.vairantKey} 的规格值重复`);
    return {
      name: h.vairantKey,
      values: names.map((name) => {
        const kept = before?.values.find((x) => x.name === name);
        return kept ? { ...kept } : { id: name, name };
      }),
    };
  });
  if (new Set(options.map((o) => o.name)).size !== options.length) problems.push("variantModel.headers: 规格名称重复");

  const oldByCombination = new Map(old.variants.map((v) => [valueNames(old.options, v).join("\u0000"), v]));
  const seen = new Set<string>();
  const skus = new Set<string>();
  const variants: StoredVariant[] = [];
  model.items.forEach((item, i) => {
    const values = item.values ?? (item.kvId !== undefined ? item.kvId.split(";") : []);
    if (values.length !== options.length) {
      problems.push(`variantModel.items[${i}]: 需要 ${options.length} 个规格值`);
      return;
    }
    const ids: string[] = [];
    values.forEach((name, k) => {
      const hit = options[k].values.find((x) => x.name === name);
      if (!hit) problems.push(`variantModel.items[${i}]: 「${name}」不是 ${options[k].name} 的规格值`);
      else ids.push(hit.id);
    });
    const key = values.join("\u0000");
    if (seen.has(key)) problems.push(`variantModel.items[${i}]: 规格组合重复`);
    seen.add(key);
    const before = oldByCombination.get(key);
    const sku = item.sku || before?.sku || `${skuBase}-${i + 1}`;
    if (skus.has(sku)) problems.push(`variantModel.items[${i}]: SKU「${sku}」重复`);
    skus.add(sku);
    const v: StoredVariant = { sku, optionValues: ids };
    if (item.price != null) v.price = Number(item.price.toFixed(2));
    if (item.stock != null) v.stock = item.stock;
    if (item.images.length) v.images = item.images;
    else if (before) {
      const kept = imagesOf(before);
      if (kept.length) v.images = kept;
    }
    variants.push(v);
  });
  if (problems.length) throw badRequest("规格数据有误", problems.join("\n"), [{ message: problems.join("\n"), members: ["variantModel"] }]);
  return { options, variants };
}
