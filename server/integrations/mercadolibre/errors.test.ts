// The Chinese reasons of Mercado Libre's refusals: every cause of docs/12-products/validaciones.md's table (its ids and
// codes, copied here from the page) reads in Chinese, by code, or by id where the table gives none (7714); the seller
// sees the reading followed by Mercado Libre's own message, warnings left out of the refusal.
import { describe, expect, it } from "vitest";
import { causeReading, MeliApiError } from "./errors.ts";

/** validaciones.md "Detalle": [cause_id, code] of each row ("" where the row has no code). */
const documented: [number, string][] = [
  [101, "body.invalid_field_types"],
  [109, "item.price.invalid"],
  [126, "item.category_id.invalid"],
  [129, "item.price.invalid"],
  [147, "item.attributes.missing_required"],
  [154, "item.attributes.invalid_length"],
  [173, "item.listing_type_id.requiresPictures"],
  [201, "item.pictures.max"],
  [204, "item.pictures.picture_not_found"],
  [369, "body.required_fields"],
  [372, "tem.attributes.non_existent.limit_exceded"],
  [382, "item.category_id.migrated"],
  [394, "item.attribute.values.name.invalid"],
  [465, "item.video_id.dropped"],
  [1212, "normalize.item.attribute.values"],
  [2511, "create.item.attribute.business_conditional"],
  [3250, "moderations.seller.not_authorized"],
  [4029, "shipping.me2_adoption_mandatory"],
  [7710, "item.attribute.product_identifier.invalid"],
  [7711, "item.attribute.product_identifier.invalid_format"],
  [7712, "item.attribute.product_identifier.invalid_by_domain_catalog"],
  [7714, ""],
  [7810, "item.attribute.missing_conditional_required"],
  [3701, "item.attribute.invalid_product_identifier"],
  [3702, "item.attribute.invalid_sanitary_registry_value"],
  [3703, "item.pictures.invalid_size"],
  [3704, "item.attribute.missing_catalog_required"],
  [3705, "item.title.minimum_length"],
  [3706, "item.pictures.unavailable"],
  [3707, "item.descriptions.length_exceeded"],
  [3708, "item.attribute.number_invalid_format"],
  [3709, "item.attribute.invalid_sale_units"],
  [3710, "item.attribute.invalid_voltage"],
  [3711, "item.attribute.gtin_invalid_domain"],
  // The table's code column for 3510 holds its message; the answers carry this code (variaciones-para-inmuebles.md).
  [3510, "invalid.item.attribute.values"],
  [3712, "item.attribute.gtin_invalid_brand"],
  [4210, "invalid.title.gender"],
];

const chinese = /[\u4e00-\u9fa5]/;

describe("Chinese reasons per cause code", () => {
  it("reads every documented cause in Chinese", () => {
    const missing = documented.filter(([id, code]) => !chinese.test(causeReading({ cause_id: id, code: code || undefined }) ?? ""));
    expect(missing).toEqual([]);
  });

  it("shows the reading with Mercado Libre's message, errors only, in the refusal", () => {
    const err = new MeliApiError("validation", {
      status: 400,
      error: "validation_error",
      message: "Validation error",
      cause: [
        {
          cause_id: 7810,
          type: "error",
          code: "item.attribute.missing_conditional_required",
          references: ["item.attributes"],
          message: "The attributes [EMPTY_GTIN_REASON] are required for category [MLM1055].",
        },
        { cause_id: 1212, type: "warning", code: "normalize.item.attribute.values", references: [], message: "normalized" },
      ],
    });
    expect(err.message).toBe(
      "美客多校验未通过：缺少类目条件必填属性（如 GTIN；无 GTIN 时需填写无 GTIN 原因）：The attributes [EMPTY_GTIN_REASON] are required for category [MLM1055].",
    );
    expect(err.validationErrors).toEqual([
      {
        message:
          "缺少类目条件必填属性（如 GTIN；无 GTIN 时需填写无 GTIN 原因）：The attributes [EMPTY_GTIN_REASON] are required for category [MLM1055].",
        members: ["item.attributes"],
      },
    ]);
  });

  it("an unknown code shows Mercado Libre's own message alone", () => {
    expect(causeReading({ code: "item.something.new", cause_id: 99999 })).toBeUndefined();
    const err = new MeliApiError("validation", {
      status: 400,
      cause: [{ type: "error", code: "item.something.new", message: "Something new" }],
    });
    expect(err.message).toBe("美客多校验未通过：Something new");
  });
});
