import { describe, expect, it } from "vitest";
import { DEFAULT_MIN_MARGIN, marginPercentOf, marginStatus, marginWarning, minMarginText } from "./margin.ts";
import { DEFAULT_ADJUST_RATE, sitePrice, type SitePriceInput } from "./price.ts";
import { WORKED_EXAMPLE } from "./worked-example.ts";

const unset = { adjustRate: null, tinyPrice: null, limitMinPrice: null, limitMaxPrice: null, overPrice: null };

describe("marginStatus", () => {
  it("says negative, under the minimum or ok, exactly at the boundary", () => {
    expect(marginStatus(-1, 10_000, 10)).toBe("negative");
    expect(marginStatus(999, 10_000, 10)).toBe("low");
    expect(marginStatus(1000, 10_000, 10)).toBe("ok");
    expect(marginStatus(1249, 10_000, "12.5")).toBe("low");
    expect(marginStatus(1250, 10_000, "12.5")).toBe("ok");
    // Not set: the default minimum; a minimum of 0 only warns of a loss.
    expect(DEFAULT_MIN_MARGIN).toBe(10);
    expect(marginStatus(999, 10_000, null)).toBe("low");
    expect(marginStatus(0, 10_000, 0)).toBe("ok");
    expect(marginStatus(0, 0, 10)).toBe("low");
    // An order's amounts with 2 decimals: −68.00 MXN is a loss, 9.99 of 100.00 is under 10 %.
    expect(marginStatus(-68, 320.5, 10)).toBe("negative");
    expect(marginStatus(9.99, 100, 10)).toBe("low");
    expect(marginStatus(10, 100, 10)).toBe("ok");
  });

  it("gives an order's margin % as the price breakdown rounds it", () => {
    expect(marginPercentOf(146.81, 514.99)).toBe("28.51");
    expect(marginPercentOf(-68, 320.5)).toBe("-21.22");
    expect(marginPercentOf(5, 0)).toBe("0.00");
    expect(marginPercentOf(0.001, 100)).toBe("0.00");
  });

  it("words the warning with the shop's minimum", () => {
    expect(minMarginText(null)).toBe("10");
    expect(minMarginText("12.50")).toBe("12.5");
    expect(marginWarning("low", "8.20", 15)).toBe("利润率8.20%低于店铺最低利润率15%");
    expect(marginWarning("negative", "-3.10", null)).toBe("利润为负（-3.10%），刊登后每单亏损，请调整店铺定价规则");
    expect(marginWarning("ok", "30.00", null)).toBeNull();
  });
});

describe("the default price rule (a shop that set no adjustRate)", () => {
  const at = (fee: string, price: string, extra: Partial<SitePriceInput> = {}) => {
    const r = sitePrice({
      ...WORKED_EXAMPLE,
      shop: unset,
      price,
      category: { classicFee: fee, premiumFee: fee },
      isContainsFreight: false,
      ...extra,
    });
    if (!r.ok) throw new Error(r.message);
    return r.price;
  };

  it("marks the cost up by DEFAULT_ADJUST_RATE, not 1", () => {
    expect(DEFAULT_ADJUST_RATE).toBe("1.6");
    expect(at("13.5", "100.00")).toMatchObject({ adjustRate: "1.6", cost: 25316 });
  });

  it("keeps at least 30 % of the price on categories charging 13 % to 20 %, a new shop's whole margin", () => {
    for (const fee of ["13", "13.5", "16", "17.5", "18", "20"])
      for (const price of ["60", "100.00", "350"]) {
        const p = at(fee, price);
        expect(Number(p.marginPercent), `fee ${fee}%, ${price} CNY`).toBeGreaterThanOrEqual(30);
        expect(marginStatus(p.margin, p.buyerPrice, null)).toBe("ok");
      }
  });

  it("stays near 30 % with the freight in the price, and above the default minimum", () => {
    const p = at("13.5", "100.00", { isContainsFreight: true, freight: "45.50" });
    expect(Number(p.marginPercent)).toBeGreaterThan(29);
    expect(marginStatus(p.margin, p.buyerPrice, null)).toBe("ok");
  });

  it("leaves an explicit rule alone: adjustRate 1 earns nothing, and says so", () => {
    const p = at("13.5", "100.00", { shop: { ...unset, adjustRate: 1 } });
    expect(p.adjustRate).toBe("1");
    expect(marginStatus(p.margin, p.buyerPrice, null)).toBe("low");
  });
});
