// The GTIN requirement (Mercado Libre's identificadores-de-productos): required always; conditional_required unless
// EMPTY_GTIN_REASON says why there is none; the pool gives one code per variant without its own.
import { describe, expect, it } from "vitest";
import type { CategoryAttribute } from "../contract/category.ts";
import { EMPTY_GTIN_REASONS, emptyGtinReasonZh, fixedByGtinReason, gtinCodesNeeded, gtinRuleOf, takesGtinReason } from "./gtin-rule.ts";

const attr = (id: string, tags: string[], extra: Partial<CategoryAttribute> = {}) =>
  ({ id, tags, isRequired: false, ...extra }) as CategoryAttribute;
const conditional = [attr("GTIN", ["conditional_required"]), attr("EMPTY_GTIN_REASON", ["conditional_required"])];
const required = [attr("GTIN", ["required"]), attr("EMPTY_GTIN_REASON", [])];
const none = [attr("BRAND", ["required"])];
const reason = new Set(["EMPTY_GTIN_REASON"]);

describe("the GTIN rule", () => {
  it("reads the category's tags", () => {
    expect(gtinRuleOf(conditional)).toBe("conditional");
    expect(gtinRuleOf(required)).toBe("required");
    expect(gtinRuleOf([attr("GTIN", [], { isRequired: true })])).toBe("required");
    expect(gtinRuleOf([attr("GTIN", ["variation_attribute"])])).toBe("none");
    expect(gtinRuleOf(none)).toBe("none");
    expect(takesGtinReason(conditional)).toBe(true);
    expect(takesGtinReason(required)).toBe(false);
    expect(takesGtinReason([conditional[0]])).toBe(false);
  });

  it("counts the codes the pool gives: none with a reason where the category takes one", () => {
    const variants = [{ gtin: "4006381333931" }, { gtin: null }, { gtin: " " }];
    expect(gtinCodesNeeded(conditional, variants, new Set())).toBe(2);
    expect(gtinCodesNeeded(conditional, variants, reason)).toBe(0);
    expect(gtinCodesNeeded(required, variants, reason)).toBe(2);
    expect(gtinCodesNeeded(none, variants, new Set())).toBe(0);
    expect(gtinCodesNeeded(conditional, [], new Set())).toBe(1);
    expect(gtinCodesNeeded(conditional, [], new Set(["GTIN"]))).toBe(0);
  });

  it("names the documented reasons in Chinese, and tells the problem a reason fixes", () => {
    expect(EMPTY_GTIN_REASONS.map((r) => r.id).sort()).toEqual(["17055158", "17055159", "17055160", "17055161"]);
    expect(emptyGtinReasonZh("17055159")).toBe("套装/组合商品");
    expect(emptyGtinReasonZh("1")).toBeNull();
    expect(fixedByGtinReason({ code: "gtin.shortage", field: "attributes.EMPTY_GTIN_REASON" })).toBe(true);
    expect(fixedByGtinReason({ code: "gtin.shortage", field: "gtin" })).toBe(false);
  });
});
