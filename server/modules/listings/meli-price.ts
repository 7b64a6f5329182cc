// A listing's price by the publish formula (shared/publish/price.ts sitePrice) from its product and shop as they are
// now, in the listing's currency: BatchUpdateMeliPrice and PreviewMeliPrice one listing at a time, the margin drift and
// Reprice (margin-drift.ts) a page or a selection at once. What the formula reads (products, shops, rates, category
// fees) is loaded for many listings in a few statements (`loadFormula`); `priceByFormula` is the one computation.
import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../../db/client.ts";
import { currencies, meliAccounts, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { cachedFees, feeInput } from "../publishing/index.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { currencyDecimals, formatMoney, moneyNumber, sitePrice, type PriceBreakdown } from "#shared/publish/price.ts";
import type { ListingRow, Target } from "./edit-types.ts";

type ListingType = "gold_special" | "gold_pro" | "free";
type Shop = typeof meliAccounts.$inferSelect;
type CachedFees = Awaited<ReturnType<typeof cachedFees>>;

/** What the formula reads for a set of listings, loaded once. */
export type FormulaInputs = {
  products: Map<string, { price: string | null; currency: string | null }>;
  shops: Map<string, Shop>;
  rates: { code: string; rate: string }[];
  categories: Map<string, { classicFee: string | null; premiumFee: string | null }>;
  fees: Map<ListingType, CachedFees>;
};

const listingTypeOf = (l: ListingRow): ListingType => (l.listingType ?? "gold_special") as ListingType;
/** The category a listing is priced by: a cross-border listing's is the global (site 5) category. */
const cateSiteOf = (t: Target) => (t.isCbt ? 5 : t.listing.site);

/** Loads what `priceByFormula` needs for these listings (all of one tenant), in the caller's transaction. */
export async function loadFormula(tx: Tx, tenantId: string, targets: readonly Target[]): Promise<FormulaInputs> {
  const productIds = [...new Set(targets.map((t) => t.listing.productId).filter((x): x is string => !!x))];
  const shopIds = [...new Set(targets.map((t) => t.listing.accountId))];
  const cats = [
    ...new Map(
      targets
        .filter((t) => t.listing.cateId)
        .map((t) => [`${cateSiteOf(t)}|${t.listing.cateId}`, { site: cateSiteOf(t), cateId: t.listing.cateId! }]),
    ).values(),
  ];
  const productRows = productIds.length
    ? await tx
        .select({ id: products.id, price: products.price, currency: products.currency })
        .from(products)
        .where(and(eq(products.tenantId, tenantId), inArray(products.id, productIds)))
    : [];
  const shopRows = shopIds.length
    ? await tx
        .select()
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, tenantId), inArray(meliAccounts.id, shopIds)))
    : [];
  const rates = await tx.select({ code: currencies.code, rate: currencies.rate }).from(currencies);
  const catRows = cats.length
    ? rowsOf<{ site: number; cateId: string; classicFee: string | null; premiumFee: string | null }>(
        await tx.execute(sql`select c.site, c.cate_id as "cateId", c.classic_fee as "classicFee", c.premium_fee as "premiumFee"
          from jsonb_to_recordset(${JSON.stringify(cats)}::jsonb) as k(site int, "cateId" text)
          join meli_categories c on c.site = k.site and c.cate_id = k."cateId"`),
      )
    : [];
  const fees = new Map<ListingType, CachedFees>();
  for (const type of new Set(targets.map((t) => listingTypeOf(t.listing)))) {
    const ofType = cats.filter((c) => targets.some((t) => listingTypeOf(t.listing) === type && t.listing.cateId === c.cateId));
    fees.set(type, await cachedFees(tx, ofType, type));
  }
  return {
    products: new Map(productRows.map((p) => [p.id, p])),
    shops: new Map(shopRows.map((s) => [s.id, s])),
    rates,
    categories: new Map(catRows.map((c) => [`${c.site}|${c.cateId}`, c])),
    fees,
  };
}

export type Priced =
  { ok: true; price: number; content: unknown; breakdown: PriceBreakdown; minMargin: string | null } | { ok: false; reason: string };

