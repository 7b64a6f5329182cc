// AliExpress (*.aliexpress.com/item/{id}.html). Two page shapes:
//  - "run-params": `window.runParams = {data: {productInfoComponent, imageComponent, skuComponent, priceComponent, …}}`
//    (server-rendered; the older *Module names — titleModule, skuModule… — are read too);
//  - "pdp-query": the newer client-rendered page; `window._d_c_.DCData` holds little (images), the product comes from
//    the mtop.aliexpress.pdp.pc.query answer: PRODUCT_TITLE, HEADER_IMAGE_PC, SKU (skuProperties, skuPaths),
//    PRICE.skuIdStrPriceInfoMap, QUANTITY_PC, SHOP_CARD_PC, PRODUCT_PROP_PC, DESC. Only the extension sees that answer.
// Sku ids pass 2^53 (12000036653480006): skuIdStr is used when present, else the exactly parsed skuId.
import type { PartialProduct, ProductOption, ProductVariant } from "../product.ts";
import { findKeyedValue } from "../script-data.ts";
import { readGlobal, type Adapter, type Located, type Snapshot, type Warn } from "../snapshot.ts";
import {
  absUrl,
  arr,
  at,
  currencyCode,
  findDeep,
  idOf,
  imageList,
  isObj,
  numberOf,
  obj,
  objs,
  originalAlicdnImage,
  parsePrice,
  stockOf,
  str,
  toCm,
  toGrams,
  type Obj,
} from "../values.ts";
import { alibabaBlock, compact, interceptedBodies, pageLanguage, pageVariable, titleFields } from "./common.ts";

const isRunParamsData = (o: Obj) => isObj(o.productInfoComponent) || isObj(o.skuComponent) || isObj(o.titleModule) || isObj(o.skuModule);
const isPdpResult = (o: Obj) => isObj(o.PRODUCT_TITLE) || (isObj(o.SKU) && isObj(o.PRICE));

function locateRunParams(snapshot: Snapshot): Obj | undefined {
  let value: unknown;
  try {
    value = pageVariable(snapshot, "runParams", "runParams.data");
  } catch (e) {
    // runParams also holds non-literal bits on some pages: read its `data:` property alone.
    const html = snapshot.html ?? "";
    const at = html.search(/window\.runParams\s*=/);
    value = at >= 0 ? { data: findKeyedValue(html.slice(at), "data") } : undefined;
    if (!isObj(obj(value)?.data)) throw e;
  }
  const v = obj(value);
  const data = obj(v?.data) ?? v;
  return data && isRunParamsData(data) ? data : undefined;
}

function locatePdp(snapshot: Snapshot): { result: Obj; dcData?: Obj } | undefined {
  const dc = readGlobal(snapshot, "_d_c_") ?? pageVariable(snapshot, "_d_c_.DCData");
  const dcData = obj(obj(dc)?.DCData) ?? obj(dc);
  for (const body of interceptedBodies(snapshot, /mtop\.aliexpress\.pdp\.pc\.query/i)) {
    const result = findDeep(body, isPdpResult, 6);
    if (result) return { result, dcData };
  }
  const inGlobals = findDeep(dc, isPdpResult, 6);
  return inGlobals ? { result: inGlobals, dcData } : undefined;
}

/** Options of productSKUPropertyList / SKU.skuProperties; value id = propertyValueIdLong (or propertyValueId). */
function options(list: unknown): { options: ProductOption[]; pids: string[] } {
  const out: ProductOption[] = [];
  const pids: string[] = [];
  for (const prop of objs(list)) {
    const name = str(prop.skuPropertyName);
    const pid = idOf(prop.skuPropertyId);
    if (!name || !pid) continue;
    const values = objs(prop.skuPropertyValues).flatMap((v) => {
      const id = idOf(v.propertyValueIdLong ?? v.propertyValueId);
      const vname = str(v.propertyValueDisplayName) ?? str(v.propertyValueName);
      if (!id || !vname) return [];
      const image = absUrl(v.skuPropertyImagePath);
      return [{ id, name: vname, ...(image ? { image: originalAlicdnImage(image) } : {}) }];
    });
    if (values.length) {
      out.push({ name, values });
      pids.push(pid);
    }
  }
  return { options: out, pids };
}

