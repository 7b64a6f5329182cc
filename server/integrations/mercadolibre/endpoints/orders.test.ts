// Contract tests of the order endpoints: answers shaped as gestiona-ventas.md and Global Selling "Manage orders" show
// them (written by us from those pages) go through each endpoint's schema and the product code that reads them: the
// search's query, the purchase wrappers' order ids (never the purchase id), a marketplace line's net proceeds.
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { MeliApiError } from "../errors.ts";
import { getMarketplaceOrder, getOrder, orderIdsOf, proceedsConcepts, searchOrders, searchPurchases } from "./orders.ts";

// gestiona-ventas.md "Obtener una orden": a paid order of one item, its shipping and pack.
const localOrder = {
  id: 2000003508419013,
  status: "paid",
  status_detail: null,
  date_created: "2026-05-27T10:01:50.000-04:00",
  date_closed: "2026-05-27T10:04:07.000-04:00",
  last_updated: "2026-05-27T10:04:07.000-04:00",
  order_items: [
    {
      item: { id: "MLM12345678", title: "Audífonos inalámbricos", variation_id: null, seller_sku: "AUD-01", variation_attributes: [] },
      quantity: 2,
      unit_price: 499,
      full_unit_price: 499,
      currency_id: "MXN",
      sale_fee: 74.85,
      listing_type_id: "gold_special",
    },
  ],
  total_amount: 998,
  currency_id: "MXN",
  buyer: { id: 123456789, nickname: "COMPRADORTESTE" },
  seller: { id: 206946886 },
  payments: [{ id: 596707837, transaction_amount: 998, currency_id: "MXN", status: "approved" }],
  shipping: { id: 40123456789 },
  pack_id: null,
  tags: ["paid", "not_delivered"],
  context: { channel: "marketplace", site: "MLM", flows: [] },
};

// Global Selling "Manage orders", "Search orders": a cart purchase (its id is not an order's) and a single one.
const purchases = {
  results: [
    {
      id: 2000000580342535,
      buyer: { id: 116038996 },
      config: { items: [{ id: "MLM759344664" }, { id: "MLM759344665" }] },
      orders: [
        {
          id: 2497671750,
          items: null,
          feedback: { purchase: null, sale: null },
          payments: [{ id: 7032122688 }],
          mediations: [],
          seller: { id: 514048142 },
        },
        {
          id: 2497671751,
          items: null,
          feedback: { purchase: null, sale: null },
          payments: [{ id: 7032122689 }],
          mediations: [],
          seller: { id: 514048142 },
        },
      ],
      shipment: { id: 28504764933, payments: [] },
    },
    {
      id: 2483140131,
      buyer: { id: 441782523 },
      config: { items: [{ id: "MLM781272686" }] },
      orders: [
        {
          id: 2483140131,
          items: null,
          feedback: { purchase: null, sale: null },
          payments: [{ id: 7001 }],
          mediations: [],
          seller: { id: 514048143 },
        },
      ],
      shipment: { id: 28504764934, payments: [] },
    },
  ],
  paging: { total: 2, offset: 0, limit: 50 },
};

// "Get an order detail": a marketplace order in USD, the line's net proceeds after the fee and the freight.
const marketplaceOrder = {
  ...localOrder,
  id: 2497671750,
  currency_id: "USD",
  total_amount: 58.7,
  seller: { id: 514048142 },
  context: { channel: "marketplace", site: "MLB", flows: [] },
  order_items: [
    {
      item: { id: "MLB759344664", title: "Fone sem fio", variation_id: 180000000001, seller_sku: null, variation_attributes: [] },
      quantity: 2,
      unit_price: 29.35,
      currency_id: "USD",
      sale_fee: 4.4,
      net_proceeds: {
        amount: 44.3,
        currency_id: "USD",
        additional_concepts: [
          { id: "sale_fee", amount: 8.8 },
          { id: "shipping_cost", amount: 5.6 },
        ],
      },
    },
  ],
};

