// OpenGraph and its product extension: og:title/og:image/og:video, product:price:amount (and the og:price:amount
// some shops write), product:sale_price, product:retailer_item_id, product:brand.
import { metaTags } from "../html.ts";
import type { PartialProduct } from "../product.ts";
import { absUrl, currencyCode, idOf, parsePrice, str, textToHtml, titleLanguage, uniq } from "../values.ts";
import type { SourceContext } from "./schema-org.ts";

export interface OpenGraph {
  isProduct: boolean;
  product: PartialProduct;
}

export function fromOpenGraph(ctx: SourceContext): OpenGraph | undefined {
  const props = new Map<string, string[]>();
  for (const m of metaTags(ctx.html)) {
    const key = (m.property ?? m.name ?? "").toLowerCase();
    if (!/^(?:og|product):/.test(key) || m.content === undefined) continue;
    const list = props.get(key) ?? [];
    list.push(m.content.trim());
    props.set(key, list);
  }
  if (!props.size) return undefined;
  const one = (...keys: string[]) => keys.map((k) => props.get(k)?.find(Boolean)).find(Boolean);
  const p: PartialProduct = {};
  const title = one("og:title");
  if (title) {
    p.titleLanguage = titleLanguage(title, ctx.lang);
    p.title = { [p.titleLanguage]: title };
  }
  const images = uniq(
    ["og:image", "og:image:url", "og:image:secure_url"]
      .flatMap((k) => props.get(k) ?? [])
      .map((u) => absUrl(u, ctx.url))
      .filter((u): u is string => !!u),
  );
  if (images.length) p.images = images;
  const video = absUrl(one("og:video:secure_url", "og:video:url", "og:video"), ctx.url);
  if (video) p.video = video;
  const description = one("og:description");
  const html = description ? textToHtml(description) : undefined;
  if (html) p.descriptionHtml = html;

  const listed = parsePrice(one("product:price:amount", "og:price:amount"));
  const sale = parsePrice(one("product:sale_price:amount", "og:sale_price:amount"));
  const original = parsePrice(one("product:original_price:amount", "og:original_price:amount"));
  const price = sale || listed;
  if (price) p.price = price;
  else if (listed === 0 || sale === 0) ctx.warn("opengraph: price 0 ignored");
  const before = sale ? listed : original;
  if (price && before && before > price) p.originalPrice = before;
  const currency = currencyCode(one("product:price:currency", "og:price:currency", "product:sale_price:currency"));
  if (currency) p.currency = currency;
  const itemId = idOf(one("product:retailer_item_id", "product:sku"));
  if (itemId) p.itemId = itemId;
  const brand = str(one("product:brand", "og:brand"));
  if (brand) p.brand = brand;

  const type = (one("og:type") ?? "").toLowerCase();
  return { isProduct: /(^|[.:])product\b/.test(type) || price !== undefined, product: p };
}
