// The order stream: orders appear over the sandbox clock for connected sellers only, the same for one seed, selling
// the seller's items when it has some; searches filter and sort as the real one; statuses move on with time.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { itemBody, plainLeaf, startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";

const HOUR = 3600_000;

let t: TestSandbox;
let token: string;
let sellerId: number;

beforeEach(async () => {
  t = await startSandbox();
  const s = await t.connect("ORDER_SELLER");
  token = s.access_token;
  sellerId = s.user_id;
});
afterEach(() => t.close());

type OrderJson = {
  id: number;
  status: string;
  date_created: string;
  last_updated: string;
  order_items: { item: { id: string }; quantity: number }[];
};

async function search(query: Record<string, string | number> = {}, as = token) {
  const res = await t.call("GET", "/orders/search", { token: as, query: { seller: sellerId, ...query } });
  expect(res.status).toBe(200);
  return res.body as { results: OrderJson[]; paging: { total: number; offset: number; limit: number } };
}

/** Keeps the token alive while the clock moves by whole days. */
async function advance(ms: number) {
  t.control.clock.advance(ms);
  token = (await t.connect("ORDER_SELLER")).access_token;
}

describe("the order stream", () => {
  it("starts at the grant and adds orders as the clock moves", async () => {
    expect((await search()).paging.total).toBe(0);
    await advance(12 * HOUR);
    const after12 = await search({ limit: 51 });
    expect(after12.paging.total).toBeGreaterThan(3);
    expect(after12.paging.total).toBeLessThan(40);
    for (const o of after12.results) {
      const at = Date.parse(o.date_created);
      expect(at).toBeGreaterThan(Date.parse("2026-03-02T12:00:00.000Z"));
      expect(at).toBeLessThanOrEqual(t.control.clock.now().getTime());
    }
    await advance(12 * HOUR);
    const after24 = await search({ limit: 51 });
    expect(after24.paging.total).toBeGreaterThan(after12.paging.total);
    expect(after24.results.slice(0, after12.results.length).map((o) => o.id)).toEqual(after12.results.map((o) => o.id));
  });

  it("does not run for sellers who never connected", async () => {
    const lonely = t.control.createSeller({ nickname: "NEVER_CONNECTED" });
    t.control.clock.advance(24 * HOUR);
    expect(t.control.orders(lonely.id)).toEqual([]);
  });

  it("is the same stream for one seed, whenever it is read", async () => {
    const twin = await (async () => {
      const s = await startSandbox();
      await s.connect("ORDER_SELLER");
      return s;
    })();
    try {
      // This sandbox is read every two hours, the twin only once at the end.
      for (let i = 0; i < 6; i++) await advance(2 * HOUR);
      twin.control.clock.advance(12 * HOUR);
      const times = (orders: { date_created: string }[]) => orders.map((o) => o.date_created).sort();
      expect(times(twin.control.orders())).toEqual(times((await search({ limit: 51 })).results));
    } finally {
      await twin.close();
    }
  });

  it("sells the seller's items when it has some, taking their stock", async () => {
    const leaf = plainLeaf(t.sandbox, "MLM");
    const item = (await t.call("POST", "/items", { token, body: itemBody(leaf, { available_quantity: 1000 }) })).body;
    await advance(24 * HOUR);
    const orders = (await search({ limit: 51 })).results;
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((o) => o.order_items[0].item.id === item.id)).toBe(true);
    const sold = orders.reduce((s, o) => s + o.order_items[0].quantity, 0);
    const read = (await t.call("GET", `/items/${item.id}`, { token })).body;
    expect(read.sold_quantity).toBe(sold);
    expect(read.available_quantity).toBe(1000 - sold);
  });

  it("moves statuses on with the clock: payment_required is paid 15 minutes later, some paid orders are cancelled", async () => {
    t.control.setAccessTokenSeconds(30 * 24 * 3600);
    token = (await t.connect("ORDER_SELLER")).access_token;
    const waiting = new Set<number>();
    for (let step = 0; step < 6 * 48; step++) {
      t.control.clock.advance(10 * 60_000);
      for (const o of (await search({ "order.status": "payment_required" })).results) waiting.add(o.id);
    }
    expect(waiting.size).toBeGreaterThan(0);
    for (const id of waiting) {
      const o = (await t.call("GET", `/orders/${id}`, { token })).body;
      expect(o.status).toBe("paid");
      expect(Date.parse(o.date_closed) - Date.parse(o.date_created)).toBe(15 * 60_000);
    }
    const cancelled = (await search({ "order.status": "cancelled" })).results;
    expect(cancelled.length).toBeGreaterThan(0);
    for (const o of cancelled) expect(Date.parse(o.last_updated) - Date.parse(o.date_created)).toBe(HOUR);
    // The control API forces an order now, with the status asked for.
    const forced = t.control.createOrder(sellerId, { status: "payment_in_process" });
    expect((await t.call("GET", `/orders/${forced.id}`, { token })).body).toMatchObject({
      status: "payment_in_process",
      date_closed: null,
    });
  });
});

