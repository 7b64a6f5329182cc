// Listing types as the seller reads them: every type the publish request takes has a Chinese name, and an id from
// Mercado Libre that we do not know is never shown raw.
import { describe, expect, it } from "vitest";
import { attributeLabel, listingTypeName, meliItemStatusName, withChinese } from "./names.ts";
import { listingTypes } from "./publish.ts";

describe("listingTypeName", () => {
  it("names each listing type in Chinese, without the raw id", () => {
    expect(listingTypes.map(listingTypeName)).toEqual(["经典", "高级", "免费"]);
    expect(listingTypeName("gold_premium")).toBe("其他类型");
    expect(listingTypeName(null)).toBe("");
  });
});

describe("names with Chinese", () => {
  it("puts a stored Chinese name first, else the glossary's for a common attribute, else the name alone", () => {
    expect(withChinese("Color", "颜色")).toBe("颜色（Color）");
    expect(withChinese("Color", null)).toBe("Color");
    expect(attributeLabel({ id: "COLOR", name: "Color", zh: "色彩" })).toBe("色彩（Color）");
    expect(attributeLabel({ id: "BRAND", name: "Marca", zh: null })).toBe("品牌（Marca）");
    expect(attributeLabel({ id: "HEEL_HEIGHT", name: "Altura del tacón", zh: null })).toBe("Altura del tacón");
  });

  it("names Mercado Libre item statuses in Chinese, never raw", () => {
    expect(meliItemStatusName("paused")).toBe("已暂停");
    expect(meliItemStatusName("under_review")).toBe("审核中");
    expect(meliItemStatusName("something_new")).toBe("其他状态");
  });
});
