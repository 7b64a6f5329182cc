// Listing types as the seller reads them: every type the publish request takes has a Chinese name, and an id from
// Mercado Libre that we do not know is never shown raw.
import { describe, expect, it } from "vitest";
import { listingTypeName } from "./names.ts";
import { listingTypes } from "./publish.ts";

describe("listingTypeName", () => {
  it("names each listing type in Chinese, without the raw id", () => {
    expect(listingTypes.map(listingTypeName)).toEqual(["经典", "高级", "免费"]);
    expect(listingTypeName("gold_premium")).toBe("其他类型");
    expect(listingTypeName(null)).toBe("");
  });
});
