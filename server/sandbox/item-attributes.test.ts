// An item's attributes as the documentation refuses them: GTIN values (validaciones.md 7710, 7711, 3701), the
// conditional GTIN rule and EMPTY_GTIN_REASON with its documented values (identificadores-de-productos.md, 7810),
// catalog_required (3704), a variation's own attributes and custom combinations (161, 372), real value ids the
// documentation gives (a brand's, GENDER's) and the string attributes' own names (atributos.md).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Category } from "./categories.ts";
import { BRAND_GTINS_REQUIRED, gtinChecks } from "./item-attributes.ts";
import { itemBody, plainLeaf, requiredAttributes, startSandbox, variationLeaf, type TestSandbox } from "../testing/sandbox-kit.ts";

let t: TestSandbox;
let token: string;
let leaf: Category;

beforeEach(async () => {
  t = await startSandbox();
  token = (await t.connect("ATTR_SELLER")).access_token;
  leaf = plainLeaf(t.sandbox, "MLM");
});
afterEach(() => t.close());

const create = (overrides: Record<string, unknown> = {}, category = leaf, as = token) =>
  t.call("POST", "/items", { token: as, body: itemBody(category, overrides) });
const causes = (body: { cause?: { cause_id: number; code: string }[] }) => (body.cause ?? []).map((c) => `${c.cause_id} ${c.code}`);

/** A GTIN-13 with its check digit, from 12 digits. */
function gtin(body12: string): string {
  for (let d = 0; d <= 9; d++) if (gtinChecks(body12 + d)) return body12 + d;
  throw new Error("no check digit");
}

/** The leaf's required attributes with the given brand name and GTIN (no EMPTY_GTIN_REASON). */
const withGtin = (code: string, brand = "Marca Prueba", category = leaf) => [
  ...requiredAttributes(category).filter((a) => a.id !== "BRAND"),
  { id: "BRAND", value_name: brand },
  { id: "GTIN", value_name: code },
];

