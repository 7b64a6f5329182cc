// The panel's required-attributes form asks what the console's publish screen asks (shared askedAttributes), and, with
// the product's variants as the publisher reads them (variantsOf), not the variation attributes they carry: a SIZE the
// variants differ by goes on each variation, which the pre-flight counts as given by the same rule. So filling what the
// form asks is exactly what the pre-flight's attribute rule wants, for a product by size and colour, by colour only and
// a plain one.
import { describe, expect, it } from "vitest";
import { CategoryAttributeModelType, type CategoryAttribute } from "#shared/contract/category.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID } from "#shared/contract/size-charts.ts";
import { askedAttributes } from "#shared/publish/category-form.ts";
import { preflight, type PreflightPair } from "#shared/publish/preflight.ts";
import { variantAttributes } from "#shared/publish/variations.ts";
import { variantsOf } from "./panel-size-chart.ts";

const attr = (id: string, name: string, tags: string[], modelType: number = CategoryAttributeModelType.Item): CategoryAttribute => ({
  id,
  name,
  zh: null,
  alias: null,
  defaultUnit: null,
  valueMaxLength: null,
  hierarchy: null,
  relevance: null,
  groupId: null,
  groupName: null,
  modelType,
  tags,
  isRequired: tags.includes("required"),
  valueType: "list",
  values: [],
  units: [],
});
/** The sandbox's clothing leaf on Mexico: SIZE required and a variation attribute, a size chart, GENDER required. */
const clothing = [
  attr("GENDER", "Género", ["required"]),
  attr("SIZE", "Talla", ["required", "allow_variations"], CategoryAttributeModelType.Variation),
  attr("COLOR", "Color", ["allow_variations", "defines_picture"], CategoryAttributeModelType.Variation),
  attr("MATERIAL", "Material", ["conditional_required"]),
  attr(SIZE_GRID_ID, "Guía de talles", ["required"]),
  attr(SIZE_GRID_ROW_ID, "Fila de la guía de talles", ["variation_attribute"]),
];

const product = (sizes: string[], colours: string[]) =>
  ({
    variants: colours.flatMap((c) =>
      sizes.map((s) => ({ sku: `${c}-${s}`, variant_Key: ["颜色", "尺码", "发货地"], variant_Values: [c, s, "中国"] })),
    ),
  }) as unknown as ProductDetail;

/** What the panel's form asks (required ones), as category.tsx's Attributes reads it. */
const asked = (p: ProductDetail) =>
  askedAttributes(clothing, variantsOf(p))
    .filter((a) => a.required)
    .map((a) => a.attr.id);

/** The pre-flight's missing required attributes once the item's `filled` are given (the size chart set apart). */
function missing(p: ProductDetail, filled: string[]) {
  const pair = {
    site: 1,
    product: {
      title: { es: "Playera" },
      price: "100",
      currency: "CNY",
      images: ["a.jpg"],
      weight: "200",
      size: "20x15x3",
      variants: variantsOf(p).map((v) => ({ sku: null, ...v })),
      attrs: filled.map((id) => ({ nameId: id, valueId: null, value: "x" })),
    },
    category: null,
    attributes: clothing,
    shop: { adjustRate: 1, tinyPrice: null, limitMinPrice: null, limitMaxPrice: null, overPrice: null },
    rates: [],
    request: {},
    translationConfigured: false,
    gtinAvailable: 0,
  } as unknown as PreflightPair;
  return preflight(pair)
    .problems.filter((x) => x.code === "attribute.required")
    .map((x) => x.field);
}

describe("the panel's required attributes", () => {
  it("does not ask the item's SIZE when the variants differ by size: the variations carry it", () => {
    const tee = product(["M", "L", "XL"], ["白色", "黑色"]);
    expect(variantAttributes(variantsOf(tee), clothing)).toEqual(new Set(["SIZE", "COLOR"]));
    expect(asked(tee)).toEqual(["GENDER"]);
    // What the form asks, filled, leaves the pre-flight nothing required to ask.
    expect(missing(tee, asked(tee))).toEqual([]);
    // Without the variants (the console's publish screen for many products) SIZE is asked; the size chart never is.
    expect(askedAttributes(clothing).map((a) => a.attr.id)).toEqual(["GENDER", "SIZE", "MATERIAL"]);
  });

  it("asks SIZE of an item whose variants do not differ by size, or a plain item, as the pre-flight requires it", () => {
    // Colours in one size: the size option has one value for every variant, so it is no variation.
    const colours = product(["M"], ["白色", "黑色"]);
    expect(asked(colours)).toEqual(["GENDER", "SIZE"]);
    expect(missing(colours, ["GENDER"])).toEqual(["attributes.SIZE"]);
    expect(missing(colours, asked(colours))).toEqual([]);
    const plain = product(["M"], ["白色"]);
    expect(asked(plain)).toEqual(["GENDER", "SIZE"]);
    expect(missing(plain, asked(plain))).toEqual([]);
  });
});
