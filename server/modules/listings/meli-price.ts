// BatchUpdateMeliPrice and PreviewMeliPrice: a listing's price by the publish formula, from its product and shop as
// they are now (shared/publish/price.ts), in the listing's currency.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { currencies, meliAccounts, meliCategories, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { cachedFees, feeInput } from "../publishing/index.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { currencyDecimals, formatMoney, moneyNumber, sitePrice } from "#shared/publish/price.ts";
import type { Target } from "./edit-types.ts";

/**
 * BatchUpdateMeliPrice: the listing's price by the publish formula from its product and shop as they are now. A
 * cross-border listing is priced as publishing prices its site (net proceeds in USD, the shop's limits in USD); the
 * site item's price is what a buyer pays for those net proceeds (the site's fee on top), in the site's currency at
 * the exchange rates, rounded up; limitMinPrice (the listing's currency) then holds it up.
 */
export async function meliPriceOf(
  db: Db,
  t: Target,
  limitMinPrice: number | null,
): Promise<{ ok: true; price: number; content: unknown } | { ok: false; reason: string }> {
  const l = t.listing;
  if (!l.productId) return { ok: false, reason: "该刊登未关联商品（从美客多导入且SKU未匹配），无法按规则计算售价" };
  const productId = l.productId;
  return inScope(db, { tenantId: l.tenantId }, async (tx) => {
    const [p] = await tx
      .select({ price: products.price, currency: products.currency })
      .from(products)
      .where(and(eq(products.tenantId, l.tenantId), eq(products.id, productId)));
    if (!p) return { ok: false as const, reason: "商品已不存在，无法按规则计算售价" };
    const [shop] = await tx
      .select()
      .from(meliAccounts)
      .where(and(eq(meliAccounts.tenantId, l.tenantId), eq(meliAccounts.id, l.accountId)));
    if (!shop) return { ok: false as const, reason: "店铺不存在" };
    const rates = await tx.select({ code: currencies.code, rate: currencies.rate }).from(currencies);
    const cateSite = t.isCbt ? 5 : l.site;
    const [cat] = l.cateId
      ? await tx
          .select({ classicFee: meliCategories.classicFee, premiumFee: meliCategories.premiumFee })
          .from(meliCategories)
          .where(and(eq(meliCategories.site, cateSite), eq(meliCategories.cateId, l.cateId)))
      : [];
    const listingType = (l.listingType ?? "gold_special") as "gold_special" | "gold_pro" | "free";
    const fees = l.cateId ? await cachedFees(tx, [{ site: cateSite, cateId: l.cateId }], listingType) : new Map();
    // The freight the listing's price included when published stays included (its breakdown kept it).
    const before = (l.priceContent ?? null) as { freight?: number; currency?: string } | null;
    const freight = before?.freight && before.currency ? formatMoney(before.freight, before.currency) : null;
    const priced = sitePrice({
      site: l.site as MeliSiteNumber,
      isCbt: t.isCbt,
      price: p.price,
      currency: p.currency,
      rates,
      shop: {
        adjustRate: shop.adjustRate,
        tinyPrice: shop.tinyPrice,
        limitMinPrice: t.isCbt ? shop.limitMinPrice : (limitMinPrice ?? shop.limitMinPrice),
        limitMaxPrice: shop.limitMaxPrice,
        overPrice: shop.overPrice,
      },
      category: { classicFee: cat?.classicFee ?? null, premiumFee: cat?.premiumFee ?? null },
      listingType,
      ...feeInput(l.cateId ? fees.get(`${cateSite}|${l.cateId}`) : undefined, listingType),
      isContainsFreight: !!freight,
      freight,
    });
    if (!priced.ok) return { ok: false as const, reason: priced.message };
    if (priced.price.limit === "overMax") return { ok: false as const, reason: "售价超过店铺最高限价" };
    if (!t.isCbt) return { ok: true as const, price: moneyNumber(priced.price.price, priced.price.currency), content: priced.price };
    const currency = MELI_SITES[l.site as MeliSiteNumber]?.currency;
    const rateOf = (code: string) => Number(rates.find((r) => r.code.toUpperCase() === code)?.rate);
    if (!currency || !(rateOf("USD") > 0) || !(rateOf(currency) > 0))
      return { ok: false as const, reason: `没有${currency ?? "站点币种"}的汇率，请在币种汇率中添加` };
    const unit = 10 ** currencyDecimals(currency);
    const buyer = (moneyNumber(priced.price.buyerPrice, "USD") * rateOf("USD")) / rateOf(currency);
    // Rounded up (a tolerance for floating point): the seller keeps at least the net proceeds.
    let price = Math.ceil(buyer * unit - 1e-6) / unit;
    if (limitMinPrice !== null && price < limitMinPrice) price = limitMinPrice;
    return { ok: true as const, price, content: { ...priced.price, sitePrice: price, siteCurrency: currency } };
  });
}