describe("GTIN", () => {
  it("checks a GTIN's characters (7710) and its length and check digit (7711); a valid one needs no reason", async () => {
    expect(gtinChecks("7898945080293")).toBe(true);
    const letters = await create({ attributes: withGtin("78989450802AB") });
    expect(causes(letters.body)).toEqual(["7710 item.attribute.product_identifier.invalid"]);
    expect(letters.body.cause[0].message).toBe("Product Identifier [GTIN] has invalid values: [78989450802AB].");
    const checkDigit = await create({ attributes: withGtin("7898945080294") });
    expect(causes(checkDigit.body)).toEqual(["7711 item.attribute.product_identifier.invalid_format"]);
    expect(checkDigit.body.cause[0].message).toBe("Product Identifier [GTIN] contains values with invalid format: [7898945080294].");
    expect(causes((await create({ attributes: withGtin("12345") })).body)).toEqual([
      "7711 item.attribute.product_identifier.invalid_format",
    ]);
    expect((await create({ attributes: withGtin("7898945080293") })).status).toBe(201);
  });

  it("asks for EMPTY_GTIN_REASON without a GTIN, and takes its documented values", async () => {
    const attrs = (await t.call("GET", `/categories/${leaf.id}/attributes`)).body as { id: string; tags: object; values?: object[] }[];
    expect(attrs.find((a) => a.id === "GTIN")!.tags).toMatchObject({ conditional_required: true });
    const reason = attrs.find((a) => a.id === "EMPTY_GTIN_REASON")!;
    expect(reason).toMatchObject({ tags: { conditional_required: true }, value_type: "list" });
    expect(reason.values).toEqual([
      { id: "17055158", name: "Artesanal" },
      { id: "17055159", name: "Kit" },
      { id: "17055160", name: "No registrado" },
      { id: "17055161", name: "Otro" },
    ]);
    const none = await create({ attributes: requiredAttributes(leaf) });
    expect(none.body.cause).toEqual([
      {
        department: "supply",
        cause_id: 7810,
        type: "error",
        code: "item.attribute.missing_conditional_required",
        references: ["item.attributes"],
        message: `The attributes [EMPTY_GTIN_REASON] are required for category [${leaf.id}]. Check the attribute is present in the attributes list or in all variation's attributes_combination or attributes.`,
      },
    ]);
    const kit = await create({ attributes: [...requiredAttributes(leaf), { id: "EMPTY_GTIN_REASON", value_id: "17055159" }] });
    expect(kit.status).toBe(201);
    expect(kit.body.attributes.find((a: { id: string }) => a.id === "EMPTY_GTIN_REASON")).toMatchObject({
      value_id: "17055159",
      value_name: "Kit",
    });
    const unknownReason = await create({ attributes: [...requiredAttributes(leaf), { id: "EMPTY_GTIN_REASON", value_id: "17055162" }] });
    expect(causes(unknownReason.body)).toContain("3510 invalid.item.attribute.values");
  });

  it("requires the GTIN itself of a brand with 30 GTINs published, whatever the reason says", async () => {
    for (let i = 0; i < BRAND_GTINS_REQUIRED; i++) {
      const res = await create({ attributes: withGtin(gtin(`7791234${String(i).padStart(5, "0")}`), "Marca Grande") });
      expect(res.status, res.raw).toBe(201);
    }
    const reasonOnly = await create({
      attributes: [
        ...requiredAttributes(leaf).filter((a) => a.id !== "BRAND"),
        { id: "BRAND", value_name: "Marca Grande" },
        { id: "EMPTY_GTIN_REASON", value_id: "17055160" },
      ],
    });
    expect(causes(reasonOnly.body)).toEqual(["7810 item.attribute.missing_conditional_required"]);
    expect(reasonOnly.body.cause[0].message).toContain("The attributes [GTIN] are required");
    // Another brand still lists with the reason.
    expect((await create({ attributes: [...requiredAttributes(leaf), { id: "EMPTY_GTIN_REASON", value_id: "17055160" }] })).status).toBe(
      201,
    );
  });

  it("refuses a GTIN another brand's listing uses (3701), on a create and on a PUT", async () => {
    const code = gtin("779100000001");
    expect((await create({ attributes: withGtin(code, "Marca Uno") })).status).toBe(201);
    const other = (await t.connect("ATTR_OTHER")).access_token;
    const clash = await create({ attributes: withGtin(code, "Marca Dos") }, leaf, other);
    expect(clash.body.cause).toEqual([
      expect.objectContaining({
        cause_id: 3701,
        code: "item.attribute.invalid_product_identifier",
        message: "Enter a universal code that you have not used in another brand listing/category listing.",
      }),
    ]);
    // The same brand may list the code again (another seller of the product).
    expect((await create({ attributes: withGtin(code, "Marca Uno") }, leaf, other)).status).toBe(201);
    const mine = await create({ attributes: withGtin(gtin("779100000002"), "Marca Dos") });
    const put = await t.call("PUT", `/items/${mine.body.id}`, { token, body: { attributes: [{ id: "GTIN", value_name: code }] } });
    expect(causes(put.body)).toEqual(["3701 item.attribute.invalid_product_identifier"]);
  });
});

