import { describe, expect, it } from "vitest";
import { currencyDecimals, formatMoney, moneyNumber, parseDecimal, sitePrice, toMinor, type SitePriceInput } from "./price.ts";
import { WORKED_EXAMPLE } from "./worked-example.ts";

const rates = WORKED_EXAMPLE.rates;
// No markup (adjustRate 1): the price covers the fees only; the default markup of a shop that set none is tested apart.
const noRules = { adjustRate: 1, tinyPrice: null, limitMinPrice: null, limitMaxPrice: null, overPrice: null };

/** The worked example of docs/decisions.md "Publish price". */
const worked = WORKED_EXAMPLE;

const ok = (input: SitePriceInput) => {
  const r = sitePrice(input);
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.price;
};

describe("sitePrice", () => {
  it("gives the worked example exactly", () => {
    expect(ok(worked)).toEqual({
      site: 1,
      isCbt: false,
      currency: "MXN",
      decimals: 2,
      listingType: "gold_special",
      productPrice: "100.00",
      productCurrency: "CNY",
      rate: "2.53164557",
      cost: 25316,
      adjustRate: "1.5",
      overPrice: 2000,
      freight: 4550,
      feePercent: "13.5",
      saleFee: 6952,
      fixedFee: 0,
      listingFee: 0,
      price: 51499,
      buyerPrice: 51499,
      netProceeds: 44547,
      margin: 14681,
      marginPercent: "28.51",
      limit: null,
    });
  });

  it("takes the table's numeric strings as well as numbers", () => {
    const shop = { adjustRate: "1.5000", tinyPrice: "0.99", limitMinPrice: "100.00", limitMaxPrice: "2000.00", overPrice: "20.00" };
    const rates = [
      { code: "CNY", rate: 1 },
      { code: "MXN", rate: 0.395 },
    ];
    expect(ok({ ...worked, shop, rates })).toEqual(ok(worked));
  });

  it("with atPrice tells what a standing price earns at today's rates (the margin drift)", () => {
    // The price it gives, standing: the same breakdown.
    expect(ok({ ...worked, atPrice: "514.99" })).toEqual(ok(worked));
    // A dearer yuan (0.395 → 0.35 MXN a yuan): the cost rises, the price stays, the margin falls by the cost's rise.
    const dearer = [
      { code: "CNY", rate: 1 },
      { code: "MXN", rate: 0.35 },
    ];
    const now = ok({ ...worked, rates: dearer, atPrice: "514.99" });
    expect(now).toMatchObject({ price: 51499, saleFee: 6952, cost: 28571, margin: 14681 - (28571 - 25316), limit: null });
    // Below the shop's minimum price it stays what it is (steps 2–5 give way).
    expect(ok({ ...worked, shop: { ...worked.shop, limitMinPrice: 600 }, atPrice: 514.99 }).price).toBe(51499);
  });

  it("adds the freight only with isContainsFreight", () => {
    const p = ok({ ...worked, isContainsFreight: false });
    expect(p.freight).toBe(0);
    // base 399.74 ÷ 0.865 = 462.13… → 462.14, ending .99 → 462.99
    expect(p.price).toBe(46299);
  });

  it("takes the premium fee for gold_pro and none for free", () => {
    expect(ok({ ...worked, listingType: "gold_pro" }).feePercent).toBe("17.5");
    const free = ok({ ...worked, listingType: "free", shop: noRules, isContainsFreight: false });
    expect(free.feePercent).toBe("0");
    expect(free.price).toBe(25316);
    expect(free.saleFee).toBe(0);
    expect(free.margin).toBe(0);
  });

  it("charges the fixed fee under its threshold, and holds the price at the threshold when only the fee crosses it", () => {
    const cheap = ok({ ...worked, price: "10", shop: noRules, isContainsFreight: false });
    expect(cheap.cost).toBe(2532);
    expect(cheap).toMatchObject({ price: 5818, saleFee: 785, fixedFee: 2500, netProceeds: 2533, margin: 1 });

    const edge = ok({ ...worked, price: "250", currency: "MXN", shop: noRules, isContainsFreight: false });
    expect(edge).toMatchObject({ cost: 25000, price: 29900, fixedFee: 0, saleFee: 4037, netProceeds: 25863 });

    const noThreshold = ok({ ...worked, price: "250", currency: "MXN", shop: noRules, isContainsFreight: false, fixedFee: { amount: 25 } });
    expect(noThreshold).toMatchObject({ price: 31792, fixedFee: 2500 });
  });

  it("ends the price on tinyPrice without lowering it", () => {
    const at = (tinyPrice: number | null) => ok({ ...worked, shop: { ...noRules, tinyPrice }, isContainsFreight: false }).price;
    // without an ending: 253.16 ÷ 0.865 = 292.67 → under 299, so the fixed fee: (253.16 + 25) ÷ 0.865 = 321.57…
    expect(at(null)).toBe(29900);
    expect(at(0.99)).toBe(29999);
    expect(at(0)).toBe(29900);
    expect(at(0.5)).toBe(29950);
  });

  it("raises a price under limitMinPrice and flags one over limitMaxPrice", () => {
    expect(ok({ ...worked, shop: { ...worked.shop, limitMinPrice: 1000 } })).toMatchObject({ price: 100000, limit: "raisedToMin" });
    expect(ok({ ...worked, shop: { ...worked.shop, limitMaxPrice: 500 } })).toMatchObject({ price: 51499, limit: "overMax" });
    expect(ok({ ...worked, shop: { ...worked.shop, limitMaxPrice: 0 } }).limit).toBeNull();
  });

  it("prices CLP and COP in whole pesos and ignores a cents ending there", () => {
    const clp = ok({
      ...worked,
      site: 3,
      shop: { ...noRules, tinyPrice: 0.99 },
      isContainsFreight: false,
      fixedFee: null,
      category: { classicFee: 13, premiumFee: 18 },
    });
    expect(clp).toMatchObject({
      currency: "CLP",
      decimals: 0,
      cost: 13158,
      price: 15125,
      saleFee: 1966,
      netProceeds: 13159,
      margin: 1,
      marginPercent: "0.01",
    });
    expect(formatMoney(clp.price, "CLP")).toBe("15125");
    expect(clp.feePercent).toBe("13");

    const cop = ok({
      ...worked,
      site: 4,
      price: "10",
      currency: "USD",
      shop: noRules,
      listingType: "free",
      fixedFee: null,
      isContainsFreight: false,
    });
    expect(cop).toMatchObject({ currency: "COP", decimals: 0, cost: 40113, price: 40113 });
  });

  it("sends net proceeds in USD on global selling and estimates the buyer's price", () => {
    const cbt = ok({
      ...worked,
      site: 2,
      isCbt: true,
      price: "50",
      shop: { ...noRules, adjustRate: 2, overPrice: 1, tinyPrice: 0.99 },
      category: { classicFee: 15, premiumFee: 20 },
      listingType: "gold_pro",
      freight: "3.20",
    });
    expect(cbt).toMatchObject({
      isCbt: true,
      currency: "USD",
      cost: 704,
      freight: 320,
      fixedFee: 0,
      price: 1899,
      netProceeds: 1899,
      buyerPrice: 2374,
      saleFee: 475,
      margin: 875,
      marginPercent: "36.86",
    });
    expect(ok({ ...worked, site: 5, shop: noRules, isContainsFreight: false, fixedFee: null })).toMatchObject({
      currency: "USD",
      isCbt: true,
    });
  });

  it("rounds half up on the exact decimal, where a float would not", () => {
    // 1.005 × 100 is 100.49999… as a float
    expect(ok({ ...worked, price: "1.005", currency: "MXN", shop: noRules, listingType: "free", isContainsFreight: false }).cost).toBe(101);
    expect(
      ok({ ...worked, price: "0.3", currency: "MXN", shop: { ...noRules, adjustRate: 3 }, listingType: "free", isContainsFreight: false })
        .price,
    ).toBe(90);
  });

  it("refuses what it cannot price, saying where to fix it", () => {
    expect(sitePrice({ ...worked, price: null })).toMatchObject({ ok: false, code: "price.missing", fix: "product" });
    expect(sitePrice({ ...worked, price: "abc" })).toMatchObject({ ok: false, code: "price.missing" });
    expect(sitePrice({ ...worked, currency: "EUR" })).toMatchObject({
      ok: false,
      code: "rate.missing",
      fix: "settings",
      message: "没有EUR的汇率，请在币种汇率中添加",
    });
    expect(sitePrice({ ...worked, rates: rates.filter((r) => r.code !== "MXN") })).toMatchObject({ ok: false, code: "rate.missing" });
    expect(sitePrice({ ...worked, category: { classicFee: null, premiumFee: null } })).toMatchObject({
      ok: false,
      code: "fee.missing",
      fix: "category",
    });
    expect(sitePrice({ ...worked, category: { classicFee: 100, premiumFee: 100 } })).toMatchObject({ ok: false, code: "fee.invalid" });
  });
});

describe("money helpers", () => {
  it("reads decimals exactly and refuses anything else", () => {
    expect(parseDecimal("12.50")).toEqual({ n: 1250n, scale: 2 });
    expect(parseDecimal(0.1)).toEqual({ n: 1n, scale: 1 });
    expect(parseDecimal(1e-7)).not.toBeNull();
    for (const bad of ["-1", "1,5", "", ".", "1e", null, Number.NaN]) expect(parseDecimal(bad)).toBeNull();
  });

  it("formats minor units in the currency's decimals", () => {
    expect(currencyDecimals("MXN")).toBe(2);
    expect(currencyDecimals("cop")).toBe(0);
    expect(formatMoney(51499, "MXN")).toBe("514.99");
    expect(formatMoney(5, "USD")).toBe("0.05");
    expect(formatMoney(-1250, "BRL")).toBe("-12.50");
    expect(moneyNumber(51499, "MXN")).toBe(514.99);
    expect(toMinor("514.995", "MXN")).toBe(51500);
    expect(toMinor("1000.5", "CLP")).toBe(1001);
    expect(toMinor(null, "CLP")).toBeNull();
  });
});