/** Option value ids, in option order, from "193,201336100" (ids) or "14:193#Black;5:100014064" (pid:vid pairs). */
function valuesFromPath(path: string, opts: ProductOption[], pids: string[]): string[] | undefined {
  const pairs = path.split(/[;,]/).map((part) => part.split("#")[0].trim());
  const byPid = new Map(pairs.filter((p) => p.includes(":")).map((p) => p.split(":") as [string, string]));
  const bare = pairs.filter((p) => !p.includes(":"));
  const out = opts.map((o, i) => byPid.get(pids[i]) ?? bare.find((id) => o.values.some((v) => v.id === id)) ?? "");
  return out.every((id, i) => opts[i].values.some((v) => v.id === id)) ? out : undefined;
}

function variantImage(opts: ProductOption[], values: string[]): string | undefined {
  for (let i = 0; i < opts.length; i++) {
    const image = opts[i].values.find((v) => v.id === values[i])?.image;
    if (image) return image;
  }
  return undefined;
}

/**
 * The item's category: productInfoComponent.categoryId (the leaf), named by the breadcrumb's pathList (its entries
 * with a cateId; "Home" and "All categories" have 0).
 */
function runParamsCategory(data: Obj, info: Obj): PartialProduct["sourceCategory"] {
  const list = at(data, "breadcrumbComponent.pathList");
  const crumbs = Object.values(obj(list) ?? arr(list)).filter(isObj);
  const names = crumbs.flatMap((c) => (numberOf(c.cateId) && str(c.name) ? [str(c.name)!] : []));
  const id = idOf(info.categoryId);
  const path = names.length ? names.join(" > ").slice(0, 500) : undefined;
  return id || path ? compact({ id, path }) : undefined;
}

function mapRunParams(data: Obj, snapshot: Snapshot, warn: Warn): PartialProduct {
  const info = obj(data.productInfoComponent) ?? obj(data.titleModule) ?? {};
  const image = obj(data.imageComponent) ?? obj(data.imageModule) ?? {};
  const skuC = obj(data.skuComponent) ?? obj(data.skuModule) ?? {};
  const priceC = obj(data.priceComponent) ?? obj(data.skuModule) ?? {};
  const { options: opts, pids } = options(skuC.productSKUPropertyList);
  const variants: ProductVariant[] = [];
  let currency = currencyCode(at(data, "currencyComponent.currencyCode")) ?? currencyCode(at(data, "webEnv.currency"));
  for (const sku of objs(priceC.skuPriceList)) {
    const id = str(sku.skuIdStr) ?? idOf(sku.skuId, warn);
    if (!id) continue;
    const values = valuesFromPath(str(sku.skuPropIds) ?? "", opts, pids);
    if (!values) {
      warn(`sku ${id} does not match the sku properties; skipped`);
      continue;
    }
    const val = obj(sku.skuVal) ?? {};
    const listed = parsePrice(at(val, "skuAmount.value"));
    const sale = parsePrice(at(val, "skuActivityAmount.value"));
    currency ??= currencyCode(at(val, "skuAmount.currency"));
    const v: ProductVariant = { sku: id, optionValues: values };
    const price = sale || listed;
    if (price) v.price = price;
    if (sale && listed && listed > sale) v.originalPrice = listed;
    const stock = stockOf(val.availQuantity ?? val.inventory);
    if (stock !== undefined) v.stock = stock;
    const img = variantImage(opts, values);
    if (img) v.image = img;
    variants.push(v);
  }
  const pack = obj(data.packageComponent) ?? obj(data.packageModule) ?? {};
  const [l, w, h] = [toCm(pack.length), toCm(pack.width), toCm(pack.height)];
  const seller = obj(data.sellerComponent) ?? obj(data.storeModule) ?? {};
  const props = objs(at(data, "productPropComponent.props") ?? at(data, "specsModule.props"));
  const descriptionUrl = absUrl(at(data, "productDescComponent.descriptionUrl") ?? at(data, "descriptionModule.descriptionUrl"));
  return compact({
    ...titleFields(str(info.subject), "en", pageLanguage(snapshot, descriptionUrl)),
    currency,
    images: imageList(arr(image.imagePathList), undefined, originalAlicdnImage),
    descriptionUrl,
    attributes: props.flatMap((p) => (str(p.attrName) && str(p.attrValue) ? [{ name: str(p.attrName)!, value: str(p.attrValue)! }] : [])),
    ...(variants.length ? { options: opts, variants } : {}),
    weightG: toGrams(pack.weight, "kg"),
    dims: l && w && h ? { lengthCm: l, widthCm: w, heightCm: h } : undefined,
    shop: compact({ id: idOf(seller.storeNum), name: str(seller.storeName), url: absUrl(seller.storeURL) }),
    sourceCategory: runParamsCategory(data, info),
  });
}

