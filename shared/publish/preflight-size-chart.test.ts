// The pre-flight's size chart rule (fashion categories whose attributes have SIZE_GRID_ID): the chart must be chosen,
// and for a plain item its row where the category asks SIZE_GRID_ROW_ID; an item with variations names no item-level
// row; neither attribute is also reported as a generic missing required attribute.
import { describe, expect, it } from "vitest";
import { CategoryAttributeModelType, type CategoryAttribute } from "../contract/category.ts";
import { preflight, type PreflightPair } from "./preflight.ts";

const attr = (id: string, tags: string[] = [], modelType: number = CategoryAttributeModelType.Item): CategoryAttribute => ({
  id,
  modelType,
  isRequired: tags.includes("required"),
  name: id,
  alias: null,
  zh: null,
  values: [],
  units: [],
  defaultUnit: null,
  valueType: "string",
  valueMaxLength: null,
  tags,
  hierarchy: null,
  relevance: null,
  groupId: null,
  groupName: null,
});

const pair = (attributes: CategoryAttribute[], attrs: { id: string; valueName: string }[] = [], variants = false): PreflightPair => ({
  site: 1,
  product: {
    title: { es: "Blusa de algodón para mujer" },
    description: { es: "Blusa" },
    price: "100",
    currency: "CNY",
    images: ["https://img.example/a.jpg"],
    weight: "200",
    size: "20x15x3",
    brand: "Acme",
    variants: variants
      ? [
          { sku: "B-S", keys: ["Talla"], values: ["S"] },
          { sku: "B-M", keys: ["Talla"], values: ["M"] },
        ]
      : [],
    attrs: [],
  },
  category: {
    cateId: "MLM1",
    name: "Blusas",
    isLeaf: true,
    listingAllowed: true,
    maxTitleLength: 60,
    maxPictures: 10,
    minimumPrice: null,
    currency: "MXN",
    classicFee: "13.5",
    premiumFee: "17.5",
  },
  attributes,
  shop: { adjustRate: 1, tinyPrice: null, limitMinPrice: null, limitMaxPrice: null, overPrice: null },
  rates: [
    { code: "CNY", rate: "1" },
    { code: "MXN", rate: "0.4" },
  ],
  request: { attrs },
  translationConfigured: false,
  gtinAvailable: 0,
});

const codes = (p: PreflightPair) => preflight(p).problems.filter((x) => /sizeChart|SIZE_GRID/.test(`${x.code}${x.field}`));
const fashion = [
  attr("SIZE_GRID_ID", ["required"]),
  attr("SIZE_GRID_ROW_ID", ["required"]),
  attr("SIZE", ["allow_variations"], CategoryAttributeModelType.Variation),
];

describe("size chart pre-flight", () => {
  it("asks for the chart, in Chinese, and not as a generic missing attribute", () => {
    const problems = codes(pair(fashion));
    expect(problems.map((p) => [p.code, p.severity, p.fix])).toEqual([["sizeChart.missing", "error", "attribute:SIZE_GRID_ID"]]);
    expect(problems[0].message).toContain("尺码表");
  });

  it("asks a plain item for its row once the chart is chosen, and is satisfied by both", () => {
    expect(codes(pair(fashion, [{ id: "SIZE_GRID_ID", valueName: "500001" }])).map((p) => p.code)).toEqual(["sizeChart.rowMissing"]);
    const both = [
      { id: "SIZE_GRID_ID", valueName: "500001" },
      { id: "SIZE_GRID_ROW_ID", valueName: "500001:2" },
    ];
    expect(codes(pair(fashion, both))).toEqual([]);
  });

  it("does not ask an item with variations for an item-level row, nor a category without SIZE_GRID_ID for a chart", () => {
    expect(codes(pair(fashion, [{ id: "SIZE_GRID_ID", valueName: "500001" }], true))).toEqual([]);
    expect(codes(pair([attr("SIZE_GRID_ROW_ID", ["required"])]))).toEqual([]);
    expect(codes(pair([attr("BRAND")]))).toEqual([]);
  });
});
