// The profit formula against the worked example (docs/decisions.md "Order profit") and its edges: exact decimals,
// whole-peso currencies, a line without a product, a missing rate, a pack's freight split.
import { describe, expect, it } from "vitest";
import { freightShare, orderProfit } from "./profit.ts";

const rates = [
  { code: "CNY", rate: "1.00000000" },
  { code: "MXN", rate: "0.39000000" },
  { code: "CLP", rate: "0.00770000" },
  { code: "USD", rate: "7.10000000" },
];

describe("orderProfit", () => {
  it("the worked example: 2 × 250 MXN, fee 33.75 a unit, freight 93.50, 2 × 30 CNY cost", () => {
    const p = orderProfit({
      currency: "MXN",
      freight: "93.50",
      rates,
      lines: [{ quantity: 2, unitPrice: "250", saleFee: "33.75", productPrice: "30.00", productCurrency: "CNY", label: "MLM1" }],
    });
    // 60 CNY ÷ 0.39 = 153.846… → 153.85; 500 − 67.50 − 93.50 − 153.85 = 185.15; × 0.39 = 72.2085 → 72.21 CNY.
    expect(p).toMatchObject({
      currency: "MXN",
      salePrice: 500,
      saleFee: 67.5,
      freight: 93.5,
      productCost: 153.85,
      profit: 185.15,
      profitCny: 72.21,
      complete: true,
      missing: [],
    });
    expect(p.rates).toEqual([
      { code: "MXN", rate: "0.39000000" },
      { code: "CNY", rate: "1.00000000" },
    ]);
  });

  it("is exact where floats are not: 3 × 0.1 CNY at 0.3 is 1 MXN, not 0.9999…", () => {
    const p = orderProfit({
      currency: "MXN",
      freight: 0,
      rates: [
        { code: "CNY", rate: "0.3" },
        { code: "MXN", rate: "0.3" },
      ],
      lines: [{ quantity: 3, unitPrice: "0.1", saleFee: "0", productPrice: "0.1", productCurrency: "CNY", label: "x" }],
    });
    expect(p.productCost).toBe(0.3);
    expect(p.salePrice).toBe(0.3);
    expect(p.profit).toBe(0);
  });

  it("works in whole pesos, counts a line without a product as 0 cost and says so, and can lose money", () => {
    const p = orderProfit({
      currency: "CLP",
      freight: "3720",
      rates,
      lines: [
        { quantity: 1, unitPrice: "9990", saleFee: "1399", productPrice: "50", productCurrency: "CNY", label: "MLC1" },
        { quantity: 1, unitPrice: "1000", saleFee: "140", productPrice: null, productCurrency: null, label: "MLC2" },
      ],
    });
    // 50 CNY ÷ 0.0077 = 6493.5… → 6494 CLP; 10990 − 1539 − 3720 − 6494 = −763.
    expect(p).toMatchObject({ salePrice: 10990, saleFee: 1539, freight: 3720, productCost: 6494, profit: -763, complete: false });
    expect(p.missing).toEqual(["MLC2：未关联商品或商品没有价格，成本按 0 计"]);
    expect(p.profitCny).toBe(-5.88);
  });

  it("without a rate for the product's currency the cost is 0 and the breakdown says which rate is missing", () => {
    const p = orderProfit({
      currency: "MXN",
      freight: 0,
      rates,
      lines: [{ quantity: 1, unitPrice: "100", saleFee: "13", productPrice: "10", productCurrency: "EUR", label: "MLM2" }],
    });
    expect(p).toMatchObject({ productCost: 0, profit: 87, complete: false, missing: ["没有EUR的汇率，该币种商品成本按 0 计"] });
  });
});

describe("freightShare", () => {
  it("splits a pack's shipment by each order's share of its total (half up), whole when alone", () => {
    expect(freightShare("93.50", "250", "500", "MXN")).toBe(4675);
    expect(freightShare("10.00", "100", "300", "MXN")).toBe(333);
    expect(freightShare("93.50", "500", "500", "MXN")).toBe(9350);
    expect(freightShare("93.50", "500", null, "MXN")).toBe(9350);
  });
});