function mapPdp(result: Obj, dcData: Obj | undefined, snapshot: Snapshot, warn: Warn): PartialProduct {
  const { options: opts, pids } = options(at(result, "SKU.skuProperties"));
  const prices = obj(at(result, "PRICE.skuIdStrPriceInfoMap")) ?? {};
  let currency = currencyCode(at(result, "GLOBAL_DATA.globalData.currencyCode"));
  const variants: ProductVariant[] = [];
  for (const path of objs(at(result, "SKU.skuPaths"))) {
    const id = str(path.skuIdStr) ?? idOf(path.skuId, warn);
    if (!id) continue;
    const values = valuesFromPath(str(path.path) ?? "", opts, pids);
    if (!values) {
      warn(`sku ${id} does not match the sku properties; skipped`);
      continue;
    }
    const info = obj(prices[id]) ?? {};
    const sale = parsePrice(at(info, "salePrice.value")) ?? parsePrice(info.salePriceString);
    const listed = parsePrice(at(info, "originalPrice.value"));
    currency ??= currencyCode(at(info, "salePrice.currency") ?? at(info, "originalPrice.currency"));
    const v: ProductVariant = { sku: id, optionValues: values };
    const price = sale || listed;
    if (price) v.price = price;
    if (sale && listed && listed > sale) v.originalPrice = listed;
    const stock = stockOf(path.skuStock ?? at(result, `QUANTITY_PC.skuQuantityMap.${id}.availQuantity`));
    if (stock !== undefined) v.stock = stock;
    const img = variantImage(opts, values);
    if (img) v.image = img;
    variants.push(v);
  }
  const shop = obj(result.SHOP_CARD_PC) ?? {};
  const images = arr(at(result, "HEADER_IMAGE_PC.imagePathList")).length
    ? arr(at(result, "HEADER_IMAGE_PC.imagePathList"))
    : arr(dcData?.imagePathList);
  const video = findDeep(result.HEADER_IMAGE_PC, (o) => typeof o.videoUrl === "string", 4);
  const descriptionUrl = absUrl(at(result, "DESC.pcDescUrl") ?? at(result, "DESC.nativeDescUrl"));
  return compact({
    ...titleFields(str(at(result, "PRODUCT_TITLE.text")), "en", pageLanguage(snapshot, descriptionUrl)),
    currency,
    stock: variants.length ? undefined : stockOf(at(result, "QUANTITY_PC.totalAvailableInventory")),
    images: imageList(images, undefined, originalAlicdnImage),
    video: absUrl(video?.videoUrl),
    descriptionUrl,
    attributes: objs(at(result, "PRODUCT_PROP_PC.showedProps")).flatMap((p) =>
      str(p.attrName) && str(p.attrValue) ? [{ name: str(p.attrName)!, value: str(p.attrValue)! }] : [],
    ),
    ...(variants.length ? { options: opts, variants } : {}),
    shop: compact({ id: idOf(at(shop, "sellerInfo.storeNum")), name: str(shop.storeName), url: absUrl(at(shop, "sellerInfo.storeURL")) }),
  });
}

type Raw = { runParams?: Obj; pdp?: { result: Obj; dcData?: Obj } };

export const aliexpress: Adapter<Raw> = {
  id: "aliexpress",
  platform: "aliexpress",
  hosts: /(^|\.)aliexpress\.(com|us|ru)$/,
  // runParams.data only: runParams itself carries a csrf token.
  globals: ["runParams.data", "_d_c_"],
  match(url) {
    if (!/(^|\.)aliexpress\.(com|us|ru)$/.test(url.hostname)) return null;
    return /\/item\/(?:[^/]*\/)?(\d+)\.html/.exec(url.pathname)?.[1] ?? null;
  },
  detectBlock: (s) => alibabaBlock(s, /^login\.aliexpress\.(com|ru)$/),
  locate(snapshot): Located<Raw> | null {
    const pdp = locatePdp(snapshot);
    if (pdp) return { shape: "pdp-query", data: { pdp } };
    const runParams = locateRunParams(snapshot);
    if (runParams) return { shape: "run-params", data: { runParams } };
    return null;
  },
  map(located, snapshot, warn) {
    const { runParams, pdp } = located.data;
    if (pdp) return mapPdp(pdp.result, pdp.dcData, snapshot, warn);
    return mapRunParams(runParams!, snapshot, warn);
  },
};