describe("attribute values and tags", () => {
  it("takes the documented real value ids (Samsung 206, GENDER's) and a string attribute's own name", async () => {
    const withSamsung = t.sandbox.store.trees.MLM.all.find(
      (c) => c.leaf && c.attributes.find((a) => a.id === "BRAND")?.values?.some((v) => v.name === "Samsung"),
    )!;
    expect(withSamsung.attributes.find((a) => a.id === "BRAND")!.values).toContainEqual({ id: "206", name: "Samsung" });
    const base = itemBody(withSamsung).attributes.filter((a) => a.id !== "BRAND");
    const samsung = await create({ attributes: [...base, { id: "BRAND", value_id: "206" }] }, withSamsung);
    expect(samsung.status, samsung.raw).toBe(201);
    expect(samsung.body.attributes.find((a: { id: string }) => a.id === "BRAND")).toMatchObject({ value_id: "206", value_name: "Samsung" });
    const fashion = t.sandbox.store.trees.MLM.all.find((c) => c.leaf && c.attributes.some((a) => a.id === "GENDER"))!;
    expect(fashion.attributes.find((a) => a.id === "GENDER")!.values).toContainEqual({ id: "339665", name: "Mujer" });
    // A brand id the short list does not hold, sent with its name: kept as the seller's own value, with a warning.
    const own = await create({
      attributes: [...itemBody(leaf).attributes.filter((a) => a.id !== "BRAND"), { id: "BRAND", value_id: "20262", value_name: "AOC" }],
    });
    expect(own.status).toBe(201);
    expect(own.body.attributes.find((a: { id: string }) => a.id === "BRAND")).toMatchObject({ value_id: null, value_name: "AOC" });
    expect(causes(own.body.warnings ? { cause: own.body.warnings } : {})).toContain("1212 normalize.item.attribute.values");
    // A list attribute takes only its own ids.
    const badReason = await create({
      attributes: [...requiredAttributes(leaf), { id: "EMPTY_GTIN_REASON", value_id: "1", value_name: "x" }],
    });
    expect(badReason.body.cause).toContainEqual(
      expect.objectContaining({
        cause_id: 3510,
        code: "invalid.item.attribute.values",
        message: "Attribute [EMPTY_GTIN_REASON] is not valid, item values [(1:x)]",
      }),
    );
  });

  it("asks for a catalog_required attribute (3704)", async () => {
    const model = leaf.attributes.find(
      (a) => !a.tags.required && a.value_type === "string" && !a.tags.hidden && a.id !== "GTIN" && a.id !== "SELLER_SKU",
    )!;
    const saved = model.tags;
    model.tags = { ...saved, catalog_required: true };
    try {
      const res = await create();
      expect(res.body.cause).toEqual([
        expect.objectContaining({
          cause_id: 3704,
          code: "item.attribute.missing_catalog_required",
          message: `The ${model.id} field is mandatory and was not added.`,
        }),
      ]);
      expect((await create({ attributes: [...itemBody(leaf).attributes, { id: model.id, value_name: "X1" }] })).status).toBe(201);
    } finally {
      model.tags = saved;
    }
  });

  it("takes one custom combination attribute, not two (372); a variation's own attributes need variation_attribute (161)", async () => {
    const cat = variationLeaf(t.sandbox, "MLM");
    const color = cat.attributes.find((a) => a.id === "COLOR")!.values![0];
    const variation = (extra: object[], attributes: object[] = []) => ({
      variations: [{ attribute_combinations: [{ id: "COLOR", value_id: color.id }, ...extra], available_quantity: 1, attributes }],
    });
    const custom = await create(variation([{ id: "Estampado", value_name: "Flores" }]), cat);
    expect(custom.status, custom.raw).toBe(201);
    expect(custom.body.variations[0].attribute_combinations).toContainEqual(
      expect.objectContaining({ id: "Estampado", value_name: "Flores" }),
    );
    const two = await create(
      variation([
        { id: "Estampado", value_name: "Flores" },
        { id: "Acabado", value_name: "Mate" },
      ]),
      cat,
    );
    expect(causes(two.body)).toEqual(["372 item.attributes.non_existent.limit_exceded"]);
    const brandOnVariation = await create(variation([], [{ id: "BRAND", value_name: "X" }]), cat);
    expect(brandOnVariation.body.cause).toEqual([
      expect.objectContaining({
        cause_id: 161,
        code: "item.variations.variation_attributes.invalid",
        message: `Attributes [BRAND] are invalid in variation attributes for category ${cat.id} and channels [marketplace]. Check that they exist and have the tag variation_attribute.`,
      }),
    ]);
  });
});
