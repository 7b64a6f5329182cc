import { describe, expect, it } from "vitest";
import { categorySitesOf } from "#shared/publish/sites.ts";
import { initialOptions, missingByForm, toPublishRequest } from "./publish-page.tsx";

const lamp = { cateId: "CBT1", cateName: "Desk Lamps", attrs: { BRAND: { valueId: "7", valueName: "Ikea" } } };

describe("the publish screen's categories per shop", () => {
  it("sends a global-selling shop's category as the global site's, for every site it sells on", () => {
    const request = toPublishRequest({
      groupId: "g1",
      sites: [1, 2],
      categorySites: categorySitesOf(true, [1, 2]),
      productIds: ["p1", "p2"],
      // A category left from before the shop changed is not sent.
      choices: { 5: lamp, 1: { cateId: "MLM1", cateName: "x", attrs: {} } },
      options: initialOptions,
    });
    expect(request.sites).toEqual([1, 2]);
    expect(request.cateInfo).toEqual([{ site: 5, cateId: "CBT1", attrs: [{ id: "BRAND", valueId: "7", valueName: "Ikea" }] }]);
  });

  it("marks the attributes the pre-flight missed on any site of a global-selling shop in its one form", () => {
    const missing = new Map([
      [1, new Set(["BRAND"])],
      [2, new Set(["BRAND", "MODEL"])],
    ]);
    expect(missingByForm(missing, false)).toBe(missing);
    expect(missingByForm(missing, true)).toEqual(new Map([[5, new Set(["BRAND", "MODEL"])]]));
    expect(missingByForm(new Map(), true)).toEqual(new Map());
  });
});
