// Contract tests of listing_prices (comision-por-vender.md): the documented list, and the single entry the page shows
// for a category and listing type, both read as a list; the page's parameters go out by their names; an entry without
// its amounts is a bad response.
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { MeliApiError } from "../errors.ts";
import { getListingPrices } from "./fees.ts";

// "Obtener el costo de envío según nueva estructura": one listing type, its fixed fee for the logistic type asked.
const classic = {
  currency_id: "MXN",
  listing_type_id: "gold_special",
  listing_type_name: "Clásica",
  listing_exposure: "highest",
  listing_fee_amount: 0,
  listing_fee_details: { fixed_fee: 0, gross_amount: 0 },
  requires_picture: true,
  sale_fee_amount: 26,
  sale_fee_details: { financing_add_on_fee: 0, fixed_fee: 0, gross_amount: 26, meli_percentage_fee: 13, percentage_fee: 13 },
  stop_time: "2043-06-01T00:00:00.000-04:00",
};
const premium = {
  ...classic,
  listing_type_id: "gold_pro",
  listing_type_name: "Premium",
  sale_fee_amount: 34,
  sale_fee_details: { ...classic.sale_fee_details, gross_amount: 34, percentage_fee: 17 },
};

describe("GET /sites/{SITE}/listing_prices", () => {
  it("sends the page's parameters and reads the list of listing types", async () => {
    const s = contractSession({ "GET /sites/MLM/listing_prices": [premium, classic] });
    const fees = await getListingPrices(s, "MLM", {
      price: 200,
      categoryId: "MLM1055",
      currencyId: "MXN",
      logisticType: "drop_off",
      shippingMode: "me2",
    });
    expect(s.calls[0].query).toEqual({
      price: 200,
      category_id: "MLM1055",
      listing_type_id: undefined,
      currency_id: "MXN",
      logistic_type: "drop_off",
      shipping_mode: "me2",
      billable_weight: undefined,
      quantity: undefined,
    });
    expect(fees.map((f) => [f.listing_type_id, f.sale_fee_details?.percentage_fee, f.sale_fee_details?.fixed_fee])).toEqual([
      ["gold_pro", 17, 0],
      ["gold_special", 13, 0],
    ]);
  });

  it("reads the single entry the page shows for one category and listing type as a list of one", async () => {
    const s = contractSession({ "GET /sites/MLM/listing_prices": classic });
    const fees = await getListingPrices(s, "MLM", { price: 200, categoryId: "MLM1055", listingTypeId: "gold_special" });
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({ listing_type_id: "gold_special", currency_id: "MXN", listing_fee_amount: 0 });
  });

  it("an entry without its sale fee is a bad response naming the field", async () => {
    const { sale_fee_amount: _gone, ...broken } = classic;
    void _gone;
    const s = contractSession({ "GET /sites/MLM/listing_prices": [broken] });
    const err = await getListingPrices(s, "MLM", { price: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect((err as MeliApiError).kind).toBe("bad-response");
    expect((err as MeliApiError).meli.message).toContain("sale_fee_amount");
  });
});
