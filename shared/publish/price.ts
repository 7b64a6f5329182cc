// The listing price of a product on one Mercado Libre site (issue 15 "Price per site"), and what the seller keeps: the
// one formula the profit preview, the publisher and the listing centre use (docs/decisions.md "Publish price").
// Money is integer minor units of the listing's currency (centavos; whole pesos for CLP and COP), computed with bigint
// from decimal strings: never a float. Pure: no server or DOM imports.
import type { Currency } from "../contract/settings.ts";
import { MELI_SITES, type MeliSiteNumber, type ShopAccount } from "../contract/meli.ts";
import type { listingTypes } from "../contract/publish.ts";
import { isGlobalSite } from "./sites.ts";

/** A decimal as the contracts carry it: a numeric string ("12.5") or a number. */
export type Decimal = string | number;
type ListingType = (typeof listingTypes)[number];

/** Currencies Mercado Libre prices in whole units (no cents). */
const ZERO_DECIMAL_CURRENCIES = new Set(["CLP", "COP"]);
export const currencyDecimals = (currency: string) => (ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase()) ? 0 : 2);

/** The shop's pricing rules (spec: shop edit info), as the contract's numbers or the table's numeric strings; null is "not set". */
type ShopPriceRules = Record<
  keyof Pick<ShopAccount, "adjustRate" | "tinyPrice" | "limitMinPrice" | "limitMaxPrice" | "overPrice">,
  Decimal | null
>;

export type SitePriceInput = {
  site: MeliSiteNumber;
  /** A global-selling (CBT) shop: the price sent is net_proceeds in USD. Site 5 is always global selling. */
  isCbt?: boolean;
  /** The product's price and its currency. */
  price: Decimal | null;
  currency: string | null;
  /** The currency rates as the settings store them: CNY for one unit of the currency (decimal strings, or numbers). */
  rates: readonly { code: Currency["code"]; rate: Decimal }[];
  shop: ShopPriceRules;
  /** The category row's sale fee percentages (classic gold_special, premium gold_pro). */
  category: { classicFee: Decimal | null; premiumFee: Decimal | null };
  listingType: ListingType;
  /**
   * listing_prices' percentage_fee for the category and listing type (cached by the publisher); replaces the category
   * row's classicFee/premiumFee when given.
   */
  feePercent?: Decimal | null;
  /** Where the fees came from, kept in the breakdown (the pre-flight warns when it is the category row's estimate). */
  feeSource?: FeeSource;
  /** listing_prices' fixed fee per sale (local sites, not free listings), charged only on prices under `under` when given. */
  fixedFee?: { amount: Decimal; under?: Decimal | null } | null;
  /** listing_prices' listing_fee_amount, covered by the price of one sale. */
  listingFee?: Decimal | null;
  /** The publish request's isContainsFreight, and the freight in the listing's currency (0 when absent). */
  isContainsFreight?: boolean;
  freight?: Decimal | null;
  /**
   * The price as it stands (what is sent: the listing price, net_proceeds on global selling), in the listing's
   * currency: steps 2–5 give way to it and step 6 tells what it earns now (the listing centre's margin drift).
   */
  atPrice?: Decimal | null;
};

/**
 * The price breakdown (the listing's price_Content, and the profit preview's row). Amounts are integer minor units of
 * `currency` (format with `formatMoney`); percentages and rates are decimal strings.
 */
