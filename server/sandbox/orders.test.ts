// The order stream: orders appear over the sandbox clock for connected sellers only, the same for one seed, selling
// the seller's items when it has some; searches filter and sort as the real one; statuses move on with time.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { itemBody, plainLeaf, startSandbox, type TestSandbox } from "../testing/sandbox-kit.ts";
import { unzipSync } from "fflate";

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
  it("searches purchases wrapping their orders (filters, paging, limit ≤ 50); reads each order in USD with its net proceeds", async () => {
    const g = await t.connect("GLOBAL_ORDERS", "CBT", ["MLM", "MLB"]);
    t.control.clock.advance(6 * HOUR);
    const gToken = (await t.connect("GLOBAL_ORDERS", "CBT")).access_token;
    const market: { user_id: number; site_id: string }[] = (await t.call("GET", `/marketplace/users/${g.user_id}`, { token: gToken })).body
      .marketplaces;
    const brazil = market.find((m) => m.site_id === "MLB")!.user_id;
    const cart = t.control.createPack(brazil, 2);
    const searchAs = async (query: Record<string, string | number>) => {
      const res = await t.call("GET", "/marketplace/orders/search", { token: gToken, query });
      expect(res.status, res.raw).toBe(200);
      return res.body as {
        results: { id: number; orders: { id: number; seller: { id: number } }[]; shipment: { id: number } }[];
        paging: { total: number; offset: number; limit: number };
      };
    };
    const all = await searchAs({ limit: 50 });
    expect(all.paging.total).toBeGreaterThan(1);
    expect(all.results).toHaveLength(all.paging.total);
    // A purchase's id is not an order's: only orders[].id names one; the cart wraps both orders and one shipment.
    const wrapper = all.results.find((p) => p.id === cart[0].pack_id)!;
    expect(wrapper.orders.map((o) => o.id).sort()).toEqual(cart.map((o) => o.id).sort());
    expect(wrapper.shipment.id).toBe(cart[0].shipping.id);
    expect((await t.call("GET", `/marketplace/orders/${wrapper.id}`, { token: gToken })).status).toBe(404);
    for (const p of all.results) for (const o of p.orders) expect(market.map((m) => m.user_id)).toContain(o.seller.id);

    const read = (await t.call("GET", `/marketplace/orders/${cart[0].id}`, { token: gToken })).body;
    const local = (await t.call("GET", `/orders/${cart[0].id}`, { token: gToken })).body;
    expect(read).toMatchObject({ id: cart[0].id, currency_id: "USD", context: { site: "MLB" }, seller: { id: brazil } });
    const line = read.order_items[0];
    expect(line.unit_price).toBeCloseTo(local.order_items[0].unit_price / 5, 2);
    expect(line.net_proceeds.currency_id).toBe("USD");
    const concept = (id: string) => line.net_proceeds.additional_concepts.find((c: { id: string }) => c.id === id).amount;
    expect(concept("sale_fee")).toBeCloseTo(line.sale_fee * line.quantity, 2);
    expect(line.net_proceeds.amount).toBeCloseTo(line.unit_price * line.quantity - concept("sale_fee") - concept("shipping_cost"), 2);
    expect(read.total_amount).toBeCloseTo(
      read.order_items.reduce((a: number, l: { unit_price: number; quantity: number }) => a + l.unit_price * l.quantity, 0),
      2,
    );

    // Filters: one marketplace user (seller.id), creation and last change windows; paging.
    const onlyBrazil = await searchAs({ "seller.id": brazil, limit: 50 });
    expect(onlyBrazil.results.every((p) => p.orders.every((o) => o.seller.id === brazil))).toBe(true);
    expect(onlyBrazil.paging.total).toBeLessThan(all.paging.total);
    const recent = await searchAs({ "date_created.from": cart[0].date_created, limit: 50 });
    expect(recent.results.map((p) => p.id)).toEqual([cart[0].pack_id]);
    const changed = await searchAs({ "last_updated.from": cart[0].date_created, limit: 50 });
    expect(changed.results.map((p) => p.id)).toContain(cart[0].pack_id);
    const before = await searchAs({ "date_created.to": new Date(Date.parse(cart[0].date_created) - 1).toISOString(), limit: 50 });
    expect(before.paging.total).toBe(all.paging.total - 1);
    const page = await searchAs({ offset: 1, limit: 1 });
    expect(page.results.map((p) => p.id)).toEqual([all.results[1].id]);
    expect(page.paging).toMatchObject({ offset: 1, limit: 1, total: all.paging.total });

    expect((await t.call("GET", "/marketplace/orders/search", { token: gToken, query: { limit: 51 } })).status).toBe(400);
    const local2 = (await t.connect("ORDER_SELLER")).access_token;
    expect((await t.call("GET", "/marketplace/orders/search", { token: local2 })).status).toBe(403);
    expect((await t.call("GET", "/marketplace/orders/search", { token: gToken, query: { "seller.id": sellerId } })).status).toBe(403);
  });
});