/**
 * The listing's price by the publish formula from its product and shop as they are now. A cross-border listing is
 * priced as publishing prices its site (net proceeds in USD, the shop's limits in USD); the site item's price is what a
 * buyer pays for those net proceeds (the site's fee on top), in the site's currency at the exchange rates, rounded up;
 * limitMinPrice (the listing's currency) then holds it up. With `atPrice` (what is sent now, the listing's currency of
 * the formula: net proceeds on global selling) the breakdown is what that price earns now instead.
 */
export function priceByFormula(f: FormulaInputs, t: Target, limitMinPrice: number | null, atPrice?: string | null): Priced {
  const l = t.listing;
  if (!l.productId) return { ok: false, reason: "该刊登未关联商品（从美客多导入且SKU未匹配），无法按规则计算售价" };
  const p = f.products.get(l.productId);
  if (!p) return { ok: false, reason: "商品已不存在，无法按规则计算售价" };
  const shop = f.shops.get(l.accountId);
  if (!shop) return { ok: false, reason: "店铺不存在" };
  const cateSite = cateSiteOf(t);
  const cat = l.cateId ? f.categories.get(`${cateSite}|${l.cateId}`) : undefined;
  const listingType = listingTypeOf(l);
  // The freight the listing's price included when published stays included (its breakdown kept it).
  const before = (l.priceContent ?? null) as { freight?: number; currency?: string } | null;
  const freight = before?.freight && before.currency ? formatMoney(before.freight, before.currency) : null;
  const priced = sitePrice({
    site: l.site as MeliSiteNumber,
    isCbt: t.isCbt,
    price: p.price,
    currency: p.currency,
    rates: f.rates,
    shop: {
      adjustRate: shop.adjustRate,
      tinyPrice: shop.tinyPrice,
      limitMinPrice: t.isCbt ? shop.limitMinPrice : (limitMinPrice ?? shop.limitMinPrice),
      limitMaxPrice: shop.limitMaxPrice,
      overPrice: shop.overPrice,
    },
    category: { classicFee: cat?.classicFee ?? null, premiumFee: cat?.premiumFee ?? null },
    listingType,
    ...feeInput(l.cateId ? f.fees.get(listingType)?.get(`${cateSite}|${l.cateId}`) : undefined, listingType),
    isContainsFreight: !!freight,
    freight,
    atPrice,
  });
  if (!priced.ok) return { ok: false, reason: priced.message };
  const breakdown = priced.price;
  const minMargin = shop.minMargin;
  if (breakdown.limit === "overMax") return { ok: false, reason: "售价超过店铺最高限价" };
  if (!t.isCbt) return { ok: true, price: moneyNumber(breakdown.price, breakdown.currency), content: breakdown, breakdown, minMargin };
  const currency = MELI_SITES[l.site as MeliSiteNumber]?.currency;
  const rateOf = (code: string) => Number(f.rates.find((r) => r.code.toUpperCase() === code)?.rate);
  if (!currency || !(rateOf("USD") > 0) || !(rateOf(currency) > 0))
    return { ok: false, reason: `没有${currency ?? "站点币种"}的汇率，请在币种汇率中添加` };
  const unit = 10 ** currencyDecimals(currency);
  const buyer = (moneyNumber(breakdown.buyerPrice, "USD") * rateOf("USD")) / rateOf(currency);
  // Rounded up (a tolerance for floating point): the seller keeps at least the net proceeds.
  let price = Math.ceil(buyer * unit - 1e-6) / unit;
  if (limitMinPrice !== null && price < limitMinPrice) price = limitMinPrice;
  return { ok: true, price, content: { ...breakdown, sitePrice: price, siteCurrency: currency }, breakdown, minMargin };
}

/** BatchUpdateMeliPrice and PreviewMeliPrice: one listing's price by the formula, read in a transaction of its own. */
export async function meliPriceOf(
  db: Db,
  t: Target,
  limitMinPrice: number | null,
): Promise<{ ok: true; price: number; content: unknown } | { ok: false; reason: string }> {
  return inScope(db, { tenantId: t.listing.tenantId }, async (tx) =>
    priceByFormula(await loadFormula(tx, t.listing.tenantId, [t]), t, limitMinPrice),
  );
}
