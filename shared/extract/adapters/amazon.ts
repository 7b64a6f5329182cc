// Amazon (/dp/{ASIN}, /gp/product/{ASIN}). The page is server-rendered: #productTitle, the buy-box price
// (.priceToPay .a-offscreen, struck-out list price under [data-a-strike]), images in the ImageBlockATF script
// ('colorImages': {'initial': [{hiRes, large}]}), variations in the twister script (dimensionsDisplay,
// dimensionValuesDisplayData: ASIN → values), bullets in #feature-bullets, details tables (weight, dimensions): the
// productDetails tables, #tech and the .pdTab tables. The EU sites (.de/.fr/.it/.es) word the byline, the seller line
// and the row names in their language and write units their way ("5,6 Kilogramm", "150 x 150 x 320 mm").
// Only the selected variation's price is in the page. Kindle books price the e-book in #kindle-price; a page without a
// new offer shows only the used offer's price; the brand may be a plain link; the image block lists the videos.
import { elementById, elementByClass, elementText, escapeHtml, findTagsWithAttr, innerHtml, tagsNamed, type Tag } from "../html.ts";
import type { PartialProduct, ProductOption, ProductVariant } from "../product.ts";
import { findKeyedValue } from "../script-data.ts";
import type { Adapter, Located, Snapshot, Warn } from "../snapshot.ts";
import { absUrl, arr, currencyOf, obj, objs, parseDimsText, parsePrice, parseWeightText, str, stockOf, uniq, type Obj } from "../values.ts";
import { compact, markupWithoutStyles, pageLanguage, titleFields } from "./common.ts";

const TLD_CURRENCY: [RegExp, string][] = [
  [/\.com$/, "USD"],
  [/\.com\.mx$/, "MXN"],
  [/\.com\.br$/, "BRL"],
  [/\.ca$/, "CAD"],
  [/\.co\.uk$/, "GBP"],
  [/\.(de|fr|it|es|nl|ie|be)$/, "EUR"],
  [/\.co\.jp$/, "JPY"],
  [/\.com\.au$/, "AUD"],
  [/\.in$/, "INR"],
  [/\.sg$/, "SGD"],
  [/\.ae$/, "AED"],
];

const ASIN_IN_PATH = /\/(?:dp|gp\/product|gp\/aw\/d|exec\/obidos\/ASIN)\/([A-Z0-9]{10})(?:[/?]|$)/;

function textIn(html: string, container: Tag | null, className: string): string | undefined {
  if (!container) return undefined;
  const inner = innerHtml(html, container);
  const t = elementByClass(inner, className);
  return t ? elementText(inner, t) || undefined : undefined;
}

/** A price element's text: its screen-reader copy (.a-offscreen) when it has one, else its own text. */
function priceText(html: string, id: string): string | undefined {
  const t = elementById(html, id);
  if (!t) return undefined;
  return textIn(html, t, "a-offscreen") ?? (elementText(html, t) || undefined);
}

// Where a page without a new offer shows its only price: the used offer's buy box (its accordion row or the older
// #usedBuySection / #usedPrice).
const USED_OFFER_BOXES = ["usedAccordionRow", "usedBuySection", "usedbuyBox"];

function prices(html: string, warn: Warn): { price?: number; originalPrice?: number; text?: string } {
  const box = elementByClass(html, "priceToPay") ?? elementByClass(html, "apexPriceToPay");
  const text =
    textIn(html, box, "a-offscreen") ??
    textIn(html, elementById(html, "corePrice_feature_div"), "a-offscreen") ??
    // Kindle books price the e-book in #kindle-price
    ["priceblock_dealprice", "priceblock_ourprice", "price_inside_buybox", "kindle-price"].map((id) => priceText(html, id)).find(Boolean);
  const strike = findTagsWithAttr(html, "data-a-strike", "true", 1)[0] ?? null;
  const original = textIn(html, strike, "a-offscreen") ?? textIn(html, elementByClass(html, "basisPrice"), "a-offscreen");
  if (parsePrice(text)) return { price: parsePrice(text), originalPrice: parsePrice(original), text };
  const used = USED_OFFER_BOXES.map((id) => elementById(html, id)).find(Boolean) ?? null;
  const usedText = textIn(html, used, "a-offscreen") ?? textIn(html, used, "offer-price") ?? priceText(html, "usedPrice");
  const usedPrice = parsePrice(usedText);
  if (!usedPrice) return { price: undefined, originalPrice: parsePrice(original), text };
  warn("the only offer in the page is a used one: its price is the used offer's");
  return { price: usedPrice, text: usedText };
}

