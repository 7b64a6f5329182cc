// The extractor's entry point: pick the site adapter by URL, run it, run the generic sources, merge field by field,
// normalize, validate. Runs unchanged in the extension and on the server (no DOM, no Node APIs).
import { markupWithoutStyles } from "./adapters/common.ts";
import { adapters as defaultAdapters } from "./adapters/index.ts";
import { fromHeuristics } from "./generic/heuristic.ts";
import { fromJsonLd } from "./generic/json-ld.ts";
import { fromMicrodata } from "./generic/microdata.ts";
import { fromOpenGraph } from "./generic/opengraph.ts";
import type { SourceContext } from "./generic/schema-org.ts";
import { htmlLang } from "./html.ts";
import { deriveFromVariants, isPresent, mergeSources, type SourceOutput } from "./merge.ts";
import {
  expectedFields,
  extractedProduct,
  incompleteWarning,
  type BlockKind,
  type ExtractResult,
  type ExtractedProduct,
  type IncompleteField,
  type PartialProduct,
  type Platform,
} from "./product.ts";
import type { Adapter, Snapshot } from "./snapshot.ts";
import { absUrl, round2, uniq } from "./values.ts";

export interface ExtractOptions {
  /** Adapters to choose from (tests); the built-in list by default. */
  adapters?: readonly Adapter[];
}

function parseUrl(url: string): URL | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u : undefined;
  } catch {
    return undefined;
  }
}

/** The adapter for a URL: the one that recognises it as a product page, else the one whose platform hosts it. */
export function pickAdapter(
  url: string,
  list: readonly Adapter[] = defaultAdapters,
): { adapter: Adapter; itemId: string | null } | undefined {
  const u = parseUrl(url);
  if (!u) return undefined;
  for (const adapter of list) {
    const itemId = adapter.match(u);
    if (itemId) return { adapter, itemId };
  }
  const host = u.hostname.toLowerCase();
  const byHost = list.find((a) => a.hosts.test(host));
  return byHost ? { adapter: byHost, itemId: null } : undefined;
}

/** The platform of a URL (the server's default when a collect request omits platformType); "generic" when unknown. */
export function detectPlatform(url: string, list: readonly Adapter[] = defaultAdapters): Platform {
  return pickAdapter(url, list)?.adapter.platform ?? "generic";
}

// Markers of challenge pages on sites no adapter knows (Cloudflare, reCAPTCHA, hCaptcha) and of login forms.
const GENERIC_CAPTCHA =
  /id=["']challenge-form|cf-chl-|\/cdn-cgi\/challenge-platform|class=["'][^"']*\b(?:g-recaptcha|h-captcha)\b|\/errors\/validateCaptcha/i;
