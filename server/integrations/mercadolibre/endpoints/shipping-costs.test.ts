// Contract of the shipping-cost quotes (docs/13-shipping/costos-de-envios.md; Global Selling "Shipping fee calculator"):
// documented example answers, written from the pages, go through each endpoint's schema and the freight table code that
// reads them (modules/freight/quote.ts); a drifted answer is a bad-response naming the endpoint and the field.
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { FREIGHT_BANDS, parcelOf, QUOTE_PRICE, quoteGlobalTable, quoteLocalTable } from "../../../modules/freight/quote.ts";
import { MeliApiError } from "../errors.ts";
import { dimensionsParam, getFreeShippingCost, getGlobalShipmentCosts } from "./shipping-costs.ts";

/** "Consultar costos de envíos de un ítem", verbose with a discount (list_cost after it; promoted_amount before). */
const freeAnswer = {
  coverage: {
    all_country: { list_cost: 120.5, currency_id: "MXN", billable_weight: 462 },
    discount: { rate: 0.4, type: "loyal", promoted_amount: 200.83 },
  },
};

/** "Get shipment cost presales": one quote per marketplace and logistic type, USD, weights in lb. */
const globalAnswer = [
  {
    list_cost: 9.61,
    site_id: "MCO",
    currency: "USD",
    logistic_type: "remote",
    weight: { unit: "lb", net_value: 4, volumetric_value: 4.564 },
    billable_weight: { unit: "lb", value: 4.564, type: "volumetric" },
  },
  {
    list_cost: 21.03,
    site_id: "MLM",
    currency: "USD",
    logistic_type: "remote",
    weight: { unit: "lb", net_value: 4, volumetric_value: 4.564 },
    billable_weight: { unit: "lb", value: 4.564, type: "volumetric" },
  },
  { list_cost: 30.5, site_id: "MLM", currency: "USD", logistic_type: "fulfillment", billable_weight: { unit: "lb", value: 4.5 } },
];

describe("GET /users/{id}/shipping_options/free", () => {
  it("sends dimensions, price, listing type and free shipping, and reads the seller's cost", async () => {
    const s = contractSession({ "GET /users/244878077/shipping_options/free": freeAnswer });
    const got = await getFreeShippingCost(s, "244878077", {
      dimensions: dimensionsParam([9, 17, 22], 462),
      itemPrice: 300,
      listingTypeId: "gold_pro",
      freeShipping: true,
    });
    expect(got.coverage.all_country).toMatchObject({ list_cost: 120.5, currency_id: "MXN" });
    expect(got.coverage.discount?.rate).toBe(0.4);
    expect(s.calls[0].query).toMatchObject({
      dimensions: "9x17x22,462",
      item_price: 300,
      listing_type_id: "gold_pro",
      free_shipping: true,
      mode: "me2",
      verbose: true,
    });
  });

  it("refuses an answer without the cost, naming the field", async () => {
    const s = contractSession({ "GET /users/1/shipping_options/free": { coverage: { all_country: { currency_id: "MXN" } } } });
    const err = await getFreeShippingCost(s, "1", {
      dimensions: "3x3x3,10",
      itemPrice: 1,
      listingTypeId: "gold_special",
      freeShipping: true,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect((err as MeliApiError).kind).toBe("bad-response");
    expect((err as MeliApiError).meli.message).toContain("coverage.all_country.list_cost");
  });

  it("builds a local table: one quote per band at its top weight, in the site's currency", async () => {
    const s = contractSession({ "GET /users/77/shipping_options/free": freeAnswer });
    const table = await quoteLocalTable(s, "77", 1, "MXN");
    expect(table.currency).toBe("MXN");
    expect(table.bands.map((b) => [b.start, b.end])).toEqual(FREIGHT_BANDS.map((end, i) => [i ? FREIGHT_BANDS[i - 1] : 0, end]));
    expect(table.bands.every((b) => b.freight === 120.5)).toBe(true);
    expect(s.calls.map((c) => c.query?.dimensions)).toEqual(FREIGHT_BANDS.map((g) => dimensionsParam(parcelOf(g), g)));
    expect(s.calls.every((c) => c.query?.item_price === QUOTE_PRICE[1] && c.query?.free_shipping === true)).toBe(true);
    // Another currency than the site's is refused, not stored.
    await expect(quoteLocalTable(contractSession({ "GET /users/77/shipping_options/free": freeAnswer }), "77", 2, "BRL")).rejects.toThrow(
      /运费币种MXN/,
    );
  });

  it("quotes parcels whose volume weight stays under their weight", () => {
    for (const g of FREIGHT_BANDS) {
      const [a, b, c] = parcelOf(g);
      expect(Math.min(a, b, c)).toBeGreaterThanOrEqual(3);
      expect((a * b * c) / 5).toBeLessThanOrEqual(Math.max(g, 27 / 5));
    }
  });
});

describe("GET /global/shipments/costs", () => {
  it("reads each site's remote quote and keeps the dearest per band, in USD", async () => {
    const s = contractSession({ "GET /global/shipments/costs": globalAnswer });
    const quotes = await getGlobalShipmentCosts(s, "5x8.7x7.7,1814");
    expect(quotes.map((q) => [q.site_id, q.list_cost])).toEqual([
      ["MCO", 9.61],
      ["MLM", 21.03],
      ["MLM", 30.5],
    ]);
    expect(s.calls[0].query).toEqual({ dimensions: "5x8.7x7.7,1814" });

    const table = await quoteGlobalTable(contractSession({ "GET /global/shipments/costs": globalAnswer }));
    // Fulfillment (stock in Mercado Libre's warehouse) is not what a remote seller pays.
    expect(table).toMatchObject({ currency: "USD", sites: ["MCO", "MLM"] });
    expect(table.bands.every((b) => b.freight === 21.03)).toBe(true);
  });

  it("refuses a seller with no site and an answer without list_cost", async () => {
    await expect(quoteGlobalTable(contractSession({ "GET /global/shipments/costs": [] }))).rejects.toThrow(/没有开通任何站点/);
    const bad = contractSession({ "GET /global/shipments/costs": [{ site_id: "MLM", currency: "USD" }] });
    const err = await getGlobalShipmentCosts(bad, "3x3x3,10").catch((e: unknown) => e);
    expect((err as MeliApiError).meli.message).toContain("0.list_cost");
  });
});
