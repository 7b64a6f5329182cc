// An item's attributes under its category's rules, refused with the causes the documentation gives:
// docs/12-products/validaciones.md (the cause table), docs/04-items/atributos.md (value types, tags), docs/12-products/
// identificadores-de-productos.md (GTIN and EMPTY_GTIN_REASON), docs/21-real-estate/variaciones-para-inmuebles.md
// (161 and 3510's code in the answer's own words).
import type { Attribute, Category } from "./categories.ts";
import { cause } from "./errors.ts";
import type { Checked } from "./item-rules.ts";
import type { AttributeValue, Store, Variation } from "./store.ts";

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);
export const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase();

const hasValue = (a: AttributeValue | undefined) => !!a && (a.value_id !== null || a.value_name !== null);

/** Where the attributes were sent: the item's list, a variation's attribute_combinations or its attributes. */
export type AttributePlace = "item" | "combination" | "variation";

function numberUnit(def: Attribute, raw: unknown): { number: number; unit: string } | null {
  if (isObject(raw) && typeof raw.number === "number" && typeof raw.unit === "string") {
    const unit = def.allowed_units?.find((u) => u.id.toLowerCase() === String(raw.unit).toLowerCase());
    return unit ? { number: raw.number, unit: unit.id } : null;
  }
  const m = /^\s*(\d+(?:[.,]\d+)?)\s*(\S.*?)?\s*$/.exec(str(raw) ?? "");
  if (!m) return null;
  const unit = def.allowed_units?.find((u) => fold(u.id) === fold(m[2] ?? ""));
  return unit ? { number: Number(m[1].replace(",", ".")), unit: unit.id } : null;
}

/** validaciones.md 3510 in the words the answers carry (variaciones-para-inmuebles.md: invalid.item.attribute.values). */
const invalidValue = (c: Checked, ref: string, id: string, valueId: string | null, valueName: string | null) => {
  c.causes.push(
    cause(
      3510,
      "invalid.item.attribute.values",
      [ref],
      `Attribute [${id}] is not valid, item values [(${valueId ?? "null"}:${valueName ?? "null"})]`,
      "error",
      "structured-data",
    ),
  );
  return null;
};

const normalized = (c: Checked, ref: string, id: string, sent: [string | null, string | null], known: { id: string; name: string }) =>
  c.warnings.push(
    cause(
      1212,
      "normalize.item.attribute.values",
      [ref],
      `Attribute [${id}] to be modified - values [(${sent[0] ?? "null"},${sent[1] ?? "null"})] should be [(${known.id},${known.name})] - Normalized form: [migration]`,
      "warning",
      "structured-data",
    ),
  );