describe("GET /orders/search and /orders/{id}", () => {
  beforeEach(async () => {
    await advance(2 * 24 * HOUR);
  });

  it("filters by status and creation date, sorts, and pages with limit ≤ 51", async () => {
    const all = await search({ limit: 51 });
    expect(all.paging.total).toBeGreaterThan(51);
    const rest = await search({ limit: 51, offset: 51 });
    const everything = [...all.results, ...rest.results];
    expect(everything).toHaveLength(all.paging.total);
    const asc = everything.map((o) => Date.parse(o.date_created));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = await search({ sort: "date_desc", limit: 5 });
    expect(desc.results.map((o) => o.id)).toEqual(
      everything
        .slice(-5)
        .reverse()
        .map((o) => o.id),
    );
    const paid = await search({ "order.status": "paid", limit: 51 });
    expect(paid.results.every((o) => o.status === "paid")).toBe(true);
    expect(paid.paging.total).toBeLessThan(all.paging.total);
    const middle = all.results[Math.floor(all.results.length / 2)].date_created;
    const recent = await search({ "order.date_created.from": middle, limit: 51 });
    expect(recent.results.every((o) => o.date_created >= middle)).toBe(true);
    expect(recent.paging.total).toBeLessThan(all.paging.total);
    const page = await search({ offset: 2, limit: 2 });
    expect(page.results.map((o) => o.id)).toEqual(all.results.slice(2, 4).map((o) => o.id));
    expect(page.paging).toMatchObject({ offset: 2, limit: 2, total: all.paging.total });
    expect((await t.call("GET", "/orders/search", { token, query: { seller: sellerId, limit: 52 } })).status).toBe(400);
    expect((await t.call("GET", "/orders/search", { token })).status).toBe(400);
  });

  it("reads one order, and refuses another seller's orders", async () => {
    const [first] = (await search()).results;
    const one = await t.call("GET", `/orders/${first.id}`, { token });
    expect(one.body).toMatchObject({ id: first.id, seller: { id: sellerId }, currency_id: "MXN", context: { site: "MLM" } });
    expect(one.body.payments[0].order_id).toBe(first.id);
    expect(one.body.buyer.nickname).toMatch(/^TESTBUYER/);
    const other = await t.connect("OTHER_ORDERS");
    expect((await t.call("GET", `/orders/${first.id}`, { token: other.access_token })).status).toBe(403);
    expect((await t.call("GET", "/orders/search", { token: other.access_token, query: { seller: sellerId } })).body.error).toBe(
      "access_denied",
    );
    expect((await t.call("GET", "/orders/1", { token })).status).toBe(404);
  });
});

describe("global selling orders", () => {
  it("lists the marketplace users' orders at /marketplace/orders/search, limit ≤ 50", async () => {
    const g = await t.connect("GLOBAL_ORDERS", "CBT", ["MLM", "MLB"]);
    t.control.clock.advance(24 * HOUR);
    const gToken = (await t.connect("GLOBAL_ORDERS", "CBT")).access_token;
    const res = await t.call("GET", "/marketplace/orders/search", { token: gToken, query: { limit: 50 } });
    expect(res.status).toBe(200);
    expect(res.body.paging.total).toBeGreaterThan(0);
    const market = (await t.call("GET", `/marketplace/users/${g.user_id}`, { token: gToken })).body.marketplaces;
    const sellers = new Set(res.body.results.map((o: { seller: { id: number } }) => o.seller.id));
    for (const s of sellers) expect(market.map((m: { user_id: number }) => m.user_id)).toContain(s);
    expect(new Set(res.body.results.map((o: { context: { site: string } }) => o.context.site))).toEqual(new Set(["MLM", "MLB"]));
    const one = res.body.results[0];
    expect((await t.call("GET", `/marketplace/orders/${one.id}`, { token: gToken })).body.id).toBe(one.id);
    expect((await t.call("GET", "/marketplace/orders/search", { token: gToken, query: { limit: 51 } })).status).toBe(400);
    const local = (await t.connect("ORDER_SELLER")).access_token;
    expect((await t.call("GET", "/marketplace/orders/search", { token: local })).status).toBe(403);
  });
});

