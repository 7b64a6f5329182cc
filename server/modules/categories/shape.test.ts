// The pure conversions: the picker's tree from rows (hidden ancestors hide their subtree, a branch with nothing left to
// choose is dropped, leaves that cannot be listed in are left out) and Mercado Libre's attributes in the spec's shape.
import { describe, expect, it } from "vitest";
import { CategoryAttributeModelType } from "#shared/contract/category.ts";
import { buildTree, toAttributes, variantKeysOf, type NodeRow } from "./shape.ts";

const row = (cateId: string, pId: string | null, isLeaf: boolean, extra: Partial<NodeRow> = {}): NodeRow => ({
  cateId,
  pId,
  name: cateId,
  fullName: cateId,
  zh: null,
  alias: null,
  isLeaf,
  listingAllowed: isLeaf,
  visible: true,
  ...extra,
});

describe("buildTree", () => {
  it("keeps visible subtrees, drops hidden ones and branches left empty", () => {
    const { roots, count } = buildTree([
      row("A", null, false),
      row("B", null, false),
      row("C", null, false, { visible: false }),
      row("A1", "A", true, { zh: "甲", alias: "别名" }),
      row("A2", "A", true, { listingAllowed: false }),
      row("B1", "B", true, { visible: false }),
      row("C1", "C", true),
    ]);
    expect(roots).toEqual([
      { id: "A", name: "A", fullName: "A", children: [{ id: "A1", name: "A1", fullName: "A1", zh: "甲", alias: "别名", isLeaf: true }] },
    ]);
    expect(count).toBe(2);
  });
});

describe("toAttributes", () => {
  const meli = [
    { id: "BRAND", name: "Marca", tags: { required: true, catalog_required: true }, value_type: "string" },
    {
      id: "COLOR",
      name: "Color",
      tags: { allow_variations: true, defines_picture: true },
      value_type: "list",
      values: [{ id: "52049", name: "Negro" }],
    },
    { id: "SELLER_SKU", name: "SKU", tags: { variation_attribute: true }, value_type: "string" },
    { id: "ITEM_CONDITION", name: "Condición", tags: { hidden: true }, value_type: "list", values: [] },
    { id: "WIDTH", name: "Ancho", tags: {}, value_type: "number_unit", allowed_units: [{ id: "cm", name: "cm" }], default_unit: "cm" },
  ];

  it("maps tags to modelType and isRequired, names the product fields, and keeps Chinese names of unchanged texts", () => {
    const first = toAttributes(meli);
    expect(first.map((a) => [a.id, a.modelType, a.isRequired, a.alias])).toEqual([
      ["BRAND", CategoryAttributeModelType.Item, true, "brand"],
      ["COLOR", CategoryAttributeModelType.Variation, false, null],
      ["SELLER_SKU", CategoryAttributeModelType.VariationData, false, "sku"],
      ["ITEM_CONDITION", CategoryAttributeModelType.Hidden, false, "condition"],
      ["WIDTH", CategoryAttributeModelType.Item, false, null],
    ]);
    expect(first[4]).toMatchObject({ units: [{ id: "cm", name: "cm" }], defaultUnit: "cm", valueType: "number_unit" });
    expect(variantKeysOf(first)).toEqual(["COLOR"]);
    const translated = first.map((a) => ({ ...a, zh: `中${a.name}`, values: a.values.map((v) => ({ ...v, zh: `中${v.name}` })) }));
    const renamed = meli.map((a) => (a.id === "BRAND" ? { ...a, name: "Marca del producto" } : a));
    const again = toAttributes(renamed, translated);
    expect(again[0].zh).toBeNull();
    expect(again[1]).toMatchObject({ zh: "中Color", values: [{ id: "52049", name: "Negro", zh: "中Negro" }] });
  });
});