/** One attribute of the request against its definition; null when it is dropped or wrong (a cause says why). */
function attributeValue(def: Attribute, input: Record<string, unknown>, c: Checked, ref: string): AttributeValue | null {
  const id = def.id;
  const valueId = str(input.value_id);
  const valueName = str(input.value_name);
  const out = (value_id: string | null, value_name: string | null, struct: AttributeValue["value_struct"] = null): AttributeValue => ({
    id,
    name: def.name,
    value_id,
    value_name,
    value_struct: struct,
    values: [{ id: value_id, name: value_name, struct }],
  });
  // Sent with null values: the attribute stays without a value (atributos.md "Eliminar atributos").
  if (valueId === null && valueName === null && !isObject(input.value_struct)) return out(null, null);
  if (valueName !== null && valueName.length > def.value_max_length) {
    c.causes.push(
      cause(
        154,
        "item.attributes.invalid_length",
        [ref],
        `Invalid value length for attribute ${id}. Maximum length is ${def.value_max_length}.`,
      ),
    );
    return null;
  }
  switch (def.value_type) {
    case "list":
    case "boolean":
    case "string": {
      const values = def.values ?? [];
      if (valueId !== null) {
        const v = values.find((x) => x.id === valueId);
        if (v) {
          if (valueName !== null && fold(valueName) !== fold(v.name)) normalized(c, ref, id, [valueId, valueName], v);
          return out(v.id, v.name);
        }
        // A string attribute's values are suggestions (atributos.md "string"): a name sent with an id the list does not
        // hold is kept as the seller's own value; a list or boolean takes only its listed ids.
        if (def.value_type === "string" && valueName !== null) {
          normalized(c, ref, id, [valueId, valueName], { id: "null", name: valueName });
          return out(null, valueName);
        }
        return invalidValue(c, ref, id, valueId, valueName);
      }
      const v = values.find((x) => fold(x.name) === fold(valueName ?? ""));
      if (v) {
        if (v.name !== valueName) normalized(c, ref, id, [null, valueName], v);
        return out(v.id, v.name);
      }
      // Booleans take only their two values (atributos.md: "es necesario enviar el id del valor"); lists and strings
      // also take custom names, as the real API does.
      if (def.value_type === "boolean") return invalidValue(c, ref, id, null, valueName);
      return out(null, valueName);
    }
    case "number": {
      const n = Number((valueName ?? "").replace(",", "."));
      if (valueName === null || !Number.isFinite(n)) {
        c.causes.push(
          cause(3708, "item.attribute.number_invalid_format", [ref], `The value you entered in ${id} is incorrect. An example is: 10.`),
        );
        return null;
      }
      return out(null, String(n));
    }
    case "number_unit": {
      const v = numberUnit(def, input.value_struct ?? valueName);
      if (!v) {
        c.causes.push(
          cause(
            3708,
            "item.attribute.number_invalid_format",
            [ref],
            `The value you entered in ${id} is incorrect. An example is: 10 ${def.default_unit ?? ""}.`.replace(" .", "."),
          ),
        );
        return null;
      }
      return out(null, `${v.number} ${v.unit}`, v);
    }
  }
}

/**
 * The request's attributes against the category. Unknown ones are dropped with a warning on the item; in a
 * variation's attribute_combinations only one attribute the category does not have is allowed (372), and a variation's
 * own attributes must carry the variation_attribute tag (161). Read-only ones are ignored.
 */
export function readAttributes(
  inputs: unknown,
  category: Category,
  c: Checked,
  prefix: string,
  place: AttributePlace = "item",
): AttributeValue[] {
  if (inputs === undefined || inputs === null) return [];
  if (!Array.isArray(inputs)) {
    c.causes.push(
      cause(101, "body.invalid_field_types", [prefix], `invalid property type: [${prefix}] expected List but was ${typeof inputs}`),
    );
    return [];
  }
  const out: AttributeValue[] = [];
  const custom: string[] = [];
  const notVariation: string[] = [];
  inputs.forEach((input, i) => {
    const ref = `${prefix}[${i}]`;
    if (!isObject(input) || typeof input.id !== "string") {
      c.causes.push(cause(101, "body.invalid_field_types", [ref], `invalid property type: [${ref}] expected Attribute`));
      return;
    }
    const def = category.attributes.find((a) => a.id === input.id);
    if (!def) {
      if (place === "combination") {
        // A custom variation attribute (variaciones.md "Característica personalizada"): kept by its name.
        custom.push(input.id);
        const name = str(input.value_name);
        if (name !== null)
          out.push({
            id: input.id,
            name: input.id,
            value_id: null,
            value_name: name,
            value_struct: null,
            values: [{ id: null, name, struct: null }],
          });
        return;
      }
      c.warnings.push(
        cause(
          3510,
          "item.attributes.dropped",
          [ref],
          `Attribute [${input.id}] does not exist in category ${category.id} and was dropped`,
          "warning",
        ),
      );
      return;
    }
    if (def.tags.read_only) return;
    if (place === "variation" && !def.tags.variation_attribute && !def.tags.allow_variations) {
      notVariation.push(def.id);
      return;
    }
    const v = attributeValue(def, input, c, ref);
    if (v) out.push(v);
  });
  if (custom.length > 1) {
    c.causes.push(
      cause(
        372,
        "item.attributes.non_existent.limit_exceded",
        [prefix],
        `The attribute_combinations not existing in category ${category.id} in the variation ${prefix} exceed the allowed amount, only 1 of this kind is allowed.`,
      ),
    );
  }
  if (notVariation.length) {
    c.causes.push(
      cause(
        161,
        "item.variations.variation_attributes.invalid",
        [prefix, "item.category_id"],
        `Attributes [${notVariation.join(", ")}] are invalid in variation attributes for category ${category.id} and channels [marketplace]. Check that they exist and have the tag variation_attribute.`,
      ),
    );
  }
  return out;
}