describe("shipments, labels, invoices, packs and order notifications", () => {
  const NEW = { "x-format-new": "true" };

  it("moves a paid order's shipment on with the clock, in the new format when asked; history, SLA; labels only when ready_to_ship", async () => {
    const order = t.control.createOrder(sellerId, { status: "paid" });
    const shipmentId = (await t.call("GET", `/orders/${order.id}`, { token })).body.shipping.id;
    const shipment = async () => (await t.call("GET", `/shipments/${shipmentId}`, { token, headers: NEW })).body;
    const label = (format = "pdf", ids: (string | number)[] = [shipmentId]) =>
      t.app.inject({
        method: "GET",
        url: "/shipment_labels",
        query: { shipment_ids: ids.join(","), response_type: format },
        headers: { authorization: `Bearer ${token}` },
      });
    const first = await shipment();
    expect(first).toMatchObject({ id: shipmentId, status: "handling", tracking_number: null, logistic: { mode: "me2" } });
    expect(first).not.toHaveProperty("status_history");
    expect(first.destination.shipping_address.city.name).toBeTruthy();
    expect(first.lead_time.list_cost).toBeGreaterThan(0);
    // Without the header: the older flat format.
    const legacy = (await t.call("GET", `/shipments/${shipmentId}`, { token })).body;
    expect(legacy).toMatchObject({
      status: "handling",
      order_id: order.id,
      receiver_address: { city: { name: first.destination.shipping_address.city.name } },
    });
    expect(legacy).not.toHaveProperty("destination");
    const sla = (await t.call("GET", `/shipments/${shipmentId}/sla`, { token })).body;
    expect(Date.parse(sla.expected_date) - Date.parse(order.date_created)).toBe(24 * HOUR);
    expect(sla.status).toBe("on_time");
    const before = await label();
    expect(before.statusCode).toBe(400);
    expect(JSON.parse(before.body).error).toBe("not_ready_to_ship");

    await advance(2 * HOUR);
    expect(await shipment()).toMatchObject({ status: "ready_to_ship", substatus: "ready_to_print" });
    const pdf = await label();
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.body.startsWith("%PDF-1.4")).toBe(true);
    expect(pdf.body.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(pdf.body).toContain(String(order.id));
    // Several shipments in one call: one page each; ZPL II comes zipped, one ^XA…^XZ label each.
    const other = t.control.createOrder(sellerId, { status: "paid" });
    await advance(2 * HOUR);
    const both = await label("pdf", [shipmentId, other.shipping.id]);
    expect(both.statusCode).toBe(200);
    expect(both.body).toContain("/Count 2");
    expect(both.body).toContain(String(other.id));
    const zpl = await label("zpl2", [shipmentId, other.shipping.id]);
    expect(zpl.statusCode).toBe(200);
    expect(zpl.headers["content-type"]).toBe("application/zip");
    const zip = zpl.rawPayload;
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    const files = unzipSync(new Uint8Array(zip));
    expect(Object.keys(files)).toHaveLength(1);
    const text = Buffer.from(Object.values(files)[0]).toString("utf8");
    expect(text.match(/\^XA/g)).toHaveLength(2);
    expect(text).toContain(String(order.id));
    expect((await label("png")).statusCode).toBe(400);

    await advance(22 * HOUR);
    expect((await shipment()).status).toBe("shipped");
    expect((await label()).statusCode).toBe(400);
    await advance(48 * HOUR);
    const end = await shipment();
    expect(["delivered", "not_delivered"]).toContain(end.status);
    const history = (await t.call("GET", `/shipments/${shipmentId}/history`, { token, headers: NEW })).body as {
      status: string;
      date: string;
    }[];
    expect(history.map((h) => h.status)).toEqual([end.status, "shipped", "ready_to_ship", "handling", "pending"]);
    expect(Date.parse(history.find((h) => h.status === "shipped")!.date) - Date.parse(order.date_created)).toBe(24 * HOUR);

    const stranger = await t.connect("OTHER_SHIPPER");
    expect((await t.call("GET", `/shipments/${shipmentId}`, { token: stranger.access_token })).status).toBe(403);
    expect((await t.call("GET", `/shipments/${shipmentId}/history`, { token: stranger.access_token })).status).toBe(403);
  });

  it("hides the buyer's address until the payment is confirmed", async () => {
    const unpaid = t.control.createOrder(sellerId, { status: "payment_required" });
    const s = (await t.call("GET", `/shipments/${unpaid.shipping.id}`, { token, headers: NEW })).body;
    expect(s.status).toBe("pending");
    expect(s.destination.shipping_address).toBeNull();
    expect((await t.call("GET", `/shipments/${unpaid.shipping.id}/sla`, { token })).status).toBe(404);
  });

  it("keeps the seller's own invoice on the pack (the order id without one): upload, list, download, refusals, delete", async () => {
    const order = t.control.createOrder(sellerId, { status: "paid" });
    const upload = (packId: string | number, parts: { name: string; type: string; data: Buffer }[], as = token) => {
      const boundary = "----sandbox-invoice";
      const body = Buffer.concat([
        ...parts.flatMap((p) => [
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="fiscal_document"; filename="${p.name}"\r\nContent-Type: ${p.type}\r\n\r\n`,
          ),
          p.data,
          Buffer.from("\r\n"),
        ]),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: "POST",
        url: `/packs/${packId}/fiscal_documents`,
        headers: { authorization: `Bearer ${as}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
    };
    const pdf = Buffer.from("%PDF-1.4\n% factura\n%%EOF\n", "latin1");
    const xml = Buffer.from("<factura/>", "utf8");
    expect((await t.call("GET", `/packs/${order.id}/fiscal_documents`, { token })).status).toBe(404);
    const bad = await upload(order.id, [{ name: "f.png", type: "image/png", data: pdf }]);
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).message).toBe("File type: image/png is not allowed");
    const big = await upload(order.id, [{ name: "f.pdf", type: "application/pdf", data: Buffer.alloc(1024 * 1024 + 1, 32) }]);
    expect(JSON.parse(big.body)).toMatchObject({ status: 400, message: "File Not allowed, exceeds maximum size" });
    const twice = await upload(order.id, [
      { name: "a.pdf", type: "application/pdf", data: pdf },
      { name: "b.pdf", type: "application/pdf", data: pdf },
    ]);
    expect(twice.statusCode).toBe(409);

    const ok = await upload(order.id, [
      { name: "factura.pdf", type: "application/pdf", data: pdf },
      { name: "factura.xml", type: "application/xml", data: xml },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    const ids: string[] = JSON.parse(ok.body).ids;
    expect(ids).toHaveLength(2);
    expect((await upload(order.id, [{ name: "otra.pdf", type: "application/pdf", data: pdf }])).statusCode).toBe(409);
    const list = (await t.call("GET", `/packs/${order.id}/fiscal_documents`, { token })).body;
    expect(list).toMatchObject({ pack_id: order.id });
    expect(list.fiscal_documents.map((d: { file_type: string }) => d.file_type)).toEqual(["application/pdf", "application/xml"]);
    const file = await t.app.inject({
      method: "GET",
      url: `/packs/${order.id}/fiscal_documents/${ids[0]}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.rawPayload.equals(pdf)).toBe(true);
    expect((await t.call("GET", `/packs/${order.id}/fiscal_documents/nope`, { token })).status).toBe(400);
    const stranger = await t.connect("OTHER_BILLER");
    expect((await t.call("GET", `/packs/${order.id}/fiscal_documents`, { token: stranger.access_token })).status).toBe(403);
    // A pack's invoice hangs on the pack id, not on its orders' ids.
    const pack = t.control.createPack(sellerId, 2);
    expect((await upload(pack[0].id, [{ name: "p.pdf", type: "application/pdf", data: pdf }])).statusCode).toBe(403);
    expect((await upload(pack[0].pack_id!, [{ name: "p.pdf", type: "application/pdf", data: pdf }])).statusCode).toBe(200);
    expect((await t.call("DELETE", `/packs/${order.id}/fiscal_documents`, { token })).status).toBe(200);
    expect((await t.call("GET", `/packs/${order.id}/fiscal_documents`, { token })).status).toBe(404);
  });

  it("answers a paid marketplace order's invoice as a PDF document, 404 before the payment", async () => {
    const g = await t.connect("GLOBAL_BILLING", "CBT", ["MLM"]);
    const mexico = (await t.call("GET", `/marketplace/users/${g.user_id}`, { token: g.access_token })).body.marketplaces[0].user_id;
    const paid = t.control.createOrder(mexico, { status: "paid" });
    const res = await t.app.inject({
      method: "GET",
      url: `/marketplace/orders/${paid.id}/invoice`,
      headers: { authorization: `Bearer ${g.access_token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.body.startsWith("%PDF-")).toBe(true);
    expect(res.body).toContain(`Order ${paid.id}`);
    const unpaid = t.control.createOrder(mexico, { status: "payment_required" });
    expect((await t.call("GET", `/marketplace/orders/${unpaid.id}/invoice`, { token: g.access_token })).status).toBe(404);
    expect((await t.call("GET", `/marketplace/orders/${paid.id}/invoice`, { token })).status).toBe(403);
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
