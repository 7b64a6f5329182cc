// schema.org Product / ProductGroup (from JSON-LD or microdata, which microdata.ts turns into the same object form) to
// the product's fields.
import { decodeEntities, sanitizeHtml } from "../html.ts";
import type { PartialProduct, ProductVariant } from "../product.ts";
import type { Warn } from "../snapshot.ts";
import {
  absUrl,
  arr,
  currencyCode,
  idOf,
  imageList,
  isObj,
  obj,
  parsePrice,
  parseWeightText,
  round2,
  stockOf,
  str,
  textToHtml,
  titleLanguage,
  toCm,
  toGrams,
  uniq,
  type Obj,
} from "../values.ts";

export interface SourceContext {
  url: string;
  html: string;
  /** The page's declared language (<html lang>). */
  lang?: string;
  warn: Warn;
}

/** Local schema.org type names of a node ("Product", "ProductGroup"), whatever prefix the page wrote. */
function typesOf(node: Obj): string[] {
  const t = node["@type"];
  return (Array.isArray(t) ? t : [t])
    .map((x) => (typeof x === "string" ? x.replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, "") : ""))
    .filter(Boolean);
}

export const isType = (node: Obj, type: string) => typesOf(node).includes(type);

/** Text of a value that may be a string, a number, {name}, {value} or {@value}. */
function text(v: unknown): string | undefined {
  if (Array.isArray(v)) return text(v[0]);
  const s = isObj(v) ? (str(v.name) ?? str(v.value) ?? str(v["@value"])) : str(v);
  return s === undefined ? undefined : decodeEntities(s);
}