/** The value of an attribute on the item or on the variation (its combinations, then its attributes). */
const valueOn = (id: string, attributes: AttributeValue[], v: Variation | null) =>
  [...attributes, ...(v?.attribute_combinations ?? []), ...(v?.attributes ?? [])].find((a) => a.id === id && hasValue(a));

/** On the item, or on every variation when it has some. */
const presentEverywhere = (id: string, attributes: AttributeValue[], variations: Variation[]) =>
  variations.length ? variations.every((v) => valueOn(id, attributes, v)) : !!valueOn(id, attributes, null);

/**
 * Required attributes (147) on the item or on every variation; catalog_required ones not already asked for (3704,
 * "The {FIELD_ID} field is mandatory and was not added.").
 */
export function checkRequired(category: Category, attributes: AttributeValue[], variations: Variation[], c: Checked) {
  const missing = category.attributes.filter((d) => d.tags.required && !presentEverywhere(d.id, attributes, variations)).map((d) => d.id);
  if (missing.length) {
    c.causes.push(
      cause(
        147,
        "item.attributes.missing_required",
        ["item.attributes"],
        `The attributes [${missing.join(", ")}] are required for category ${category.id} and channel marketplace. Check the attribute is present in the attributes list or in all variation's attributes_combination or attributes.`,
      ),
    );
  }
  for (const def of category.attributes) {
    if (def.tags.catalog_required && !def.tags.required && !presentEverywhere(def.id, attributes, variations)) {
      c.causes.push(
        cause(3704, "item.attribute.missing_catalog_required", ["item.attributes"], `The ${def.id} field is mandatory and was not added.`),
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// GTIN (identificadores-de-productos.md; validaciones.md 7710, 7711, 3701, 7810).

/** A brand with at least this many GTINs published has GTIN required, not only conditional_required. */
export const BRAND_GTINS_REQUIRED = 30;

const gtinsOf = (a: AttributeValue | undefined) =>
  (a?.value_name ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** GS1's check digit: the last digit makes the weighted sum (3, 1, 3, … from the right) a multiple of 10. */
export function gtinChecks(code: string): boolean {
  let sum = 0;
  for (let i = code.length - 2, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += Number(code[i]) * w;
  return (10 - (sum % 10)) % 10 === Number(code[code.length - 1]);
}

/** The brand an item names, folded, or null. */
const brandOf = (attributes: AttributeValue[]) => {
  const b = attributes.find((a) => a.id === "BRAND" && hasValue(a));
  return b ? fold(b.value_name ?? b.value_id ?? "") : null;
};

/** Every GTIN an item carries (its own and its variations'). */
function itemGtins(attributes: AttributeValue[], variations: Variation[]): { code: string; ref: string }[] {
  const out = gtinsOf(attributes.find((a) => a.id === "GTIN")).map((code) => ({ code, ref: "item.attributes" }));
  variations.forEach((v, i) =>
    out.push(...gtinsOf(v.attributes.find((a) => a.id === "GTIN")).map((code) => ({ code, ref: `item.variations[${i}].attributes` }))),
  );
  return out;
}

/**
 * GTIN values and the conditional GTIN rule on a local site. A code with other than digits is 7710; a code of the wrong
 * length or check digit 7711; a code another brand's or another domain's listing already uses 3701. A category whose
 * GTIN is conditional_required takes an item without GTIN only with EMPTY_GTIN_REASON, unless the item's brand has
 * BRAND_GTINS_REQUIRED GTINs published, when GTIN itself is required (7810 names which).
 */
export function checkGtin(
  store: Store,
  category: Category,
  attributes: AttributeValue[],
  variations: Variation[],
  c: Checked,
  ownItemId: string | null,
) {
  const codes = itemGtins(attributes, variations);
  const brand = brandOf(attributes);
  for (const { code, ref } of codes) {
    if (!/^\d+$/.test(code)) {
      c.causes.push(
        cause(7710, "item.attribute.product_identifier.invalid", [ref], `Product Identifier [GTIN] has invalid values: [${code}].`),
      );
    } else if (![8, 12, 13, 14].includes(code.length) || !gtinChecks(code)) {
      c.causes.push(
        cause(
          7711,
          "item.attribute.product_identifier.invalid_format",
          [ref],
          `Product Identifier [GTIN] contains values with invalid format: [${code}].`,
        ),
      );
    }
  }
  const valid = new Set(codes.map((x) => x.code).filter((x) => /^\d+$/.test(x)));
  const brandCodes = new Set<string>();
  for (const other of store.state.items.values()) {
    if (other.deleted || other.id === ownItemId) continue;
    const otherBrand = brandOf(other.attributes);
    const theirs = itemGtins(other.attributes, other.variations).map((x) => x.code);
    if (brand && otherBrand === brand) for (const x of theirs) brandCodes.add(x);
    const clash = theirs.find((x) => valid.has(x));
    // A domain is the same on every site (MLM-X and CBT-X): a global item's code may be sold locally too.
    const sameDomain = other.domain_id.replace(/^[A-Z]+-/, "") === category.domainId.replace(/^[A-Z]+-/, "");
    if (clash && ((brand && otherBrand && otherBrand !== brand) || !sameDomain)) {
      c.causes.push(
        cause(
          3701,
          "item.attribute.invalid_product_identifier",
          ["item.attributes"],
          "Enter a universal code that you have not used in another brand listing/category listing.",
        ),
      );
      valid.delete(clash);
    }
  }
  const gtinDef = category.attributes.find((a) => a.id === "GTIN");
  if (!gtinDef?.tags.conditional_required || presentEverywhere("GTIN", attributes, variations)) return;
  const wanted =
    brandCodes.size >= BRAND_GTINS_REQUIRED
      ? "GTIN"
      : category.attributes.some((a) => a.id === "EMPTY_GTIN_REASON") && !valueOn("EMPTY_GTIN_REASON", attributes, null)
        ? "EMPTY_GTIN_REASON"
        : null;
  if (wanted) {
    c.causes.push(
      cause(
        7810,
        "item.attribute.missing_conditional_required",
        ["item.attributes"],
        `The attributes [${wanted}] are required for category [${category.id}]. Check the attribute is present in the attributes list or in all variation's attributes_combination or attributes.`,
        "error",
        "supply",
      ),
    );
  }
}

/** Global selling's package rules: every side at least 3 cm, at least 50 g (MERCADO-LIBRE.md, package rules). */
export function checkPackage(attributes: AttributeValue[], c: Checked) {
  const toCm: Record<string, number> = { cm: 1, in: 2.54 };
  const toG: Record<string, number> = { g: 1, kg: 1000, lb: 453.592 };
  for (const id of ["PACKAGE_LENGTH", "PACKAGE_WIDTH", "PACKAGE_HEIGHT", "PACKAGE_WEIGHT"]) {
    const v = attributes.find((a) => a.id === id)?.value_struct;
    if (!v) continue;
    const weight = id === "PACKAGE_WEIGHT";
    const value = v.number * ((weight ? toG : toCm)[v.unit] ?? 1);
    if (value < (weight ? 50 : 3)) invalidValue(c, "item.attributes", id, null, `${v.number} ${v.unit}`);
  }
}
