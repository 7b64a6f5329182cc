// The panel's publish request: a global shop's one global category, a local shop group's category per chosen site
// (the product's own where it is on that site, else the one chosen there with its attribute values), checked against
// the server's contract.
import { describe, expect, it } from "vitest";
import type { ProductDetail } from "#shared/contract/product.ts";
import { publishRequest } from "#shared/contract/publish.ts";
import { categorySources, publishRequestOf, type SiteCategory } from "./panel-publish.ts";

const GROUP = "9b1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e";
const product = (cateInfo: ProductDetail["cateInfo"]) =>
  ({ id: "3f1c0c4e-8a51-4a2b-9b7e-1f2a3b4c5d6e", cateInfo }) as unknown as ProductDetail;
const onMexico = product({ site: 1, cateId: "MLM1", attrs: [{ nameId: "BRAND", name: "Marca", valueId: null, value: "Acme" }] });
const onCbt = product({ site: 5, cateId: "CBT1", attrs: [] });
const brazil: SiteCategory = {
  cateId: "MLB2",
  name: "Camisetas",
  attrs: { COLOR: { valueId: "52049", value: "Preto" }, MODEL: { valueId: null, value: " X1 " }, EMPTY: { valueId: null, value: " " } },
};

describe("panel publish request", () => {
  it("a global shop lists in its one global category, whatever was chosen per site", () => {
    const r = publishRequestOf(onCbt, GROUP, true, [1, 2], { 2: brazil });
    expect(r).toEqual({ accountGroupId: GROUP, sites: [1, 2], productIds: [onCbt.id], cateInfo: [{ site: 5, cateId: "CBT1", attrs: [] }] });
    // A product on a local site's category has no global category: none is sent, the pre-flight says so.
    expect(publishRequestOf(onMexico, GROUP, true, [1, 2]).cateInfo).toEqual([]);
    expect(categorySources({ site: 1, cateId: "MLM1" }, true, [1, 2], { 5: brazil })).toEqual([{ site: 5, from: "none" }]);
  });

  it("a local group lists each chosen site in the product's category where it is on that site, else the site's chosen one", () => {
    expect(categorySources({ site: 1, cateId: "MLM1" }, false, [2, 1], {})).toEqual([
      { site: 1, from: "product" },
      { site: 2, from: "none" },
    ]);
    const r = publishRequestOf(onMexico, GROUP, false, [1, 2], { 2: brazil });
    expect(r.cateInfo).toEqual([
      { site: 1, cateId: "MLM1", attrs: [{ id: "BRAND", valueId: null, valueName: "Acme" }] },
      // Empty values are left out; typed ones are trimmed.
      {
        site: 2,
        cateId: "MLB2",
        attrs: [
          { id: "COLOR", valueId: "52049", valueName: "Preto" },
          { id: "MODEL", valueId: null, valueName: "X1" },
        ],
      },
    ]);
    expect(publishRequest.safeParse(r).success).toBe(true);
    // The product's own category wins on its site; a site not chosen is not sent.
    expect(publishRequestOf(onMexico, GROUP, false, [1], { 1: brazil, 2: brazil }).cateInfo).toEqual([r.cateInfo![0]]);
  });

  it("a local group's site with neither the product's category nor a chosen one has none", () => {
    const none = product(null);
    expect(categorySources({ site: null, cateId: "" }, false, [1, 2], { 2: { ...brazil, cateId: "" } })).toEqual([
      { site: 1, from: "none" },
      { site: 2, from: "none" },
    ]);
    expect(publishRequestOf(none, GROUP, false, [1, 2], {}).cateInfo).toEqual([]);
  });
});