describe("local orders", () => {
  it("searches a window of creation for the seller, oldest first, and reads the orders whole", async () => {
    const s = contractSession({ "GET /orders/search": { query: null, results: [localOrder], paging: { total: 1, offset: 0, limit: 51 } } });
    const from = new Date("2026-05-01T00:00:00.000Z");
    const page = await searchOrders(s, { seller: "206946886", field: "date_created", from, limit: 51, offset: 0 });
    expect(s.calls[0].query).toEqual({
      seller: "206946886",
      "order.date_created.from": from.toISOString(),
      sort: "date_asc",
      limit: 51,
      offset: 0,
    });
    expect(page.paging.total).toBe(1);
    const [o] = page.results;
    // Ids arrive as numbers and are read as strings (an order id is past 2^53 in places).
    expect(o).toMatchObject({ id: "2000003508419013", shipping: { id: "40123456789" }, pack_id: null, buyer: { id: "123456789" } });
    expect(o.order_items[0]).toMatchObject({ quantity: 2, unit_price: 499, sale_fee: 74.85, item: { seller_sku: "AUD-01" } });
  });

  it("a changed-since window names order.date_last_updated; a read without order_items is refused naming the field", async () => {
    const s = contractSession({
      "GET /orders/search": { results: [], paging: { total: 0 } },
      "GET /orders/5": { ...localOrder, order_items: undefined },
    });
    const from = new Date("2026-05-01T00:00:00.000Z");
    const to = new Date("2026-05-02T00:00:00.000Z");
    await searchOrders(s, { seller: "1", field: "date_last_updated", from, to, limit: 51, offset: 102 });
    expect(s.calls[0].query).toMatchObject({
      "order.date_last_updated.from": from.toISOString(),
      "order.date_last_updated.to": to.toISOString(),
      offset: 102,
    });
    const err = await getOrder(s, "5").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect((err as MeliApiError).meli.message).toContain("order_items");
  });
});

describe("global selling orders", () => {
  it("searches purchases with the documented filters and reads each wrapped order by its own id", async () => {
    const s = contractSession({ "GET /marketplace/orders/search": purchases, "GET /marketplace/orders/2497671750": marketplaceOrder });
    const from = new Date("2026-05-01T00:00:00.000Z");
    const page = await searchPurchases(s, { field: "last_updated", from, limit: 50, offset: 0 });
    expect(s.calls[0].query).toEqual({
      "seller.id": undefined,
      "last_updated.from": from.toISOString(),
      sort: "date_asc",
      limit: 50,
      offset: 0,
    });
    await searchPurchases(s, { sellerId: "514048142", field: "date_created", from, to: from, limit: 50, offset: 50 });
    expect(s.calls[1].query).toMatchObject({
      "seller.id": "514048142",
      "date_created.from": from.toISOString(),
      "date_created.to": from.toISOString(),
    });
    // The cart's purchase id is not an order: its two orders are; the single purchase's order is itself.
    expect(orderIdsOf(page)).toEqual(["2497671750", "2497671751", "2483140131"]);

    const order = await getMarketplaceOrder(s, "2497671750");
    expect(order).toMatchObject({ currency_id: "USD", context: { site: "MLB" }, seller: { id: "514048142" } });
    expect(proceedsConcepts(order.order_items[0])).toEqual({ saleFee: 8.8, shipping: 5.6 });
    // A local line has no net proceeds: nothing to take from them.
    expect(proceedsConcepts({ ...order.order_items[0], net_proceeds: null })).toEqual({ saleFee: null, shipping: null });
  });

  it("refuses a page whose purchases name no orders array", async () => {
    const s = contractSession({ "GET /marketplace/orders/search": { results: [{ id: 1, buyer: { id: 2 } }], paging: { total: 1 } } });
    const err = await searchPurchases(s, { field: "date_created", from: new Date(), limit: 50, offset: 0 }).catch((e: unknown) => e);
    expect((err as MeliApiError).kind).toBe("bad-response");
    expect((err as MeliApiError).meli.message).toContain("results.0.orders");
  });
});