describe("shipments, labels, invoices, packs and order notifications", () => {
  it("moves a paid order's shipment on with the clock; its label is a PDF only when ready_to_ship", async () => {
    const order = t.control.createOrder(sellerId, { status: "paid" });
    const shipmentId = (await t.call("GET", `/orders/${order.id}`, { token })).body.shipping.id;
    const shipment = async () => (await t.call("GET", `/shipments/${shipmentId}`, { token })).body;
    const label = () => t.call("GET", "/shipment_labels", { token, query: { shipment_ids: shipmentId, response_type: "pdf" } });
    expect(await shipment()).toMatchObject({ status: "handling", order_id: order.id, tracking_number: null });
    const before = await label();
    expect(before.status).toBe(400);
    expect(before.body.error).toBe("not_ready_to_ship");
    const first = await shipment();
    expect(Date.parse(first.shipping_option.estimated_handling_limit.date) - Date.parse(order.date_created)).toBe(24 * HOUR);
    expect(first.receiver_address.city.name).toBeTruthy();

    await advance(2 * HOUR);
    expect(await shipment()).toMatchObject({ status: "ready_to_ship", substatus: "ready_to_print" });
    const after = await label();
    expect(after.status).toBe(200);
    expect(after.headers["content-type"]).toBe("application/pdf");
    expect(after.raw.startsWith("%PDF-1.4")).toBe(true);
    expect(after.raw.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(after.raw).toContain(String(order.id));

    await advance(22 * HOUR);
    expect((await shipment()).status).toBe("shipped");
    expect((await label()).status).toBe(400);
    await advance(48 * HOUR);
    expect(["delivered", "not_delivered"]).toContain((await shipment()).status);

    const invoice = await t.call("GET", `/users/${sellerId}/invoices/orders/${order.id}`, { token });
    expect(invoice.status).toBe(200);
    expect(invoice.body).toMatchObject({ order_id: order.id, status: "authorized", currency_id: "MXN" });
    const unpaid = t.control.createOrder(sellerId, { status: "payment_required" });
    expect((await t.call("GET", `/users/${sellerId}/invoices/orders/${unpaid.id}`, { token })).status).toBe(404);
    const other = await t.connect("OTHER_SHIPPER");
    expect((await t.call("GET", `/shipments/${shipmentId}`, { token: other.access_token })).status).toBe(403);
  });

  it("packs several orders under one pack id and one shipment", async () => {
    const pack = t.control.createPack(sellerId, 3);
    expect(new Set(pack.map((o) => o.pack_id)).size).toBe(1);
    expect(pack[0].pack_id).not.toBeNull();
    expect(new Set(pack.map((o) => o.shipping.id)).size).toBe(1);
    expect(new Set(pack.map((o) => o.buyer.id)).size).toBe(1);
    const read = (await t.call("GET", `/orders/${pack[1].id}`, { token })).body;
    expect(read.pack_id).toBe(pack[0].pack_id);
  });

  it("notifies each status and shipment change to the callback when the clock reaches it", async () => {
    const sent: { topic: string; resource: string }[] = [];
    t.control.notifications.configure({
      url: "http://app.test/api/Meli/MeliCallback",
      send: async (_url, p) => {
        sent.push({ topic: p.topic, resource: p.resource });
        return 200;
      },
    });
    const order = t.control.createOrder(sellerId, { status: "paid" });
    await t.control.notifications.settle();
    expect(sent).toEqual([{ topic: "orders_v2", resource: `/orders/${order.id}` }]);
    t.control.clock.advance(3 * HOUR);
    t.control.orders(sellerId);
    await t.control.notifications.settle();
    // Its shipment became ready_to_ship (2 hours after the payment), once; the stream's new orders were notified too.
    expect(sent.filter((n) => n.resource === `/shipments/${order.shipping.id}`)).toHaveLength(1);
    expect(sent.filter((n) => n.resource === `/orders/${order.id}`)).toHaveLength(1);
  });
});
