import { describe, expect, it } from "vitest";
import type { PreflightPairView } from "#shared/contract/publish.ts";
import { sitePrice, type PriceBreakdown } from "#shared/publish/price.ts";
import { WORKED_EXAMPLE } from "#shared/publish/worked-example.ts";
import { fixTarget, missingAttributes, previewMoney, previewRows } from "./publish-names.ts";
import { toPublishRequest } from "./publish-page.tsx";

// The worked example of docs/decisions.md, priced by the one formula as the server prices it.
const worked = sitePrice(WORKED_EXAMPLE);
if (!worked.ok) throw new Error(worked.message);
const mx: PriceBreakdown = worked.price;

const pair = (over: Partial<PreflightPairView>): PreflightPairView => ({
  productId: "p1",
  productTitle: "Bocina",
  image: null,
  site: 1,
  cateId: "MLM1",
  cateName: "Bocinas",
  ok: true,
  title: "Bocina",
  problems: [],
  price: mx,
  ...over,
});

describe("publish preview", () => {
  it("shows the breakdown's money in its currency, with the fees together", () => {
    expect(previewMoney(mx)).toMatchObject({
      currency: "MXN",
      price: "514.99",
      cost: "253.16",
      fees: "69.52",
      freight: "45.50",
      net: "445.47",
      margin: "146.81",
      marginPercent: "28.51%",
      negative: false,
    });
    // Whole pesos: no decimals; a loss is flagged.
    const cl = previewMoney({ ...mx, currency: "CLP", decimals: 0, price: 15125, margin: -12 });
    expect(cl).toMatchObject({ price: "15125", margin: "-12", negative: true });
    expect(previewMoney(null)).toBeNull();
  });

  it("puts refused pairs first and splits errors from warnings", () => {
    const rows = previewRows([
      pair({ productId: "a" }),
      pair({
        productId: "b",
        ok: false,
        problems: [
          { code: "attribute.conditional", severity: "warning", field: null, message: "建议填写", fix: "attribute:EMPTY_GTIN_REASON" },
          { code: "attribute.required", severity: "error", field: null, message: "缺少必填属性「Modelo」", fix: "attribute:MODEL" },
        ],
      }),
    ]);
    expect(rows.map((r) => r.key)).toEqual(["b:1", "a:1"]);
    expect(rows[0].errors.map((p) => p.code)).toEqual(["attribute.required"]);
    expect(rows[0].warnings.map((p) => p.code)).toEqual(["attribute.conditional"]);
    expect(missingAttributes(rows)).toEqual(new Map([[1, new Set(["MODEL"])]]));
  });

  it("reads where a problem is fixed", () => {
    expect(fixTarget("attribute:BRAND")).toEqual({ kind: "attribute", id: "BRAND" });
    expect(fixTarget("gtin")).toEqual({ kind: "gtin" });
    expect(fixTarget("product")).toEqual({ kind: "product" });
    expect(fixTarget("elsewhere")).toBeNull();
    expect(fixTarget(null)).toBeNull();
  });

  it("builds the publish request: categories with filled attributes only, overrides only when given", () => {
    const request = toPublishRequest({
      groupId: "g1",
      sites: [1, 3],
      productIds: ["p1"],
      choices: {
        1: {
          cateId: "MLM1",
          cateName: "x",
          attrs: { MODEL: { valueName: " X1 " }, BRAND: { valueId: "9", valueName: "Sony" }, COLOR: { valueName: "" } },
        },
      },
      options: {
        listingType: "gold_pro",
        stock: "5",
        isForceReplaceStock: true,
        weight: "",
        size: "20x10x5",
        isForceReplaceWeightAndSize: false,
        prefixTitle: "",
        suffixTitle: " Nuevo ",
        prefixDescription: "",
        suffixDescription: "",
        warrantType: "2230280",
        warrantyDay: "90",
        isContainsFreight: true,
        productLabel: "none",
        maxProductCount: "",
        isAllowDuplicate: true,
      },
    });
    expect(request).toEqual({
      accountGroupId: "g1",
      sites: [1, 3],
      productIds: ["p1"],
      cateInfo: [
        {
          site: 1,
          cateId: "MLM1",
          attrs: [
            { id: "MODEL", valueId: null, valueName: "X1" },
            { id: "BRAND", valueId: "9", valueName: "Sony" },
          ],
        },
      ],
      listingType: "gold_pro",
      stock: 5,
      isForceReplaceStock: true,
      size: "20x10x5",
      isForceReplaceWeightAndSize: false,
      isAllowDuplicate: true,
      suffixTitle: "Nuevo",
      warrantType: "2230280",
      warrantyDay: 90,
      isContainsFreight: true,
    });
  });
});