const GENERIC_LOGIN = /<input\b[^>]*\btype=["']?password\b/i;

const BRAND_ATTRIBUTE = /^(品牌|brand|brand name|marca|nombre de la marca|marque|marke)$/i;
const NOT_A_BRAND = /^(其他|其它|other|others|none|no brand|unbranded|generic|无|无品牌|n\/a)(\/.*)?$/i;

/** FNV-1a of the address without query and fragment: a stable item id for pages that name none. */
function urlHash(u: URL): string {
  const s = `${u.hostname.toLowerCase()}${u.pathname}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `u${h.toString(16).padStart(8, "0")}`;
}

function result(
  status: ExtractResult["status"],
  platform: Platform,
  warnings: string[],
  extra: Partial<ExtractResult> = {},
): ExtractResult {
  const out: ExtractResult = {
    status,
    platform,
    ...extra,
    sources: extra.sources ?? {},
    missingFields: extra.missingFields ?? [],
    warnings: uniq(warnings),
  };
  for (const k of Object.keys(out) as (keyof ExtractResult)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/** Prices rounded, images absolute and unique, empty and pointless fields dropped. */
function normalize(p: PartialProduct, baseUrl: string): PartialProduct {
  const out: PartialProduct = { ...p };
  const url = (v: string | undefined) => (v === undefined ? undefined : absUrl(v, baseUrl));
  out.images = uniq((p.images ?? []).map((u) => url(u)).filter((u): u is string => !!u));
  if (p.video !== undefined) out.video = url(p.video);
  if (p.descriptionUrl !== undefined) out.descriptionUrl = url(p.descriptionUrl);
  if (p.price !== undefined) out.price = round2(p.price);
  if (p.originalPrice !== undefined) out.originalPrice = round2(p.originalPrice);
  if (out.originalPrice !== undefined && (out.price === undefined || out.originalPrice <= out.price)) delete out.originalPrice;
  if (p.priceRange) {
    const r = { min: round2(p.priceRange.min), max: round2(p.priceRange.max) };
    if (r.min < r.max) out.priceRange = r;
    else delete out.priceRange;
  }
  out.attributes = (p.attributes ?? [])
    .filter((a) => a.name.trim() && a.value.trim())
    .map((a) => ({ name: a.name.trim(), value: a.value.trim() }));
  out.options = (p.options ?? []).map((o) => ({
    ...o,
    values: o.values.map((v) => {
      const image = url(v.image);
      const { image: _drop, ...rest } = v;
      return image ? { ...rest, image } : rest;
    }),
  }));
  out.variants = (p.variants ?? []).map((v) => {
    const n = { ...v };
    if (v.price !== undefined) n.price = round2(v.price);
    if (v.originalPrice !== undefined) n.originalPrice = round2(v.originalPrice);
    if (n.originalPrice !== undefined && (n.price === undefined || n.originalPrice <= n.price)) delete n.originalPrice;
    const image = url(v.image);
    if (image) n.image = image;
    else delete n.image;
    return n;
  });
  if (p.shop) {
    const shop = { ...p.shop };
    const shopUrl = url(shop.url);
    if (shopUrl) shop.url = shopUrl;
    else delete shop.url;
    out.shop = isPresent(shop) ? shop : undefined;
  }
  for (const k of Object.keys(out) as (keyof PartialProduct)[]) if (out[k] === undefined) delete out[k];
  return out;
}

const REQUIRED = new Set(["platform", "itemId", "sourceUrl", "title", "titleLanguage"]);
const LISTS = new Set(["images", "attributes"]);

/** Validates; a field that fails is dropped (lists are filtered, options and variants go together) with a warning. */
function validate(p: PartialProduct, warnings: string[]): ExtractedProduct | undefined {
  let candidate: PartialProduct = p;
  for (let round = 0; round < 4; round++) {
    const parsed = extractedProduct.safeParse(candidate);
    if (parsed.success) return parsed.data;
    const next: Record<string, unknown> = { ...candidate };
    const dropped = new Map<string, Set<number>>();
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      const where = issue.path.join(".");
      if (REQUIRED.has(field) || !field) {
        warnings.push(`invalid ${where || "product"}: ${issue.message}`);
        return undefined;
      }
      warnings.push(`dropped ${where}: ${issue.message}`);
      if (LISTS.has(field) && typeof issue.path[1] === "number") {
        dropped.set(field, (dropped.get(field) ?? new Set()).add(issue.path[1]));
      } else if (field === "options" || field === "variants") {
        next.options = [];
        next.variants = [];
      } else delete next[field];
    }
    for (const [field, indexes] of dropped) next[field] = (next[field] as unknown[]).filter((_, i) => !indexes.has(i));
    candidate = next as PartialProduct;
  }
  return undefined;
}

// Signs that a page has variants or a price: its data names a non-empty sku model or sku property list (also inside
// JSON text, where quotes are escaped), or it has a price element or price data.
// Taobao's sku2info always holds "0" (the item itself): only another key is a variant.
const VARIANT_SIGNS =
  /\\?["']?\b(?:skuProps|skuInfoMap|productSKUPropertyList|skuPropertyList|skuProperties)\\?["']?\s*:\s*[[{]\s*(?![\]}\s])|\bsku2info\\?["']?\s*:\s*\{\s*\\?["'](?!0\\?["'])/;
const PRICE_SIGNS =
  /\bitemprop=["']?price\b|(?:product|og):price:amount|\\?["']\b(?:priceModel|priceDisplay|skuPriceScale|currentPrices|skuPriceList|skuRangePrices|priceText|salePrice|groupPrice|skuAmount)\\?["']\s*:|\b(?:class|id)=["'][^"']*\bprice\b[^"']*["'][^>]*>\s*(?:<[^>]+>\s*)*[¥￥$€£]?\s*\d/i;

/** Page text to look for signs in: the HTML, the copied globals and the intercepted answers. */
function pageTexts(snapshot: Snapshot): string[] {
  const texts = [snapshot.html ?? "", ...(snapshot.intercepted ?? []).map((r) => r.body)];
  if (snapshot.globals) {
    try {
      texts.push(JSON.stringify(snapshot.globals));
    } catch {
      // a global that does not serialize shows no signs
    }
  }
  return texts;
}

/** What the page showed signs of but the product lacks: a price, variants. */
function incompleteOf(p: ExtractedProduct, snapshot: Snapshot): IncompleteField[] {
  const noPrice = p.price === undefined && !p.priceRange && !p.variants.some((v) => v.price !== undefined);
  const noVariants = !p.variants.length;
  if (!noPrice && !noVariants) return [];
  const texts = pageTexts(snapshot);
  const shows = (re: RegExp) => texts.some((t) => re.test(t));
  const out: IncompleteField[] = [];
  if (noPrice && shows(PRICE_SIGNS)) out.push("price");
  if (noVariants && shows(VARIANT_SIGNS)) out.push("variants");
  return out;
}

function missingOf(p: ExtractedProduct): string[] {
  return expectedFields.filter((f) => {
    if (f === "description") return !p.descriptionHtml && !p.descriptionUrl;
    return !isPresent(p[f]);
  });
}

/** Extracts the product of one page snapshot. Never throws for page content; the result says what happened. */
export function extract(snapshot: Snapshot, options: ExtractOptions = {}): ExtractResult {
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  const u = parseUrl(snapshot.url);
  if (!u) return result("not-product", "generic", ["snapshot url is not an http(s) URL"]);
  const picked = pickAdapter(snapshot.url, options.adapters ?? defaultAdapters);
  const adapter = picked?.adapter;
  const platform: Platform = adapter?.platform ?? "generic";
  const html = snapshot.html ?? "";
  const outputs: SourceOutput[] = [];
  let productFound = false;
  let shape: string | undefined;

  if (adapter) {
    let located: ReturnType<Adapter["locate"]> = null;
    try {
      located = adapter.locate(snapshot);
    } catch (e) {
      warn(`${adapter.id}: page data unreadable (${(e as Error).message})`);
    }
    if (located) {
      shape = located.shape;
      try {
        const mapped = adapter.map(located, snapshot, (m) => warn(`${adapter.id}: ${m}`));
        outputs.push({ source: adapter.id, product: deriveFromVariants(mapped) });
        productFound = true;
      } catch (e) {
        warn(`${adapter.id}: mapping failed (${(e as Error).message})`);
      }
    } else {
      let block: BlockKind | null = null;
      try {
        block = adapter.detectBlock(snapshot);
      } catch (e) {
        warn(`${adapter.id}: block detection failed (${(e as Error).message})`);
      }
      if (block) return result("blocked", platform, warnings, { block, adapter: adapter.id });
      if (picked.itemId) warn(`${adapter.id}: no product data found in the page (page shape changed?)`);
    }
  }

  if (html) {
    const ctx: SourceContext = { url: snapshot.url, html, lang: htmlLang(html), warn };
    const run = <T>(name: string, fn: () => T): T | undefined => {
      try {
        return fn();
      } catch (e) {
        warn(`${name}: failed (${(e as Error).message})`);
        return undefined;
      }
    };
    const ld = run("json-ld", () => fromJsonLd(ctx));
    if (ld) {
      outputs.push({ source: "json-ld", product: deriveFromVariants(ld) });
      productFound = true;
    }
    const md = run("microdata", () => fromMicrodata(ctx));
    if (md) {
      outputs.push({ source: "microdata", product: deriveFromVariants(md) });
      productFound = true;
    }
    const og = run("opengraph", () => fromOpenGraph(ctx));
    if (og) {
      outputs.push({ source: "opengraph", product: og.product });
      productFound ||= og.isProduct;
    }
    const h = run("heuristic", () => fromHeuristics(ctx));
    if (h) outputs.push({ source: "heuristic", product: h });
  }

  const base = { adapter: adapter?.id, ...(shape ? { shape } : {}) };
  if (!productFound) {
    // judged from the markup without stylesheets: a challenge's CSS shipped with every page blocks nothing
    const markup = markupWithoutStyles(html);
    const block: BlockKind | null = GENERIC_CAPTCHA.test(markup) ? "captcha" : GENERIC_LOGIN.test(markup) ? "login" : null;
    if (block) return result("blocked", platform, warnings, { block, ...base });
    return result("not-product", platform, warnings, base);
  }

  const { product: merged, sources } = mergeSources(outputs);
  if (picked?.itemId) {
    merged.itemId = picked.itemId;
    sources.itemId = "url";
  } else if (!merged.itemId) {
    merged.itemId = urlHash(u);
    sources.itemId = "url";
  } else if (platform === "generic") {
    // A page's own id (sku, group id) is only unique within its site: two shops may both sell "AUR-100".
    merged.itemId = `${u.hostname.toLowerCase().replace(/^www\./, "")}:${merged.itemId}`;
  }
  // A brand the attributes name ("品牌", "Brand Name") when no source gave one; "other"/"none" are not brands.
  if (!merged.brand) {
    const named = merged.attributes?.find((a) => BRAND_ATTRIBUTE.test(a.name.trim()) && !NOT_A_BRAND.test(a.value.trim()));
    if (named) {
      merged.brand = named.value.trim();
      sources.brand = sources.attributes;
    }
  }
  merged.platform = platform;
  // The fragment never names a different item.
  merged.sourceUrl = u.href.replace(/#.*$/, "");
  const normalized = normalize(merged, u.href);
  if (!normalized.title) {
    warn("no title found");
    return result("not-product", platform, warnings, base);
  }
  const product = validate(normalized, warnings);
  if (!product) return result("not-product", platform, warnings, base);
  for (const f of Object.keys(sources) as (keyof typeof sources)[]) if (!isPresent(product[f])) delete sources[f];
  const found = { ...base, product, sources, missingFields: missingOf(product) };
  const incomplete = incompleteOf(product, snapshot);
  if (!incomplete.length) return result("ok", platform, warnings, found);
  return result("partial", platform, [...warnings, incompleteWarning(incomplete)], { ...found, incompleteFields: incomplete });
}
