// The GS1 check shared by the console's GTIN screen (which codes of a paste are invalid before sending) and SetCodes.
import { describe, expect, it } from "vitest";
import { checkCodes, isGtin, splitCodes } from "./gtin.ts";

describe("isGtin", () => {
  it("accepts EAN-8, UPC-A, EAN-13 and GTIN-14 with their check digit", () => {
    for (const ok of ["96385074", "036000291452", "4006381333931", "10614141000415", "00000000", "0000000000000"])
      expect(isGtin(ok), ok).toBe(true);
  });
  it("refuses a wrong check digit, a wrong length, letters and spaces", () => {
    for (const bad of [
      "96385075",
      "036000291453",
      "4006381333932",
      "10614141000416",
      "1234567",
      "123456789",
      "12345678901",
      "400638133393100",
      "40063813339a1",
      " 4006381333931",
      "",
    ])
      expect(isGtin(bad), bad).toBe(false);
  });
});

describe("checkCodes", () => {
  it("splits on lines, commas, semicolons (also full-width), spaces and a csv's quotes", () => {
    expect(splitCodes('96385074,036000291452；4006381333931\r\n"10614141000415"\t x ')).toEqual([
      "96385074",
      "036000291452",
      "4006381333931",
      "10614141000415",
      "x",
    ]);
  });
  it("answers the valid codes once each in order, the invalid ones once each, and how many repeated", () => {
    expect(checkCodes("4006381333931\n96385074\n4006381333931\nabc\n12345\nabc\n")).toEqual({
      valid: ["4006381333931", "96385074"],
      invalid: ["abc", "12345"],
      repeated: 2,
    });
    expect(checkCodes(" \n ")).toEqual({ valid: [], invalid: [], repeated: 0 });
  });
});