/** The product video: the image block's 'videos' list (mp4 first), else an element's data-video-url. */
function video(html: string): string | undefined {
  const listed = objs(findKeyedValue(html, "videos"))
    .flatMap((v) => [absUrl(v.url), absUrl(v.videoUrl)])
    .filter((u): u is string => !!u);
  const chosen = listed.find((u) => /\.mp4(?:$|[?#])/i.test(u)) ?? listed[0];
  return chosen ?? absUrl(findTagsWithAttr(html, "data-video-url", undefined, 1)[0]?.attrs["data-video-url"]);
}

/** The brand from the byline: "Visit the X Store", "Marke: X"…, or a plain link naming the brand alone. */
function brandOf(byline: Tag | null, text: string): string | undefined {
  const t = clean(text);
  const worded = BRAND_BYLINE.map((re) => re.exec(t)?.[1]).find(Boolean);
  if (worded) return worded;
  // A plain link (<a id="bylineInfo">Lumina</a>); a book's byline is a block of authors, not a link.
  if (byline?.name === "a" && t && t.length <= 60 && !/[:：]/.test(t) && !/\b(?:store|shop)\b/i.test(t)) return t;
  return undefined;
}

function images(html: string): string[] {
  const colorImages = obj(findKeyedValue(html, "colorImages"));
  const initial = objs(colorImages?.initial)
    .map((i) => absUrl(i.hiRes) ?? absUrl(i.large))
    .filter((u): u is string => !!u);
  if (initial.length) return uniq(initial);
  const landing = elementById(html, "landingImage") ?? elementById(html, "imgBlkFront") ?? elementById(html, "ebooksImgBlkFront");
  if (!landing) return [];
  const hires = absUrl(landing.attrs["data-old-hires"]);
  if (hires) return [hires];
  const src = absUrl(landing.attrs.src);
  try {
    const dynamic = JSON.parse(landing.attrs["data-a-dynamic-image"] ?? "{}") as Record<string, unknown>;
    const first = Object.keys(dynamic)
      .map((u) => absUrl(u))
      .find((u): u is string => !!u);
    // a cover with only a src (Kindle's #ebooksImgBlkFront) is still the product's image
    return first ? [first] : src ? [src] : [];
  } catch {
    return src ? [src] : [];
  }
}

// The EU sites' wordings of the same rows and lines (amazon.de/.fr/.it/.es next to .com's English).
const WEIGHT_ROW = /^(Item Weight|Weight|Artikelgewicht|Gewicht|Poids de l'article|Poids|Peso articolo|Peso|Peso del producto)$/i;
const DIMENSIONS_ROW =
  /^(Product Dimensions|Item Dimensions|Package Dimensions|Produktabmessungen|Abmessungen|Verpackungsabmessungen|Dimensions du produit|Dimensions de l'article|Dimensions du colis|Dimensioni prodotto|Dimensioni articolo|Dimensioni del collo|Dimensiones del producto|Dimensiones del paquete)/i;
const NOT_AN_ATTRIBUTE =
  /customer reviews|best sellers rank|kundenrezensionen|bestseller-rang|commentaires client|classement des meilleures ventes|recensioni dei clienti|posizione nella classifica|opiniones de los clientes|clasificación en los más vendidos/i;
const BRAND_BYLINE = [
  /^Visit the (.+?) Store$/i,
  /^Besuchen Sie den (.+?)-Store$/i,
  /^Besuche den (.+?)-Store$/i,
  /^Visiter la boutique (.+)$/i,
  /^Visita la Store di (.+)$/i,
  /^Visita la tienda de (.+)$/i,
  /^(?:Brand|Marke|Marque|Marca)\s*:\s*(.+)$/i,
];
// The seller line in each locale: "Ships from and sold by X", "Sold by X and Fulfilled by Amazon", "Verkauf durch X
// und Versand durch Amazon", "Vendido por X y enviado por Amazon", "Vendu par X et expédié par Amazon", "Venduto da X
// e spedito da Amazon", "Vendido e entregue por X", "販売者 X", "販売元 X", "X が販売、発送します".
const SOLD_BY =
  /(?:sold by|verkauf(?: und versand)? durch|vendu par|venduto(?: e spedito)? da|vendido(?: y enviado| e entregue)? por|販売(?:元|者)\s*[:：]?)\s*(.+)$/i;
const SOLD_BY_JA = /(?:^|[、。]|この商品は、?)\s*([^、。]+?)\s*が販売/;
// What follows the name: the shipper clause ("and Fulfilled by Amazon", "und Versand durch", "y enviado por", "et
// expédié par", "e spedito da", "e entregue por"), the next row of the tabular buy box, or the sentence's end.
const AFTER_SELLER =
  /\s+(?:(?:and|und|y|et|e)\s+(?:fulfilled|ships?|shipped|versand|versendet|enviado|expédié|spedito|entregue)|returns|payment|rückgaben|zahlung|devoluciones|pago|retours|paiement|resi|pagamento|出荷元|返品|支払)[\s\S]*$|[。、]?\s*(?:が(?:販売|発送)[\s\S]*)$|\.(?:\s[\s\S]*)?$/i;

/** The seller's name alone from a seller line, in any Amazon locale. */
function sellerFromLine(line: string): string | undefined {
  const text = clean(line);
  const m = SOLD_BY.exec(text) ?? SOLD_BY_JA.exec(text);
  const name = m?.[1].replace(AFTER_SELLER, "").trim();
  return name || undefined;
}
const ONLY_LEFT = /(?:only|nur noch|plus que|s[oó]lo(?: quedan?)?)\s+(\d+)/i;

const clean = (s: string) =>
  s
    .replace(/[\u200e\u200f]/g, "")
    .replace(/\s+/g, " ")
    .trim();

/** Name and value of a table row: <th>name</th><td>value</td>, or two cells (.pdTab's td.label / td.value). */
function rowCells(row: string): { name: string; value: string } | null {
  const th = tagsNamed(row, "th").next().value;
  const tds = [...tagsNamed(row, "td")];
  const [nameTag, valueTag] = th ? [th, tds[0]] : [tds[0], tds[1]];
  const name = nameTag ? clean(elementText(row, nameTag)).replace(/\s*[:：]$/, "") : "";
  const value = valueTag ? clean(elementText(row, valueTag)) : "";
  return name && value ? { name, value } : null;
}

/**
 * Rows of the product details tables ("Item Weight", "Produktabmessungen"…): the productDetails tables, the #tech
 * section and the older .pdTab tables of the EU sites; then the detail bullets.
 */
function details(html: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  const sections = [
    ...["tech", "productDetails_techSpec_section_1", "productDetails_techSpec_section_2", "productDetails_detailBullets_sections1"].map(
      (id) => elementById(html, id),
    ),
    ...findTagsWithAttr(html, "class", "pdTab"),
  ];
  for (const section of sections) {
    if (!section) continue;
    const inner = innerHtml(html, section);
    for (const tr of tagsNamed(inner, "tr")) {
      const cells = rowCells(innerHtml(inner, tr));
      // #tech usually holds a productDetails table too: keep each row once.
      if (cells && !out.some((a) => a.name === cells.name && a.value === cells.value)) out.push(cells);
    }
  }
  // Detail bullets: <span class="a-list-item"><span class="a-text-bold">Item Weight ‏ : ‎</span> <span>8 ounces</span></span>
  const bullets = elementById(html, "detailBullets_feature_div");
  if (bullets) {
    const inner = innerHtml(html, bullets);
    for (const item of findTagsWithAttr(inner, "class", "a-list-item")) {
      const m = /^([^:：]+?)\s*[:：]\s*(.+)$/.exec(clean(elementText(inner, item)));
      if (m) out.push({ name: m[1], value: m[2] });
    }
  }
  return out.filter((a) => !NOT_AN_ATTRIBUTE.test(a.name));
}

function variations(
  html: string,
  currentAsin: string,
  current: Partial<ProductVariant>,
  warn: Warn,
): Pick<PartialProduct, "options" | "variants"> {
  const names = arr(findKeyedValue(html, "dimensionsDisplay"))
    .map(str)
    .filter((s): s is string => !!s);
  const byAsin = obj(findKeyedValue(html, "dimensionValuesDisplayData"));
  if (!names.length || !byAsin) return {};
  const options: ProductOption[] = names.map((name) => ({ name, values: [] }));
  const variants: ProductVariant[] = [];
  for (const [asin, raw] of Object.entries(byAsin)) {
    const values = arr(raw).map(str);
    if (values.length !== names.length || values.some((v) => !v)) continue;
    values.forEach((v, i) => {
      if (!options[i].values.some((x) => x.id === v)) options[i].values.push({ id: v!, name: v! });
    });
    variants.push(compact({ sku: asin, optionValues: values as string[], ...(asin === currentAsin ? current : {}) }) as ProductVariant);
  }
  const unpriced = variants.filter((v) => v.price === undefined).length;
  if (unpriced) warn(`only the selected variation's price is in the page (${unpriced} variations without price)`);
  return variants.length ? { options, variants } : {};
}

function shop(html: string): PartialProduct["shop"] {
  const seller = elementById(html, "sellerProfileTriggerId");
  if (seller) {
    const url = absUrl(seller.attrs.href, "https://www.amazon.com/");
    const id = url ? (new URL(url).searchParams.get("seller") ?? undefined) : undefined;
    return compact({ id, name: elementText(html, seller) || undefined, url }) as PartialProduct["shop"];
  }
  const merchant = elementById(html, "merchant-info") ?? elementById(html, "merchantInfoFeature_feature_div");
  const text = merchant ? elementText(html, merchant) : "";
  const name = sellerFromLine(text);
  return name ? { name } : undefined;
}

function map(_raw: Obj, snapshot: Snapshot, warn: Warn): PartialProduct {
  const html = snapshot.html ?? "";
  const u = new URL(snapshot.url);
  const title = (() => {
    const t = elementById(html, "productTitle");
    return t ? elementText(html, t) : undefined;
  })();
  const byline = elementById(html, "bylineInfo");
  const bylineText = byline ? elementText(html, byline) : "";
  const brand = brandOf(byline, bylineText);
  const p = prices(html, warn);
  const currentAsin = str(findKeyedValue(html, "currentAsin")) ?? ASIN_IN_PATH.exec(u.pathname)?.[1] ?? "";
  const bullets = (() => {
    const box = elementById(html, "feature-bullets");
    if (!box) return [];
    const inner = innerHtml(html, box);
    return findTagsWithAttr(inner, "class", "a-list-item")
      .map((t) => elementText(inner, t))
      .filter(Boolean);
  })();
  const descBox = elementById(html, "productDescription");
  const descText = descBox ? elementText(html, descBox) : "";
  const descriptionHtml = [
    bullets.length ? `<ul>${bullets.map((b) => `<li>${escapeHtml(b)}</li>`).join("")}</ul>` : "",
    descText ? `<p>${escapeHtml(descText)}</p>` : "",
  ].join("");
  const attributes = details(html);
  const find = (re: RegExp) => attributes.find((a) => re.test(a.name))?.value;
  const weightG = parseWeightText(find(WEIGHT_ROW) ?? "") ?? parseDimsText(find(DIMENSIONS_ROW) ?? "").weightG;
  const dims = parseDimsText(find(DIMENSIONS_ROW) ?? "").dims;
  const availability = elementById(html, "availability");
  const left = availability ? ONLY_LEFT.exec(elementText(html, availability))?.[1] : undefined;
  const currency = currencyOf(p.text?.replace(/^\$/, "")) ?? TLD_CURRENCY.find(([re]) => re.test(u.hostname))?.[1];
  // Price and stock shown are the selected variation's.
  const skus = variations(html, currentAsin, compact({ price: p.price, originalPrice: p.originalPrice, stock: stockOf(left) }), warn);
  return compact({
    ...titleFields(title, "en", pageLanguage(snapshot)),
    brand,
    currency,
    price: p.price,
    originalPrice: p.originalPrice,
    stock: skus.variants ? undefined : stockOf(left),
    images: images(html),
    video: video(html),
    descriptionHtml: descriptionHtml || undefined,
    attributes,
    ...skus,
    weightG,
    dims,
    shop: shop(html),
  });
}

export const amazon: Adapter<Obj> = {
  id: "amazon",
  platform: "amazon",
  hosts: /(^|\.)amazon\.(com|ca|cn|in|sg|ae|sa|nl|se|pl|de|fr|it|es|eg|com\.(mx|br|au|tr|be)|co\.(uk|jp))$/,
  globals: [],
  match(url) {
    if (!this.hosts.test(url.hostname)) return null;
    return ASIN_IN_PATH.exec(url.pathname)?.[1] ?? null;
  },
  detectBlock(s) {
    const html = markupWithoutStyles(s.html ?? "");
    if (/\/errors\/validateCaptcha|captcha-container|Enter the characters you see below/i.test(html)) return "captcha";
    if (/\/ap\/signin/.test(s.url) || /<form[^>]+name=["']signIn["']/i.test(html)) return "login";
    return null;
  },
  locate(snapshot): Located<Obj> | null {
    return elementById(snapshot.html ?? "", "productTitle") ? { shape: "dp", data: {} } : null;
  },
  map: (_located, snapshot, warn) => map({}, snapshot, warn),
};
