// Shein (…shein.com/…-p-{goodsId}(-cat-{catId}).html). The product page carries a schema.org ProductGroup in
// `<script id="goodsDetailSchema" type="application/ld+json">` (variants by size, each with an Offer) whose prices are
// often "0.00": the real price is only in the DOM (.product-intro__head-mainprice, the struck-out one in .del-price).
// Attributes are the description table (.product-intro__description-table-item: .key / .val).
// Older pages ("gb-raw-data") keep everything in `var gbRawData = {productIntroData: {detail, goods_imgs,
// attrSizeList}}`: prices as {amount, amountWithSymbol}, sizes as sku_list[].sku_sale_attr.
import { elementByClass, elementText, findTagsWithAttr, htmlLang, innerHtml } from "../html.ts";
import { jsonLdNodes } from "../generic/json-ld.ts";
import { isType, mapSchemaOrg } from "../generic/schema-org.ts";
import type { Adapter, Located, Snapshot, Warn } from "../snapshot.ts";
import type { PartialProduct, ProductOption, ProductVariant } from "../product.ts";
import { at, currencyCode, currencyOf, idOf, imageList, obj, objs, parsePrice, stockOf, str, type Obj } from "../values.ts";
import { challengeInControl, compact, pageLanguage, pageVariable, titleFields } from "./common.ts";

interface Raw {
  nodes?: Obj[];
  intro?: Obj;
}

function domPrices(html: string): { price?: number; originalPrice?: number; currency?: string } {
  const box = elementByClass(html, "product-intro__head-mainprice") ?? elementByClass(html, "product-intro__head-price");
  if (!box) return {};
  const inner = innerHtml(html, box);
  const del = elementByClass(inner, "del-price");
  const delText = del ? elementText(inner, del) : undefined;
  const main = elementByClass(inner, "from") ?? elementByClass(inner, "original");
  const mainText = main ? elementText(inner, main) : undefined;
  return compact({ price: parsePrice(mainText), originalPrice: parsePrice(delText), currency: currencyOf(mainText) }) as ReturnType<
    typeof domPrices
  >;
}

function descriptionTable(html: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const row of findTagsWithAttr(html, "class", "product-intro__description-table-item")) {
    const inner = innerHtml(html, row);
    const key = elementByClass(inner, "key");
    const val = elementByClass(inner, "val");
    const name = key ? elementText(inner, key).replace(/\s*[:：]\s*$/, "") : "";
    const value = val ? elementText(inner, val) : "";
    if (name && value) out.push({ name, value });
  }
  return out;
}

function mapRawData(intro: Obj, snapshot: Snapshot, warn: Warn): PartialProduct {
  const detail = obj(intro.detail) ?? {};
  const goodsId = idOf(detail.goods_id);
  const imgs = obj(intro.goods_imgs) ?? {};
  const images = imageList([at(imgs, "main_image.origin_image"), ...objs(imgs.detail_image).map((i) => i.origin_image)]);
  const options: ProductOption[] = [];
  const variants: ProductVariant[] = [];
  const skuList = objs(at(intro, `attrSizeList.sale_attr_list.${goodsId}.sku_list`));
  for (const sku of skuList) {
    const id = str(sku.sku_code);
    if (!id) continue;
    const values: string[] = [];
    for (const attr of objs(sku.sku_sale_attr)) {
      const name = str(attr.attr_name);
      const value = str(attr.attr_value_name);
      if (!name || !value) continue;
      const valueId = idOf(attr.attr_value_id) ?? value;
      let option = options.find((o) => o.name === name);
      if (!option) options.push((option = { name, values: [] }));
      if (!option.values.some((v) => v.id === valueId)) option.values.push({ id: valueId, name: value });
      values[options.indexOf(option)] = valueId;
    }
    if (values.length !== options.length || values.includes(undefined as unknown as string)) {
      warn(`sku ${id} lacks a sale attribute; skipped`);
      continue;
    }
    const sale = parsePrice(at(sku, "price.salePrice.amount"));
    const retail = parsePrice(at(sku, "price.retailPrice.amount"));
    variants.push(
      compact({
        sku: id,
        optionValues: values,
        price: sale || retail,
        originalPrice: sale && retail && retail > sale ? retail : undefined,
        stock: stockOf(sku.stock),
      }),
    );
  }
  const sale = parsePrice(at(detail, "salePrice.amount"));
  const retail = parsePrice(at(detail, "retailPrice.amount"));
  const symbol = str(at(detail, "salePrice.amountWithSymbol"));
  return compact({
    ...titleFields(str(detail.goods_name), "en", pageLanguage(snapshot)),
    currency: currencyCode(intro.currency) ?? currencyOf(symbol),
    price: variants.length ? undefined : sale || retail,
    originalPrice: !variants.length && sale && retail && retail > sale ? retail : undefined,
    images,
    attributes: objs(detail.productDetails).flatMap((a) =>
      str(a.attr_name) && str(a.attr_value) ? [{ name: str(a.attr_name)!, value: str(a.attr_value)! }] : [],
    ),
    ...(variants.length ? { options, variants } : {}),
  });
}

