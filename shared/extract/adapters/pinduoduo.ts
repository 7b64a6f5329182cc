// Pinduoduo (mobile.yangkeduo.com/goods.html?goods_id=). `window.rawData.store.initDataObj` holds goods (goodsID,
// goodsName, viewImageData, detailGallery, goodsProperty, skus[] with skuID, specs, groupPrice/normalPrice in yuan,
// quantity, thumbUrl) and mall. Sku ids pass 2^53: read from the script text, they stay exact.
import type { PartialProduct, ProductOption, ProductVariant } from "../product.ts";
import type { Adapter, Located, Snapshot, Warn } from "../snapshot.ts";
import { absUrl, arr, findDeep, idOf, imageList, imagesToHtml, isObj, obj, objs, parsePrice, stockOf, str, type Obj } from "../values.ts";
import { compact, digitsParam, pageVariable, titleFields } from "./common.ts";

/** Options and variants from skus[].specs (PDD: spec_key/spec_value; Temu: specKey/specValue). */
export function specVariants(
  skus: Obj[],
  read: (sku: Obj) => { id?: string; price?: number; originalPrice?: number; stock?: number; image?: string },
  warn: Warn,
): Pick<PartialProduct, "options" | "variants"> {
  const options: ProductOption[] = [];
  const keyIndex = new Map<string, number>();
  const rows: { sku: Obj; values: string[] }[] = [];
  for (const sku of skus) {
    const values: string[] = [];
    for (const spec of objs(sku.specs)) {
      const key = str(spec.spec_key) ?? str(spec.specKey);
      const value = str(spec.spec_value) ?? str(spec.specValue);
      if (!key || !value) continue;
      const valueId = idOf(spec.spec_value_id ?? spec.specValueId) ?? value;
      let i = keyIndex.get(key);
      if (i === undefined) {
        i = options.length;
        keyIndex.set(key, i);
        options.push({ name: key, values: [] });
      }
      if (!options[i].values.some((v) => v.id === valueId)) options[i].values.push({ id: valueId, name: value });
      values[i] = valueId;
    }
    rows.push({ sku, values });
  }
  const variants: ProductVariant[] = [];
  for (const { sku, values } of rows) {
    const r = read(sku);
    if (!r.id) continue;
    if (values.length !== options.length || values.some((v) => v === undefined)) {
      warn(`sku ${r.id} lacks a value for some spec; skipped`);
      continue;
    }
    // The first option's values show the sku picture (the colour swatch).
    if (r.image && options[0] && !options[0].values.find((v) => v.id === values[0])!.image) {
      options[0].values.find((v) => v.id === values[0])!.image = r.image;
    }
    variants.push(
      compact({
        sku: r.id,
        optionValues: values,
        price: r.price,
        originalPrice: r.originalPrice,
        stock: r.stock,
        image: r.image,
      }) as ProductVariant,
    );
  }
  return variants.length ? { options, variants } : {};
}

export function propertyAttributes(v: unknown): { name: string; value: string }[] {
  return objs(v).flatMap((p) => {
    const name = str(p.key) ?? str(p.name);
    const value = arr(p.values).map(str).filter(Boolean).join(", ") || str(p.value);
    return name && value ? [{ name, value }] : [];
  });
}

function map(init: Obj, warn: Warn): PartialProduct {
  const goods = obj(init.goods) ?? {};
  const mall = obj(init.mall) ?? {};
  const images = imageList(arr(goods.viewImageData).length ? arr(goods.viewImageData) : arr(goods.topGallery));
  const skus = specVariants(
    objs(goods.skus),
    (s) => {
      const price = parsePrice(s.groupPrice);
      const normal = parsePrice(s.normalPrice);
      return {
        id: idOf(s.skuID ?? s.skuId, warn),
        price: price || normal,
        originalPrice: normal && price && normal > price ? normal : undefined,
        stock: stockOf(s.quantity),
        image: absUrl(s.thumbUrl),
      };
    },
    warn,
  );
  const mallId = idOf(mall.mallID ?? goods.mallID);
  return compact({
    ...titleFields(str(goods.goodsName), "zh"),
    currency: "CNY",
    images,
    video: absUrl(objs(goods.videoGallery)[0]?.videoUrl),
    descriptionHtml: imagesToHtml(imageList(arr(goods.detailGallery))),
    attributes: propertyAttributes(goods.goodsProperty),
    ...skus,
    shop: compact({
      id: mallId,
      name: str(mall.mallName),
      url: mallId ? `https://mobile.yangkeduo.com/mall_page.html?mall_id=${mallId}` : undefined,
    }),
  });
}

export const pinduoduo: Adapter<Obj> = {
  id: "pinduoduo",
  platform: "pinduoduo",
  hosts: /(^|\.)(yangkeduo|pinduoduo)\.com$/,
  globals: ["rawData"],
  match(url) {
    if (!/(^|\.)(yangkeduo|pinduoduo)\.com$/.test(url.hostname)) return null;
    return /\/goods\d*\.html$/.test(url.pathname) ? digitsParam(url, "goods_id") : null;
  },
  detectBlock(s: Snapshot) {
    const html = s.html ?? "";
    if (/\/login\.html/.test(new URL(s.url).pathname) || /location\.(?:replace|href)\s*\(?\s*=?\s*["'][^"']*\/login\.html/.test(html))
      return "login";
    if (!/rawData/.test(html) && /captcha|滑块验证/i.test(html)) return "captcha";
    return null;
  },
  locate(snapshot): Located<Obj> | null {
    const raw = pageVariable(snapshot, "rawData");
    const init = findDeep(raw, (o) => isObj(o.goods) && !!(o.goods.goodsID ?? o.goods.goodsName), 6);
    return init ? { shape: "raw-data", data: init } : null;
  },
  map: (located, _s, warn) => map(located.data, warn),
};
