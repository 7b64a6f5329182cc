// JD (item.jd.com/{skuId}.html). `var pageConfig = {product: {...}}` is a JS literal (unquoted keys, single quotes,
// comments): name, skuid (SkuId on older pages, in colorSize too), imageList (paths on the 360buyimg CDN), colorSize (one entry per sku: skuId + value per
// option name), shopId, desc (description URL). Prices are not in the page: a separate call answers them
// (pc_detailpage_wareBusiness, or the older prices/mgets), which only the extension sees. Shop name and the parameter
// list (商品毛重 etc.) are in the DOM.
import { elementByClass, elementById, elementText, innerHtml, tagsContaining, tagsNamed } from "../html.ts";
import type { PartialProduct, ProductOption, ProductVariant } from "../product.ts";
import type { Adapter, Located, Snapshot, Warn } from "../snapshot.ts";
import { absUrl, arr, findDeep, idOf, isObj, obj, objs, parsePrice, parseWeightText, str, uniq, type Obj } from "../values.ts";
import { compact, interceptedBodies, pageVariable, titleFields } from "./common.ts";

const IMAGE_BASE = "https://img14.360buyimg.com/n0/";

function imageUrl(path: unknown): string | undefined {
  const p = str(path);
  if (!p) return undefined;
  return /^(https?:)?\/\//.test(p) ? absUrl(p) : IMAGE_BASE + p.replace(/^\/+/, "");
}

/** Price and original price of one sku from the intercepted price answers. */
function priceOf(snapshot: Snapshot, skuId: string): { price?: number; originalPrice?: number } {
  for (const body of interceptedBodies(snapshot, /pc_detailpage_wareBusiness|prices\/mgets|pc_price|price/i)) {
    const hit = findDeep(body, (o) => o.p !== undefined && (str(o.id) === undefined || str(o.id)!.replace(/^J_/, "") === skuId), 6);
    if (!hit) continue;
    const price = parsePrice(hit.p);
    const original = parsePrice(hit.op ?? hit.m);
    if (price) return { price, originalPrice: original && original > price ? original : undefined };
  }
  return {};
}

/** "名称：值" items of the brand line (#parameter-brand) and the parameter list (.parameter2). */
function parameters(html: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const list of [elementById(html, "parameter-brand"), elementByClass(html, "parameter2")]) {
    if (!list) continue;
    const inner = innerHtml(html, list);
    for (const li of tagsNamed(inner, "li")) {
      const m = /^([^:：]+?)\s*[:：]\s*(.+)$/.exec(elementText(inner, li));
      if (m) out.push({ name: m[1], value: m[2] });
    }
  }
  return out;
}

function shop(html: string, shopId: string | undefined): PartialProduct["shop"] {
  for (const a of tagsContaining(html, "mall.jd.com/index-")) {
    if (a.name !== "a" || !/mall\.jd\.com\/index-\d+\.html/.test(a.attrs.href ?? "")) continue;
    const name = a.attrs.title?.trim() || elementText(html, a);
    if (!name) continue;
    const url = absUrl(a.attrs.href);
    return compact({ id: shopId ?? /index-(\d+)/.exec(a.attrs.href)?.[1], name, url }) as PartialProduct["shop"];
  }
  return shopId ? { id: shopId } : undefined;
}

// The sku id's spellings: skuId / skuid, and "SkuId" on older pages (often as a string).
const SKU_ID_KEY = /^sku_?id$/i;
const skuIdOf = (o: Obj): unknown => o.skuId ?? o.skuid ?? o.SkuId ?? Object.entries(o).find(([k]) => SKU_ID_KEY.test(k))?.[1];

function map(product: Obj, snapshot: Snapshot, warn: Warn): PartialProduct {
  const html = snapshot.html ?? "";
  const skuId = idOf(skuIdOf(product), warn) ?? "";
  const current = priceOf(snapshot, skuId);
  if (!current.price) {
    const domPrice = elementByClass(html, `J-p-${skuId}`);
    current.price = domPrice ? parsePrice(elementText(html, domPrice)) : undefined;
  }

  const entries = objs(product.colorSize);
  const names = uniq(entries.flatMap((e) => Object.keys(e).filter((k) => !SKU_ID_KEY.test(k) && typeof e[k] === "string")));
  const options: ProductOption[] = names.map((name) => ({ name, values: [] }));
  const variants: ProductVariant[] = [];
  for (const e of entries) {
    const sku = idOf(skuIdOf(e), warn);
    const values = names.map((n) => str(e[n]));
    if (!sku || values.some((v) => !v)) continue;
    values.forEach((v, i) => {
      if (!options[i].values.some((x) => x.id === v)) options[i].values.push({ id: v!, name: v! });
    });
    variants.push(compact({ sku, optionValues: values as string[], ...(sku === skuId ? current : {}) }) as ProductVariant);
  }
  const unpriced = variants.filter((v) => v.price === undefined).length;
  if (variants.length && unpriced) warn(`${unpriced} variants without price (JD loads each sku's price separately)`);
  if (!current.price && !variants.some((v) => v.price)) warn("price not in the snapshot (JD loads it with a separate call)");

  const attributes = parameters(html);
  const weight = attributes.find((a) => /毛重|净重|重量/.test(a.name))?.value;
  return compact({
    ...titleFields(str(product.name) ?? str(product.skuName), "zh"),
    currency: "CNY",
    ...(variants.length ? {} : current),
    images: uniq(
      arr(product.imageList)
        .map(imageUrl)
        .filter((u): u is string => !!u),
    ),
    descriptionUrl: absUrl(product.desc),
    attributes,
    ...(variants.length ? { options, variants } : {}),
    weightG: weight ? parseWeightText(weight) : undefined,
    shop: shop(html, idOf(product.shopId) ?? idOf(product.venderId)),
  });
}

export const jd: Adapter<Obj> = {
  id: "jd",
  platform: "jd",
  hosts: /(^|\.)jd\.(com|hk)$/,
  globals: ["pageConfig.product"],
  match(url) {
    if (!/(^|\.)jd\.(com|hk)$/.test(url.hostname)) return null;
    return /^\/(?:product\/)?(\d+)\.html$/.exec(url.pathname)?.[1] ?? null;
  },
  detectBlock(s) {
    const html = s.html ?? "";
    if (/risk_handler|cfe\.m\.jd\.com\/privatedomain/i.test(s.url + html)) return "captcha";
    if (/passport\.jd\.com/i.test(new URL(s.url).hostname) || /<form[^>]+id=["']formlogin["']/i.test(html)) return "login";
    return null;
  },
  locate(snapshot): Located<Obj> | null {
    const config = pageVariable(snapshot, "pageConfig", "pageConfig.product");
    const product = isObj(obj(config)?.product) ? obj(obj(config)!.product) : obj(config);
    return product && (skuIdOf(product) !== undefined || product.colorSize) ? { shape: "page-config", data: product } : null;
  },
  map: (located, snapshot, warn) => map(located.data, snapshot, warn),
};
