// 1688 (detail.1688.com/offer/{id}.html). Two page shapes:
//  - "context": `window.context = (function(b, a){…})(window.context, {result: {data: {...components}, global: {...}}})`,
//    the data being the IIFE's second argument; its parts move between releases (the sku model in
//    global.globalData or in Root.fields.dataJson, sometimes JSON text), so mapContext finds each by its key;
//  - "init-data": `window.__INIT_DATA = {data: {<id>: {componentType, data}}, globalData: {...}}` (newer "od" pages).
// Both keep the sku model as skuProps (option names and values) + skuInfoMap ("黑色&gt;M" → sku id, price, stock).
import { decodeEntities, sanitizeHtml } from "../html.ts";
import type { PartialProduct, ProductOption, ProductVariant } from "../product.ts";
import { findIifeArguments } from "../script-data.ts";
import { readGlobal, type Adapter, type Located, type Snapshot, type Warn } from "../snapshot.ts";
import {
  absUrl,
  at,
  expandJsonText,
  findByKey,
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
import { alibabaBlock, compact, pageVariable, titleFields } from "./common.ts";

type Raw = Obj;

function locateContext(snapshot: Snapshot): Obj | undefined {
  if (snapshot.html) {
    const args = findIifeArguments(snapshot.html, "context");
    const data = args?.find((a, i) => i > 0 && isObj(a)) ?? args?.find(isObj);
    if (isObj(data)) return data;
  }
  const g = readGlobal(snapshot, "context");
  return isObj(g) && (g.result || g.data) ? g : undefined;
}

interface Tier {
  begin: number;
  price: number;
}

function tiers(v: unknown): Tier[] {
  return objs(v)
    .map((t) => ({ begin: numberOf(t.beginAmount) ?? 1, price: parsePrice(t.price) }))
    .filter((t): t is Tier => t.price !== undefined && t.price > 0)
    .sort((a, b) => a.begin - b.begin);
}

interface PieceInfo {
  weightG?: number;
  dims?: { lengthCm: number; widthCm: number; heightCm: number };
}

/** Options and variants of a 1688 sku model. */
function skuModel(
  model: Obj | undefined,
  tierPrice: number | undefined,
  pieces: Map<string, PieceInfo>,
  warn: Warn,
  skuPrices?: Map<string, SkuPrice>,
): Pick<PartialProduct, "options" | "variants"> {
  if (!model) return {};
  const options: ProductOption[] = objs(model.skuProps)
    .map((p) => ({
      name: str(p.prop) ?? str(p.name) ?? "",
      values: objs(p.value).flatMap((v) => {
        const name = str(v.name);
        if (!name) return [];
        const image = absUrl(v.imageUrl);
        return [{ id: name, name, ...(image ? { image: originalAlicdnImage(image) } : {}) }];
      }),
    }))
    .filter((o) => o.name && o.values.length);
  const variants: ProductVariant[] = [];
  const infoMap = obj(model.skuInfoMap) ?? {};
  for (const [key, value] of Object.entries(infoMap)) {
    const info = obj(value);
    if (!info) continue;
    // Value names joined by ">" (written "&gt;" in the page).
    const names = decodeEntities(str(info.specAttrs) ?? key).split(">");
    if (names.length !== options.length || names.some((n, i) => !options[i].values.some((v) => v.id === n))) {
      warn(`sku "${decodeEntities(key)}" does not match the sku properties; skipped`);
      continue;
    }
    const sku = idOf(info.skuId, warn) ?? str(info.specId);
    if (!sku) continue;
    // a sku model without prices (2025-26) leaves them to the final price block's skuMapOriginal
    const listed = skuPrices?.get(sku);
    const own = parsePrice(info.price) ?? listed?.own;
    const discounted = parsePrice(info.discountPrice) ?? listed?.discounted;
    const v: ProductVariant = { sku, optionValues: names };
    const price = discounted || own || tierPrice;
    if (price) v.price = price;
    if (discounted && own && own > discounted) v.originalPrice = own;
    const stock = stockOf(info.canBookCount ?? info.amountOnSale);
    if (stock !== undefined) v.stock = stock;
    const image = options[0]?.values.find((x) => x.id === names[0])?.image;
    if (image) v.image = image;
    const piece = pieces.get(sku);
    if (piece?.weightG) v.weightG = piece.weightG;
    if (piece?.dims) v.dims = piece.dims;
    variants.push(v);
  }
  return variants.length ? { options, variants } : {};
}

/** The shared price rule: the first quantity tier (what a small buyer pays) is the price; tiers widen the range. */
function priceFields(tierList: Tier[], variants: ProductVariant[] | undefined): PartialProduct {
  if (tierList.length < 2) return tierList.length && !variants?.length ? { price: tierList[0].price } : {};
  const all = tierList.map((t) => t.price).concat((variants ?? []).map((v) => v.price).filter((p): p is number => p !== undefined));
  return { price: tierList[0].price, priceRange: { min: Math.min(...all), max: Math.max(...all) } };
}

/** Heaviest variant's weight and size: freight estimated from it is never too low. */
function heaviest(variants: ProductVariant[] | undefined): PartialProduct {
  const withWeight = (variants ?? []).filter((v) => v.weightG);
  if (!withWeight.length) return {};
  const top = withWeight.reduce((a, b) => (b.weightG! > a.weightG! ? b : a));
  return compact({ weightG: top.weightG, dims: top.dims });
}

function attributeList(v: unknown): { name: string; value: string }[] {
  return objs(v).flatMap((a) => {
    const name = str(a.name) ?? str(a.attributeName);
    const value = str(a.value) ?? (Array.isArray(a.values) ? a.values.map(str).filter(Boolean).join(", ") : undefined);
    return name && value ? [{ name, value }] : [];
  });
}

/** Unit of a pack-table column ("长(mm)", "重量(kg)"), from the table's column list. */
function columnUnit(columns: Obj[], field: string, label: RegExp): string | undefined {
  const column = columns.find(
    (c) => [c.fieldName, c.field, c.key, c.dataIndex, c.name].some((k) => str(k) === field) || label.test(str(c.label) ?? ""),
  );
  return /[(（]\s*([a-zA-Z]+|千克|公斤|克|毫米|厘米|米)\s*[)）]/.exec(str(column?.label) ?? "")?.[1];
}

const CHINESE_UNITS: Record<string, string> = { 千克: "kg", 公斤: "kg", 克: "g", 毫米: "mm", 厘米: "cm", 米: "m" };

/**
 * Weight and size per sku from the pack table (pieceWeightScale), in the units its columns name. Without a unit, a
 * row whose volume (cm³) is length × width × height / 1000 gives its sizes in millimetres; else centimetres and grams.
 */
function packInfo(scale: Obj | undefined): Map<string, PieceInfo> {
  const pieces = new Map<string, PieceInfo>();
  if (!scale) return pieces;
  const columns = objs(scale.columnList);
  const unit = (field: string, label: RegExp) => {
    const u = columnUnit(columns, field, label);
    return u ? (CHINESE_UNITS[u] ?? u.toLowerCase()) : undefined;
  };
  const sizeUnit = unit("length", /^长/);
  const weightUnit = unit("weight", /重/) ?? "g";
  for (const p of objs(scale.pieceWeightScaleInfo)) {
    const id = idOf(p.skuId);
    if (!id) continue;
    const raw = [numberOf(p.length), numberOf(p.width), numberOf(p.height)];
    const volume = numberOf(p.volume);
    const product = raw.every((n) => n) ? raw[0]! * raw[1]! * raw[2]! : undefined;
    const rowUnit = sizeUnit ?? (product && volume && Math.abs(product / 1000 - volume) <= volume * 0.01 ? "mm" : "cm");
    const [l, w, h] = raw.map((n) => toCm(n, rowUnit));
    pieces.set(
      id,
      compact({ weightG: toGrams(p.weight, weightUnit), dims: l && w && h ? { lengthCm: l, widthCm: w, heightCm: h } : undefined }),
    );
  }
  return pieces;
}

const hasSkus = (o: Obj) => Array.isArray(o.skuProps) || isObj(o.skuInfoMap);

/**
 * The "context" page data. Its parts sit in different places from one release to the next (the sku model under
 * global.globalData or inside Root.fields.dataJson, which may be JSON text; the shop in sellerModel or tempModel; the
 * description as a URL or inline in offer_details), so each is found by its key.
 */
function mapContext(rawRoot: Obj, warn: Warn): PartialProduct {
  const root = expandJsonText(rawRoot) as Obj;
  const result = obj(root.result) ?? root;
  const data = obj(result.data) ?? {};
  const offer = findByKey(root, "offerDetail") ?? {};
  const title = str(at(data, "productTitle.fields.title")) ?? str(offer.subject) ?? str(findByKey(root, "tempModel")?.offerTitle);
  const gallery = obj(at(data, "gallery.fields")) ?? {};
  const dataImages = objs(findDeep(root, (o) => Array.isArray(o.images) && objs(o.images).some((i) => i.fullPathImageURI))?.images);
  const images = imageList(
    Array.isArray(gallery.offerImgList) ? gallery.offerImgList : objs(offer.imageList).length ? objs(offer.imageList) : dataImages,
    undefined,
    originalAlicdnImage,
  );
  const final = finalPrice(findByKey(root, "finalPriceModel"));
  const tierList = tiers(at(data, "mainPrice.fields.priceModel.currentPrices"));
  const tiersOrFinal = tierList.length ? tierList : final.tiers;
  const pieces = packInfo(findByKey(root, "pieceWeightScale"));
  const skus = skuModel(findByKey(root, "skuModel", hasSkus), tiersOrFinal[0]?.price ?? final.min, pieces, warn, final.skuPrices);
  // 2025-26 pages name the shop beside the title (productTitle.fields.shopInfo); older ones in sellerModel/tempModel.
  const shopInfo = obj(at(data, "productTitle.fields.shopInfo"));
  const seller =
    (shopInfo && (str(shopInfo.companyName) ?? str(shopInfo.authCompanyName)) ? shopInfo : undefined) ??
    findByKey(root, "sellerModel", (o) => !!str(o.companyName)) ??
    findByKey(root, "tempModel", (o) => !!str(o.companyName)) ??
    {};
  const winport =
    str(seller.winportUrl) ?? str(seller.shopUrl) ?? str(seller.winportLink) ?? str(findByKey(root, "offerBaseInfo")?.sellerWinportUrl);
  const details = findByKey(root, "offer_details");
  const inline = str(details?.content) ?? str(obj(details?.fields)?.content);
  return compact({
    ...titleFields(title, "zh"),
    currency: "CNY",
    ...(tiersOrFinal.length ? priceFields(tiersOrFinal, skus.variants) : final.fields),
    images,
    video: absUrl(at(gallery, "video.videoUrl")),
    descriptionUrl: absUrl(offer.detailUrl ?? at(data, "description.fields.detailUrl")),
    descriptionHtml: inline ? sanitizeHtml(inline) || undefined : undefined,
    attributes: attributeList(offer.featureAttributes),
    ...skus,
    ...heaviest(skus.variants),
    stock: stockOf(findByKey(root, "tradeModel")?.canBookedAmount),
    shop: compact({
      id: str(seller.memberId) ?? str(seller.sellerMemberId) ?? str(seller.sellerLoginId),
      name: str(seller.companyName) ?? str(seller.authCompanyName),
      url: absUrl(winport),
    }),
    sourceCategory: sourceCategory(root),
  });
}

interface SkuPrice {
  own?: number;
  discounted?: number;
}

interface FinalPrice {
  min?: number;
  tiers: Tier[];
  /** Per-sku prices by sku id (skuMapOriginal), for sku models that carry none. */
  skuPrices: Map<string, SkuPrice>;
  /** price / priceRange when there are no quantity tiers: offerMinPrice, up to offerMaxPrice. */
  fields: PartialProduct;
}

/**
 * The 2025-26 price block (mainPrice.fields.finalPriceModel): tradeWithoutPromotion (what anyone pays) with
 * offerMinPrice / offerMaxPrice, the quantity ranges (offerPriceRangeList, or currentPrices / skuRangePrices in some
 * releases) and skuMapOriginal (per-sku price, discountPrice). tradeWithPromotion is a logged-in buyer's offer.
 */
function finalPrice(model: Obj | undefined): FinalPrice {
  const trade = obj(model?.tradeWithoutPromotion) ?? model ?? {};
  const ranges = [trade.offerPriceRangeList, trade.priceRangeList, trade.currentPrices, trade.skuRangePrices].find((v) => objs(v).length);
  const min = parsePrice(trade.offerMinPrice);
  const max = parsePrice(trade.offerMaxPrice);
  const skuPrices = new Map<string, SkuPrice>();
  for (const row of objs(trade.skuMapOriginal)) {
    const id = idOf(row.skuId);
    const own = parsePrice(row.price);
    const discounted = parsePrice(row.discountPrice);
    if (id && (own || discounted)) skuPrices.set(id, { own, discounted });
  }
  const fields: PartialProduct = min ? { price: min, ...(max && max > min ? { priceRange: { min, max } } : {}) } : {};
  return { min, tiers: tiers(ranges), skuPrices, fields };
}

function mapInitData(root: Obj, warn: Warn): PartialProduct {
  const global = obj(root.globalData) ?? {};
  const components = Object.values(obj(root.data) ?? {}).filter(isObj);
  const component = (kind: RegExp) => components.find((c) => kind.test(str(c.componentType) ?? ""))?.data;
  const temp = obj(global.tempModel) ?? {};
  const title = str(temp.offerTitle) ?? str(obj(component(/title/i))?.title);
  const images = imageList(
    objs(global.images).map((i) => i.fullPathImageURI ?? i.imageURI),
    undefined,
    originalAlicdnImage,
  );
  const tierList = tiers(at(global, "orderParamModel.orderParam.skuParam.skuRangePrices"));
  // freightInfo weights are kilograms: unitWeight for the offer, skuWeight per sku id.
  const freight = obj(findDeep(root.data, (o) => isObj(o.freightInfo))?.freightInfo) ?? {};
  const pieces = new Map<string, PieceInfo>();
  for (const [id, kg] of Object.entries(obj(freight.skuWeight) ?? {})) {
    const g = toGrams(kg, "kg");
    if (g) pieces.set(id, { weightG: g });
  }
  const skus = skuModel(obj(global.skuModel), tierList[0]?.price, pieces, warn);
  const description = findDeep(root.data, (o) => typeof o.detailUrl === "string");
  const video = findDeep(root.data, (o) => typeof o.videoUrl === "string");
  const attributes = attributeList(component(/attribute/i));
  const unitWeight = toGrams(freight.unitWeight, "kg");
  return compact({
    ...titleFields(title, "zh"),
    currency: "CNY",
    ...priceFields(tierList, skus.variants),
    images,
    video: absUrl(video?.videoUrl),
    descriptionUrl: absUrl(description?.detailUrl),
    attributes,
    ...skus,
    ...(unitWeight && !skus.variants?.some((v) => v.weightG) ? { weightG: unitWeight } : heaviest(skus.variants)),
    shop: compact({
      id: str(temp.sellerMemberId) ?? str(temp.sellerLoginId),
      name: str(temp.companyName),
      url: absUrl(at(global, "offerBaseInfo.sellerWinportUrl")),
    }),
    sourceCategory: sourceCategory(root),
  });
}

/**
 * The offer's category: its leaf id, kept beside the offer id (offerBaseInfo / tempModel / baseDataModel, whichever
 * the release has) as leafCategoryId, or postCategoryId (the category the offer was posted in).
 */
function sourceCategory(root: unknown): PartialProduct["sourceCategory"] {
  const holder = findDeep(root, (o) => o.leafCategoryId != null || o.postCategoryId != null);
  const id = holder ? (idOf(holder.leafCategoryId) ?? idOf(holder.postCategoryId)) : undefined;
  return id ? { id } : undefined;
}

export const alibaba1688: Adapter<Raw> = {
  id: "1688",
  platform: "1688",
  hosts: /(^|\.)1688\.com$/,
  globals: ["context", "__INIT_DATA"],
  match(url) {
    if (!/(^|\.)1688\.com$/.test(url.hostname)) return null;
    return /\/offer\/(\d+)\.html/.exec(url.pathname)?.[1] ?? null;
  },
  detectBlock: (s) => alibabaBlock(s, /^login\.(1688|taobao)\.com$/),
  locate(snapshot): Located<Raw> | null {
    const init = pageVariable(snapshot, "__INIT_DATA");
    if (isObj(init) && (init.globalData || init.data)) return { shape: "init-data", data: init };
    const context = locateContext(snapshot);
    if (context) return { shape: "context", data: context };
    return null;
  },
  map(located, _snapshot, warn) {
    return located.shape === "init-data" ? mapInitData(located.data, warn) : mapContext(located.data, warn);
  },
};
