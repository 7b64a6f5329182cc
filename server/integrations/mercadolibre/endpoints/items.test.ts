// Contract tests of the local item endpoints the publisher uses: answers shaped as publica-productos.md ("Publica un
// artículo", "Consultar productos") and items-y-busquedas.md (the seller's item search) show them, written by us from
// those pages, through each endpoint's schema and the code that reads them: the created item's id, permalink and
// status as the listing keeps them, and the search by publish key (sku = seller_custom_field).
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { statusOf } from "../../../modules/publishing/outcome.ts";
import { MeliApiError } from "../errors.ts";
import { createItem, getItem, searchSellerItems } from "./items.ts";

// publica-productos.md "Publica un artículo": the item as created (a few of its many fields).
const createdItem = {
  id: "MLM2061528470",
  site_id: "MLM",
  title: "Lámpara de escritorio LED",
  seller_id: 206946886,
  category_id: "MLM1055",
  price: 349,
  currency_id: "MXN",
  available_quantity: 7,
  buying_mode: "buy_it_now",
  listing_type_id: "gold_special",
  condition: "new",
  permalink: "https://articulo.mercadolibre.com.mx/MLM-2061528470-lampara-de-escritorio-led-_JM",
  status: "active",
  sub_status: [],
  seller_custom_field: "7f0c1a52-9d1e-4c3b-8a77-5f2e9b1c0d11",
  tags: ["immediate_payment", "test_item"],
  date_created: "2026-05-27T10:01:50.000Z",
};

describe("POST /items and GET /items/{id}", () => {
  it("creates with the idempotency key and reads the item the listing keeps", async () => {
    const s = contractSession({ "POST /items": createdItem, "GET /items/MLM2061528470": { ...createdItem, status: "paused" } });
    const created = await createItem(s, { title: createdItem.title }, createdItem.seller_custom_field!);
    expect(s.calls[0]).toMatchObject({ method: "POST", path: "/items", body: { title: createdItem.title } });
    expect(created).toMatchObject({ id: "MLM2061528470", permalink: createdItem.permalink, seller_id: "206946886" });
    expect(statusOf(created.status)).toBe(ListingStatus.Active);
    const read = await getItem(s, created.id);
    expect(statusOf(read.status)).toBe(ListingStatus.Paused);
  });

  it("an item without an id is a bad response naming the field", async () => {
    const { id: _id, ...noId } = createdItem;
    void _id;
    const err = await createItem(contractSession({ "POST /items": noId }), {}, "k").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect((err as MeliApiError).meli.message).toContain("POST /items: id");
  });
});

describe("GET /users/{id}/items/search", () => {
  it("searches by the publish key and reads the ids", async () => {
    // items-y-busquedas.md: the search answers ids and paging (orders and available_orders pass through).
    const s = contractSession({
      "GET /users/206946886/items/search": {
        seller_id: "206946886",
        query: null,
        paging: { limit: 50, offset: 0, total: 1 },
        results: ["MLM2061528470"],
        orders: [{ id: "stop_time_asc", name: "Order by stop time ascending" }],
      },
    });
    const page = await searchSellerItems(s, "206946886", { sku: createdItem.seller_custom_field!, status: "active", limit: 50 });
    expect(s.calls[0].query).toEqual({
      sku: createdItem.seller_custom_field,
      seller_sku: undefined,
      status: "active",
      limit: 50,
      offset: undefined,
    });
    expect(page.results).toEqual(["MLM2061528470"]);
    expect(page.paging.total).toBe(1);
  });
});