export type PriceBreakdown = {
  /** listing_prices (the marketplace's fees, cached), or the category row's percentage when they could not be read. */
  feeSource?: FeeSource;
  site: MeliSiteNumber;
  isCbt: boolean;
  /** The listing's currency (the site's; USD on global selling) and its decimals. */
  currency: string;
  decimals: number;
  listingType: ListingType;
  productPrice: string;
  productCurrency: string;
  /** Units of `currency` for one unit of the product's currency (8 decimals; cost uses the exact ratio). */
  rate: string;
  /** The product's price in `currency`. */
  cost: number;
  adjustRate: string;
  overPrice: number;
  /** The freight added to the price (0 unless isContainsFreight). */
  freight: number;
  feePercent: string;
  saleFee: number;
  fixedFee: number;
  listingFee: number;
  /** What is sent: the listing price on a local site, net_proceeds on global selling. */
  price: number;
  /** What the buyer pays: the listing price; on global selling Mercado Libre's price estimated as net ÷ (1 − fee). */
  buyerPrice: number;
  /** What the seller receives: price − sale fee − fixed fee − listing fee (on global selling: net_proceeds). */
  netProceeds: number;
  /** netProceeds − cost − freight, and its share of buyerPrice in % (2 decimals). */
  margin: number;
  marginPercent: string;
  /** The shop's limits: raised to limitMinPrice, or over limitMaxPrice (refused by the pre-flight check). */
  limit: "raisedToMin" | "overMax" | null;
};

/** Where a price's fees came from: listing_prices for the category and listing type, or the category row's estimate. */
type FeeSource = "listingPrices" | "category";

/**
 * The price from which Mercado Libre charges no fixed fee per sale, in the site's currency (listing_prices does not
 * publish it; the sandbox's SITES charge the same). Null: no fixed fee (global selling). The publisher checks it with a
 * probe at this price per category and listing type (modules/publishing/fees.ts) and stores what it found.
 */
export const FIXED_FEE_UNDER: Record<MeliSiteNumber, number | null> = { 1: 299, 2: 79, 3: 9990, 4: 40000, 5: null };

/**
 * The markup of a shop that set no adjustRate (a new shop): cost × 1.6 gives a margin of at least 30 % of the price the
 * buyer pays, after the sale fee, on categories charging up to 20 % (docs/decisions.md "Default price rule"). The freight
 * and a fixed fee pass through at cost, so an item with a large freight or under the fixed-fee threshold earns less.
 */
export const DEFAULT_ADJUST_RATE = "1.6";

type PriceFailure = { code: string; message: string; fix: "product" | "settings" | "category" | "shop" };
export type SitePriceResult = { ok: true; price: PriceBreakdown } | ({ ok: false } & PriceFailure);

// ---------------------------------------------------------------------------------------------------------------
// Exact decimals: a value is n / 10^scale with bigint n.

type Dec = { n: bigint; scale: number };
const TEN = 10n;
const pow10 = (k: number) => TEN ** BigInt(k);

/** A non-negative decimal, or null when it is not one. Numbers are read through their shortest decimal form. */
export function parseDecimal(value: Decimal | null | undefined): Dec | null {
  if (value === null || value === undefined) return null;
  let s = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
  if (/e/i.test(s)) s = Number(s).toFixed(20);
  const m = /^(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[1] === "" && !m[2])) return null;
  const frac = m[2] ?? "";
  return { n: BigInt((m[1] || "0") + frac), scale: frac.length };
}

/** num / den rounded: half up (away from zero), up (ceiling) or down (floor). den > 0. */
function divide(num: bigint, den: bigint, mode: "half" | "ceil" | "floor"): bigint {
  const q = num / den;
  const r = num % den;
  if (r === 0n) return q;
  if (mode === "floor") return num < 0n ? q - 1n : q;
  if (mode === "ceil") return num > 0n ? q + 1n : q;
  const twice = (r < 0n ? -r : r) * 2n;
  return twice >= den ? (num < 0n ? q - 1n : q + 1n) : q;
}

/** A decimal in minor units of `decimals` places, rounded half up. */
const minorOf = (d: Dec, decimals: number) =>
  d.scale <= decimals ? d.n * pow10(decimals - d.scale) : divide(d.n, pow10(d.scale - decimals), "half");

const decString = (d: Dec) => formatMinor(d.n, d.scale);
/** "1.5000" → "1.5", "10" stays. */
const trimZeros = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);

/** A decimal amount in minor units of the currency (half up), or null when it is not a decimal. */
export function toMinor(value: Decimal | null | undefined, currency: string): number | null {
  const d = parseDecimal(value);
  return d ? Number(minorOf(d, currencyDecimals(currency))) : null;
}

