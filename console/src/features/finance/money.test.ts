import { describe, expect, it } from "vitest";
import { formatYuan, MAX_MONEY_YUAN } from "#shared/contract/wallet.ts";
import { amountProblem, fenOf, signedYuanText, yuanOf } from "./money.ts";

describe("money on the finance screens", () => {
  it("shows yuan with two decimals and thousands separators", () => {
    expect(formatYuan(1234.56)).toBe("¥1,234.56");
    expect(formatYuan(0.05)).toBe("¥0.05");
    expect(formatYuan(12.5)).toBe("¥12.50");
  });

  it("signs a movement: credits with +, debits with - before the ¥", () => {
    expect(signedYuanText(10)).toBe("+¥10.00");
    expect(signedYuanText(-1000.05)).toBe("-¥1,000.05");
    expect(signedYuanText(0)).toBe("¥0.00");
  });

  it("reads typed yuan into fen by its digits (no float drift)", () => {
    expect(fenOf("100")).toBe(10_000);
    expect(fenOf(" 99.5 ")).toBe(9_950);
    expect(fenOf("0.01")).toBe(1);
    expect(fenOf("1,000.10")).toBe(100_010);
    // 0.29 * 100 is 28.999… and 1.1 * 100 is 110.00000000000001 in floating point.
    expect(fenOf("0.29")).toBe(29);
    expect(fenOf("1.10")).toBe(110);
    expect(fenOf(String(MAX_MONEY_YUAN))).toBe(MAX_MONEY_YUAN * 100);
    expect(yuanOf("0.29")).toBe(0.29);
    expect(yuanOf("1,234.5")).toBe(1234.5);
  });

  it("refuses what is not a positive amount with at most two decimals within the maximum", () => {
    for (const bad of ["", "0", "0.00", "-1", "1.005", "abc", "1e3", "1.", ".5", "1000000.01"]) expect(fenOf(bad)).toBeNull();
    expect(yuanOf("abc")).toBeNull();
    expect(amountProblem("")).toBe("请输入金额");
    expect(amountProblem("12.345")).toMatch(/最多两位小数/);
    expect(amountProblem("12.34")).toBeNull();
  });
});
