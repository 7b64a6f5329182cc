// The sizes a new chart is made of: the variants' values of the option that is the category's SIZE (by its name, zh or
// a synonym such as 尺码), once each in order; sizes typed with Chinese or Latin separators; the sizes a chart lacks.
import { describe, expect, it } from "vitest";
import { CategoryAttributeModelType, type CategoryAttribute } from "../contract/category.ts";
import { parseSizes, sizesMissingFrom, variantSizes } from "./size-chart-sizes.ts";

const attr = (id: string, name: string): CategoryAttribute => ({
  id,
  modelType: CategoryAttributeModelType.Variation,
  isRequired: false,
  name,
  alias: null,
  zh: null,
  values: [],
  units: [],
  defaultUnit: null,
  valueType: "list",
  valueMaxLength: null,
  tags: ["allow_variations"],
  hierarchy: null,
  relevance: null,
  groupId: null,
  groupName: null,
});
const attributes = [attr("COLOR", "Color"), attr("SIZE", "Talla")];

describe("size chart sizes", () => {
  it("reads the variants' sizes from the option that is SIZE, once each, in order", () => {
    const variants = [
      { keys: ["颜色", "尺码"], values: ["红", "M"] },
      { keys: ["颜色", "尺码"], values: ["蓝", "M"] },
      { keys: ["颜色", "尺码"], values: ["红", "XL"] },
      { keys: ["颜色", "尺码"], values: ["红", "m"] },
    ];
    expect(variantSizes(variants, attributes)).toEqual(["M", "XL"]);
    // Colours only: no sizes to offer.
    expect(variantSizes([{ keys: ["颜色"], values: ["红"] }], attributes)).toEqual([]);
  });

  it("parses typed sizes and finds those a chart lacks", () => {
    expect(parseSizes("S, M，L、XL\n xl ;")).toEqual(["S", "M", "L", "XL"]);
    expect(sizesMissingFrom([{ label: "S" }, { label: "M / 38" }], ["s", "38", "L"])).toEqual(["L"]);
  });
});