/** "https://schema.org/color" → "color". */
function propertyName(v: string): string {
  return v.replace(/^.*[/#:]/, "");
}
function optionLabel(prop: string): string {
  return prop.charAt(0).toUpperCase() + prop.slice(1).replace(/([a-z])([A-Z])/g, "$1 $2");
}

interface OfferSummary {
  prices: number[];
  original?: number;
  currency?: string;
  stock?: number;
  soldOut?: boolean;
  available?: boolean;
  sellerName?: string;
  sellerUrl?: string;
}

const LIST_PRICE = /ListPrice|StrikethroughPrice|MSRP/i;

function readOffers(value: unknown, warn: Warn, out: OfferSummary = { prices: [] }, depth = 0): OfferSummary {
  if (depth > 4) return out;
  for (const offer of arr(Array.isArray(value) ? value : [value]).filter(isObj)) {
    const currency = currencyCode(offer.priceCurrency);
    if (currency && !out.currency) out.currency = currency;
    const amounts: unknown[] = [offer.price, offer.lowPrice, offer.highPrice];
    for (const spec of arr(Array.isArray(offer.priceSpecification) ? offer.priceSpecification : [offer.priceSpecification]).filter(isObj)) {
      const p = parsePrice(spec.price);
      if (p === undefined) continue;
      if (LIST_PRICE.test(str(spec.priceType) ?? "")) out.original = p;
      else amounts.push(spec.price);
      out.currency ??= currencyCode(spec.priceCurrency);
    }
    for (const a of amounts) {
      if (a === undefined || a === null || a === "") continue;
      const p = parsePrice(a);
      if (p === undefined) continue;
      if (p === 0) {
        warn("json-ld: price 0 ignored");
        continue;
      }
      out.prices.push(p);
    }
    const availability = str(offer.availability) ?? "";
    if (/OutOfStock|SoldOut|Discontinued/i.test(availability)) out.soldOut = true;
    else if (availability) out.available = true;
    const level = obj(offer.inventoryLevel);
    const stock = stockOf(level?.value ?? offer.inventoryLevel);
    if (stock !== undefined) out.stock = (out.stock ?? 0) + stock;
    const seller = obj(offer.seller);
    if (seller && !out.sellerName) {
      out.sellerName = str(seller.name);
      out.sellerUrl = str(seller.url);
    }
    if (offer.offers) readOffers(offer.offers, warn, out, depth + 1);
  }
  // "out of stock" is a count we know; "in stock" is not.
  if (depth === 0 && out.stock === undefined && out.soldOut && !out.available) out.stock = 0;
  return out;
}

function weightOf(v: unknown): number | undefined {
  if (isObj(v)) return toGrams(v.value, str(v.unitCode) ?? str(v.unitText) ?? "g");
  if (typeof v === "string") return parseWeightText(v);
  return undefined;
}
function lengthOf(v: unknown): number | undefined {
  if (isObj(v)) return toCm(v.value, str(v.unitCode) ?? str(v.unitText) ?? "cm");
  return undefined;
}

function description(v: unknown): string | undefined {
  const s = text(v);
  if (!s) return undefined;
  return /<[a-z][^>]*>/i.test(s) ? sanitizeHtml(s) || undefined : textToHtml(s);
}

const SINGLE_ATTRIBUTES = ["color", "size", "material", "pattern"];

/** Product fields of one Product (or ProductGroup) node, without its variants. */
function productFields(node: Obj, ctx: SourceContext): PartialProduct {
  const p: PartialProduct = {};
  const name = text(node.name);
  if (name) {
    p.titleLanguage = titleLanguage(name, str(node.inLanguage) ?? ctx.lang);
    p.title = { [p.titleLanguage]: name };
  }
  const itemId = idOf(node.productGroupID) ?? idOf(node.sku) ?? idOf(node.productID) ?? idOf(node.mpn);
  if (itemId) p.itemId = itemId;
  const brand = text(node.brand) ?? text(node.manufacturer);
  if (brand) p.brand = brand;
  const images = imageList(arr(Array.isArray(node.image) ? node.image : [node.image]), ctx.url);
  if (images.length) p.images = images;
  const video = obj(Array.isArray(node.video) ? node.video[0] : node.video);
  const videoUrl = absUrl(video?.contentUrl ?? video?.embedUrl, ctx.url);
  if (videoUrl) p.video = videoUrl;
  const desc = description(node.description);
  if (desc) p.descriptionHtml = desc;

  const offers = readOffers(node.offers, ctx.warn);
  if (offers.prices.length) {
    const min = Math.min(...offers.prices);
    const max = Math.max(...offers.prices);
    p.price = min;
    if (max > min) p.priceRange = { min, max };
    if (offers.original !== undefined && offers.original > min) p.originalPrice = offers.original;
  }
  if (offers.currency) p.currency = offers.currency;
  if (offers.stock !== undefined) p.stock = offers.stock;
  if (offers.sellerName)
    p.shop = { name: offers.sellerName, ...(absUrl(offers.sellerUrl, ctx.url) ? { url: absUrl(offers.sellerUrl, ctx.url) } : {}) };

  const attributes: { name: string; value: string }[] = [];
  for (const prop of arr(node.additionalProperty).filter(isObj)) {
    const n = text(prop.name);
    const v = text(prop.value);
    if (n && v) attributes.push({ name: n, value: v });
  }
  if (!node.hasVariant) {
    for (const key of SINGLE_ATTRIBUTES) {
      const v = text(node[key]);
      if (v) attributes.push({ name: optionLabel(key), value: v });
    }
  }
  if (attributes.length) p.attributes = attributes;

  const weightG = weightOf(node.weight);
  if (weightG) p.weightG = weightG;
  const [l, w, h] = [lengthOf(node.depth), lengthOf(node.width), lengthOf(node.height)];
  if (l && w && h) p.dims = { lengthCm: l, widthCm: w, heightCm: h };
  return p;
}

/** A ProductGroup (or a Product with hasVariant): options from variesBy, variants from hasVariant. */
function groupVariants(group: Obj, p: PartialProduct, ctx: SourceContext, resolve: (v: unknown) => Obj | undefined): void {
  const members = arr(group.hasVariant)
    .map(resolve)
    .filter((v): v is Obj => !!v);
  if (!members.length) return;
  let props = arr(group.variesBy)
    .map((v) => (typeof v === "string" ? propertyName(v) : undefined))
    .filter((v): v is string => !!v);
  if (!props.length)
    props = ["color", "size", "material", "pattern", "suggestedAge", "suggestedGender"].filter((k) => members.some((m) => text(m[k])));

  const values = props.map(() => [] as { id: string; name: string; image?: string }[]);
  const variants: ProductVariant[] = [];
  const currencies: string[] = [];
  members.forEach((m, index) => {
    const names = props.map((prop) => text(m[prop]) ?? additionalValue(m, prop));
    if (names.some((n) => !n)) {
      ctx.warn(`json-ld: variant ${index + 1} has no value for ${props.filter((_, i) => !names[i]).join(", ")}; skipped`);
      return;
    }
    const image = imageList(arr(Array.isArray(m.image) ? m.image : [m.image]), ctx.url)[0];
    names.forEach((n, i) => {
      // The picture follows the colour (or pattern), not the size.
      const pictured = image && /^(color|colour|pattern)$/i.test(props[i]);
      if (!values[i].some((v) => v.id === n)) values[i].push({ id: n!, name: n!, ...(pictured ? { image } : {}) });
    });
    const offers = readOffers(m.offers, ctx.warn);
    if (offers.currency) currencies.push(offers.currency);
    const sku = idOf(m.sku) ?? idOf(m.productID) ?? str(m["@id"]) ?? `${p.itemId ?? "variant"}-${index + 1}`;
    const v: ProductVariant = { sku, optionValues: names as string[] };
    if (offers.prices.length) v.price = Math.min(...offers.prices);
    if (offers.original !== undefined && v.price !== undefined && offers.original > v.price) v.originalPrice = offers.original;
    if (offers.stock !== undefined) v.stock = offers.stock;
    if (image) v.image = image;
    const wg = weightOf(m.weight);
    if (wg) v.weightG = wg;
    variants.push(v);
  });
  if (!variants.length) return;
  p.options = props.map((prop, i) => ({ name: optionLabel(prop), values: values[i] })).filter((o) => o.values.length);
  p.variants = variants;
  p.currency ??= currencies[0];
  if (!p.images?.length) {
    const imgs = uniq(variants.map((v) => v.image).filter((u): u is string => !!u));
    if (imgs.length) p.images = imgs;
  }
  const prices = variants.map((v) => v.price).filter((x): x is number => x !== undefined);
  if (prices.length) {
    const min = round2(Math.min(...prices));
    const max = round2(Math.max(...prices));
    p.price = min;
    if (max > min) p.priceRange = { min, max };
    else delete p.priceRange;
  }
}

function additionalValue(m: Obj, prop: string): string | undefined {
  for (const ap of arr(m.additionalProperty).filter(isObj)) if (text(ap.name)?.toLowerCase() === prop.toLowerCase()) return text(ap.value);
  return undefined;
}

/**
 * The product of a set of schema.org nodes: the ProductGroup when there is one, else the first Product that is not a
 * variant of another. Undefined when the nodes hold no product.
 */
export function mapSchemaOrg(nodes: Obj[], ctx: SourceContext, resolve: (v: unknown) => Obj | undefined = obj): PartialProduct | undefined {
  const group = nodes.find((n) => isType(n, "ProductGroup")) ?? nodes.find((n) => isType(n, "Product") && n.hasVariant);
  const product = group ?? nodes.find((n) => isType(n, "Product") && !n.isVariantOf) ?? nodes.find((n) => isType(n, "Product"));
  if (!product) return undefined;
  const p = productFields(product, ctx);
  if (group) groupVariants(group, p, ctx, resolve);
  // One weight for every variant is the product's weight.
  const weights = uniq((p.variants ?? []).map((v) => v.weightG));
  if (!p.weightG && p.variants?.length && weights.length === 1 && weights[0]) p.weightG = weights[0];
  p.shop ??= organizationShop(nodes, ctx);
  return p;
}

const SHOP_TYPES = ["OnlineStore", "OnlineBusiness", "Store", "Organization", "LocalBusiness", "Corporation"];

/** The shop of the page's own Organization (or store) node, when the offer names no seller. */
function organizationShop(nodes: Obj[], ctx: SourceContext): PartialProduct["shop"] {
  const org = nodes.find((n) => SHOP_TYPES.some((t) => isType(n, t)) && text(n.name));
  if (!org) return undefined;
  const url = absUrl(org.url, ctx.url);
  return { name: text(org.name)!, ...(url ? { url } : {}) };
}