function map(raw: Raw, snapshot: Snapshot, warn: Warn): PartialProduct {
  if (raw.intro) return mapRawData(raw.intro, snapshot, warn);
  const html = snapshot.html ?? "";
  let zeroPrices = false;
  const product =
    mapSchemaOrg(raw.nodes ?? [], {
      url: snapshot.url,
      html,
      lang: htmlLang(html),
      warn: (m) => (/price 0/.test(m) ? (zeroPrices = true) : warn(m)),
    }) ?? {};
  const dom = domPrices(html);
  if (dom.price) {
    if (zeroPrices || product.price === undefined) {
      warn("JSON-LD prices are 0; the price shown on the page was used");
      product.variants = product.variants?.map((v) =>
        v.price ? v : (compact({ ...v, price: dom.price, originalPrice: dom.originalPrice }) as typeof v),
      );
      product.price = dom.price;
      if (dom.originalPrice) product.originalPrice = dom.originalPrice;
      delete product.priceRange;
    }
    product.currency ??= dom.currency;
  } else if (zeroPrices) warn("JSON-LD prices are 0 and the page shows no price");
  const attributes = descriptionTable(html);
  if (attributes.length) product.attributes = attributes;
  delete product.itemId; // the URL's goods id names the item; productGroupID is the style code
  return product;
}

/** The extension copies gbRawData.productIntroData only (the whole object carries session data). */
function readGlobalIntro(snapshot: Snapshot): unknown {
  const g = snapshot.globals?.["gbRawData.productIntroData"];
  return obj(g)?.detail ? g : undefined;
}

export const shein: Adapter<Raw> = {
  id: "shein",
  platform: "shein",
  hosts: /(^|\.)shein\.(com|co\.uk|com\.mx|com\.br|[a-z]{2})$/,
  globals: ["gbRawData.productIntroData"],
  match(url) {
    if (!/(^|\.)shein\.(com|co\.uk|com\.mx|com\.br|[a-z]{2})$/.test(url.hostname)) return null;
    return /-p-(\d+)(?:-cat-\d+)?\.html$/.exec(url.pathname)?.[1] ?? null;
  },
  detectBlock(s) {
    const html = s.html ?? "";
    // What blocks, not a word: SHEIN's ordinary stylesheets carry the GeeTest widget's classes.
    if (/\/risk\/challenge/i.test(new URL(s.url).pathname) || challengeInControl(html)) return "captcha";
    if (/\/user\/auth\/login/.test(new URL(s.url).pathname)) return "login";
    return null;
  },
  locate(snapshot): Located<Raw> | null {
    const nodes = jsonLdNodes(snapshot.html ?? "");
    if (nodes.some((n) => isType(n, "ProductGroup") || isType(n, "Product"))) return { shape: "ld-schema", data: { nodes } };
    const intro = obj(obj(pageVariable(snapshot, "gbRawData", "gbRawData.productIntroData"))?.productIntroData);
    const data = intro ?? obj(readGlobalIntro(snapshot));
    return data && obj(data.detail) ? { shape: "gb-raw-data", data: { intro: data } } : null;
  },
  map: (located, snapshot, warn) => map(located.data, snapshot, warn),
};