function formatMinor(n: bigint, decimals: number): string {
  const neg = n < 0n;
  const s = (neg ? -n : n).toString().padStart(decimals + 1, "0");
  const whole = decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}` : s;
  return neg ? `-${whole}` : whole;
}

/** Minor units as a decimal string in the currency's decimals: formatMoney(51499, "MXN") → "514.99". */
export const formatMoney = (minor: number, currency: string) => formatMinor(BigInt(minor), currencyDecimals(currency));

/** Minor units as the number Mercado Libre's API takes (514.99); exact in JSON since it has at most 2 decimals. */
export const moneyNumber = (minor: number, currency: string) => Number(formatMoney(minor, currency));

// ---------------------------------------------------------------------------------------------------------------
// The formula.

const fail = (code: string, message: string, fix: PriceFailure["fix"]): SitePriceResult => ({ ok: false, code, message, fix });

/**
 * The price of the product on the site, step by step (docs/decisions.md "Publish price"):
 * 1. cost = price × rate(product currency) ÷ rate(listing currency), to minor units (half up);
 * 2. base = cost × adjustRate (half up; not set: DEFAULT_ADJUST_RATE) + overPrice + freight (isContainsFreight) + listing fee;
 * 3. local site: price = ⌈(base + fixed fee) ÷ (1 − fee%)⌉, where a fixed fee charged only under a threshold is left out
 *    when the price without it reaches the threshold, and the price is held at the threshold when only the fixed fee
 *    would push it over; global selling: price = net_proceeds = base (Mercado Libre adds its fee);
 * 4. tinyPrice t (currencies with cents): the smallest price ≥ the price ending in t (514.73 with 0.99 → 514.99);
 * 5. under limitMinPrice: raised to it; over limitMaxPrice (when > 0): kept and flagged overMax;
 * 6. sale fee = price × fee% (half up); net = price − sale fee − fixed fee − listing fee; margin = net − cost − freight.
 */
export function sitePrice(input: SitePriceInput): SitePriceResult {
  const isCbt = isGlobalSite(input.site) || input.isCbt === true;
  const currency = isCbt ? "USD" : MELI_SITES[input.site].currency;
  const decimals = currencyDecimals(currency);
  const unit = pow10(decimals);

  const productPrice = parseDecimal(input.price);
  if (!productPrice || productPrice.n === 0n) return fail("price.missing", "商品没有价格", "product");
  const productCurrency = (input.currency ?? "").trim().toUpperCase();
  if (!productCurrency) return fail("price.currency", "商品没有币种", "product");
  const rateOf = (code: string) => parseDecimal(input.rates.find((r) => r.code.toUpperCase() === code)?.rate);
  const from = rateOf(productCurrency);
  const to = rateOf(currency);
  if (!from || from.n === 0n) return fail("rate.missing", `没有${productCurrency}的汇率，请在币种汇率中添加`, "settings");
  if (!to || to.n === 0n) return fail("rate.missing", `没有${currency}的汇率，请在币种汇率中添加`, "settings");

  const feeValue =
    input.listingType === "free"
      ? 0
      : (input.feePercent ?? (input.listingType === "gold_pro" ? input.category.premiumFee : input.category.classicFee));
  const fee = parseDecimal(feeValue);
  if (!fee) return fail("fee.missing", "类目费率尚未同步，请先同步类目费率", "category");
  // fee% as basis points ×100 (4 decimals): 13.5 → 135000 of 1,000,000.
  const feePpm = minorOf(fee, 4);
  const MILLION = 1_000_000n;
  if (feePpm >= MILLION) return fail("fee.invalid", "类目费率不小于100%，无法计算售价", "category");

  const shop = input.shop;
  const adjust = parseDecimal(shop.adjustRate ?? DEFAULT_ADJUST_RATE) ?? { n: 1n, scale: 0 };
  const money = (v: Decimal | null | undefined) => {
    const d = parseDecimal(v);
    return d ? minorOf(d, decimals) : 0n;
  };

  // 1. cost: price × from ÷ to, exactly, then to minor units.
  const cost = divide(productPrice.n * from.n * unit * pow10(to.scale), pow10(productPrice.scale + from.scale) * to.n, "half");
  const rate = divide(from.n * pow10(8 + to.scale), pow10(from.scale) * to.n, "half");
  // 2. base.
  const overPrice = money(shop.overPrice);
  const freight = input.isContainsFreight ? money(input.freight) : 0n;
  const listingFee = money(input.listingFee);
  const base = divide(cost * adjust.n, pow10(adjust.scale), "half") + overPrice + freight + listingFee;
  // 3. gross up for the sale fee (and the fixed fee under its threshold).
  const noFixedFee = isCbt || input.listingType === "free";
  const fixedAmount = noFixedFee ? 0n : money(input.fixedFee?.amount);
  const fixedUnder = noFixedFee || input.fixedFee?.under == null ? null : money(input.fixedFee.under);
  const gross = (net: bigint) => divide(net * MILLION, MILLION - feePpm, "ceil");
  let price: bigint;
  if (isCbt) price = base;
  else if (fixedAmount === 0n) price = gross(base);
  else if (fixedUnder === null) price = gross(base + fixedAmount);
  else {
    const without = gross(base);
    price = without >= fixedUnder ? without : gross(base + fixedAmount) < fixedUnder ? gross(base + fixedAmount) : fixedUnder;
  }
  // 4. the cents ending.
  const tiny = decimals > 0 ? parseDecimal(shop.tinyPrice) : null;
  if (tiny) {
    const ending = minorOf(tiny, decimals) % unit;
    let ended = divide(price, unit, "floor") * unit + ending;
    if (ended < price) ended += unit;
    price = ended;
  }
  // 5. the shop's limits.
  let limit: PriceBreakdown["limit"] = null;
  const min = money(shop.limitMinPrice);
  const max = money(shop.limitMaxPrice);
  if (price < min) {
    price = min;
    limit = "raisedToMin";
  }
  if (max > 0n && price > max) limit = "overMax";
  const standing = parseDecimal(input.atPrice);
  if (standing) {
    price = minorOf(standing, decimals);
    limit = null;
  }
  // 6. what the seller keeps.
  let buyerPrice: bigint, saleFee: bigint, fixedFee: bigint, net: bigint;
  if (isCbt) {
    buyerPrice = divide(price * MILLION, MILLION - feePpm, "half");
    saleFee = buyerPrice - price;
    fixedFee = 0n;
    net = price - listingFee;
  } else {
    buyerPrice = price;
    saleFee = divide(price * feePpm, MILLION, "half");
    fixedFee = fixedAmount > 0n && (fixedUnder === null || price < fixedUnder) ? fixedAmount : 0n;
    net = price - saleFee - fixedFee - listingFee;
  }
  const margin = net - cost - freight;
  const marginPercent = buyerPrice > 0n ? formatMinor(divide(margin * 10_000n, buyerPrice, "half"), 2) : "0.00";

  return {
    ok: true,
    price: {
      ...(input.feeSource ? { feeSource: input.feeSource } : {}),
      site: input.site,
      isCbt,
      currency,
      decimals,
      listingType: input.listingType,
      productPrice: decString(productPrice),
      productCurrency,
      rate: formatMinor(rate, 8),
      cost: Number(cost),
      adjustRate: trimZeros(decString(adjust)),
      overPrice: Number(overPrice),
      freight: Number(freight),
      feePercent: trimZeros(formatMinor(feePpm, 4)),
      saleFee: Number(saleFee),
      fixedFee: Number(fixedFee),
      listingFee: Number(listingFee),
      price: Number(price),
      buyerPrice: Number(buyerPrice),
      netProceeds: Number(net),
      margin: Number(margin),
      marginPercent,
      limit,
    },
  };
}
