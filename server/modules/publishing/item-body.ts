// The item bodies sent to Mercado Libre (MERCADO-LIBRE.md "Items on a local site", "Global selling"), built from a
// listing's plan: title in the site's language, price, attributes, variations, warranty, description as plain text.
import type { SiteToSell } from "../../integrations/mercadolibre/endpoints/global-items.ts";
import { htmlText } from "../infringement/index.ts";

/** One attribute as Mercado Libre takes it. */
export type ItemAttribute = { id: string; value_id?: string; value_name?: string };

type ItemVariant = {
  combinations: ItemAttribute[];
  /** The variation's own attributes beside its SKU and GTIN (its size chart row: SIZE_GRID_ROW_ID). */
  attributes?: ItemAttribute[];
  price: number;
  stock: number;
  sku: string | null;
  gtin: string | null;
  pictures: string[];
};

/** What a listing sends, decided before the call (plan.ts): every value final. */
export type ItemPlan = {
  /** The listing's id: sent as seller_custom_field and the creation's idempotency key. */
  key: string;
  title: string;
  categoryId: string;
  price: number;
  currency: string;
  stock: number;
  listingType: string;
  pictures: string[];
  attributes: ItemAttribute[];
  variants: ItemVariant[];
  sku: string | null;
  gtin: string | null;
  warranty: { type: string | null; days: number | null };
  description: string;
  freeShipping: boolean;
};

/** Plain text for Mercado Libre's description: no HTML, no emoji, at most 50,000 characters. */
export function plainDescription(html: string): string {
  const text = htmlText(html)
    .replace(/\p{Extended_Pictographic}/gu, "")
    .replace(/[ \t]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
  return text.slice(0, 50_000);
}

function saleTerms(p: ItemPlan) {
  const terms: ItemAttribute[] = [];
  if (p.warranty.type) terms.push({ id: "WARRANTY_TYPE", value_id: p.warranty.type });
  if (p.warranty.type && p.warranty.days) terms.push({ id: "WARRANTY_TIME", value_name: `${p.warranty.days} días` });
  return terms;
}

function skuAttributes(sku: string | null, gtin: string | null): ItemAttribute[] {
  const out: ItemAttribute[] = [];
  if (sku) out.push({ id: "SELLER_SKU", value_name: sku });
  if (gtin) out.push({ id: "GTIN", value_name: gtin });
  return out;
}

/** POST /items on a local site. */
export function localItemBody(p: ItemPlan) {
  const variations = p.variants.map((v) => ({
    attribute_combinations: v.combinations,
    price: v.price,
    available_quantity: v.stock,
    picture_ids: v.pictures.length ? v.pictures : undefined,
    attributes: [...skuAttributes(v.sku, v.gtin), ...(v.attributes ?? [])],
  }));
  return {
    title: p.title,
    category_id: p.categoryId,
    price: p.price,
    currency_id: p.currency,
    // With variations, the item's quantity is their sum (Mercado Libre keeps the two in step).
    available_quantity: variations.length ? variations.reduce((n, v) => n + v.available_quantity, 0) : p.stock,
    buying_mode: "buy_it_now",
    listing_type_id: p.listingType,
    condition: "new",
    seller_custom_field: p.key,
    pictures: p.pictures.map((source) => ({ source })),
    attributes: [...p.attributes, ...(variations.length ? [] : skuAttributes(p.sku, p.gtin))],
    ...(variations.length ? { variations } : {}),
    sale_terms: saleTerms(p),
    shipping: { mode: "me2", free_shipping: p.freeShipping },
    description: { plain_text: p.description },
  };
}

/** One marketplace site of a global item: its local title and what the seller receives there (USD). */
export type GlobalSite = {
  siteCode: string;
  listingType: string;
  netProceeds: number;
  title: string;
  logisticType: "remote" | "fulfillment";
};

/**
 * One entry of sites_to_sell (Global Selling "Publish items"): since 2026-01-05 the seller names net_proceeds, what it
 * receives in USD, and Mercado Libre computes the site's public price; the listing type and the title are the site's.
 */
export function siteToSell(s: GlobalSite): SiteToSell {
  return {
    site_id: s.siteCode,
    logistic_type: s.logisticType,
    listing_type_id: s.listingType,
    net_proceeds: s.netProceeds,
    title: s.title,
  };
}

const withoutPrice = <T extends { price: number }>({ price: _price, ...rest }: T) => (void _price, rest);

/**
 * POST /global/items: the global item (English content, USD) and the sites to sell it on. Its prices are the sites'
 * net_proceeds, so the body carries no price of its own (nor the variations'), and the listing type is each site's:
 * the page's bodies leave out price, buying_mode and listing_type_id at the top.
 */
export function globalItemBody(p: ItemPlan, globalTitle: string, sites: GlobalSite[]) {
  const { shipping: _shipping, price: _price, buying_mode: _mode, listing_type_id: _type, variations, ...item } = localItemBody(p);
  void [_shipping, _price, _mode, _type];
  return {
    ...item,
    title: globalTitle,
    currency_id: "USD",
    ...(variations ? { variations: variations.map(withoutPrice) } : {}),
    sites_to_sell: sites.map(siteToSell),
  };
}
