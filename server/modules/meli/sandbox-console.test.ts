// The host's 沙箱 page calls on the built-in sandbox: host only (a tenant gets 403, with the §8 envelope); an order the
// host creates for a seller's item reaches the app by its notification, paid and ready to ship, and its label prints;
// the clock moves, the next calls are refused with 429, the order pace changes, a notification is sent on demand; bad
// input changes nothing. With MELI_API_URL set there is no sandbox: GetSandbox says so and the rest is 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { createShopItem } from "../../testing/listing-kit.ts";
import { plainLeaf, requiredAttributes } from "../../testing/sandbox-kit.ts";
import { connectPublishingShop, until } from "../../testing/publish-kit.ts";
import { connectSandboxNotifications } from "./sandbox-console.ts";

let s: TestServer;
let host: string;
let A: TestTenant;
let itemId: string;

const control = () => s.deps.sandbox!.control;

/** The plain leaf's required attributes, and the reason for no GTIN where the leaf asks for one. */
function plainAttributes() {
  const leaf = plainLeaf(s.deps.sandbox!, "MLM");
  const reason = leaf.attributes.find((a) => a.id === "EMPTY_GTIN_REASON" && a.values?.length);
  const list: { id: string; value_id?: string; value_name?: string }[] = requiredAttributes(leaf);
  if (reason && !list.some((a) => a.id === reason.id)) list.push({ id: reason.id, value_id: reason.values![0].id });
  return list;
}
const call = (method: "GET" | "POST", name: string, body?: unknown, token = host) =>
  s.api(method, `/api/MeliSandbox/${name}`, { token, body });

beforeAll(async () => {
  s = await startTestServer();
  s.deps.sandbox!.store.state.orderIntervalMs = 1e13; // only the orders this test makes
  connectSandboxNotifications(s.app, s.deps);
  host = await s.adminToken();
  A = await s.createTenant();
  const groupId = await connectPublishingShop(s, A, { nickname: uniqueName("SANDCON"), site: "MLM", sites: [1] }, []);
  itemId = await createShopItem(s, A, groupId, { available_quantity: 20, attributes: plainAttributes() });
}, 180_000);
afterAll(async () => {
  control().notifications.reset();
  await s?.close();
});

describe("the host's sandbox page", () => {
  it("is the host's only", async () => {
    const refused = await call("GET", "GetSandbox", undefined, A.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("仅平台管理员可以执行此操作");
    expect((await call("POST", "CreateOrder", { itemId }, A.token)).status).toBe(403);
  });

  it("lists the sellers with their items; an order it creates is paid, ready to ship, reaches the app and prints its label", async () => {
    const state = await call("GET", "GetSandbox");
    expect(state.status, state.raw).toBe(200);
    expect(state.body.result).toMatchObject({ enabled: true, notificationsConnected: true, refusalsPending: 0 });
    const seller = state.body.result.sellers.find((x: { items: { id: string }[] }) => x.items.some((i) => i.id === itemId));
    expect(seller).toBeTruthy();

    const created = await call("POST", "CreateOrder", { itemId, quantity: 2 });
    expect(created.status, created.raw).toBe(200);
    expect(created.body.result).toMatchObject({ itemId, status: "paid", shipmentStatus: "ready_to_ship", sellerId: seller.id });
    expect(control().item(itemId)).toMatchObject({ available_quantity: 18, sold_quantity: 2 });

    // Its orders_v2 notification brings it into the app.
    const page = await until(
      async () =>
        (await s.api("GET", "/api/Order/GetOrders", { token: A.token, query: { OrderNo: String(created.body.result.id) } })).body.result,
      (p) => p.totalCount === 1 && p.items[0].labelReady === true,
      "the order in the app",
    );
    const label = await s.app.inject({
      method: "GET",
      url: "/api/Order/GetOrderLabel",
      query: { orderId: page.items[0].id },
      headers: { authorization: `Bearer ${A.token}` },
    });
    expect(label.statusCode, label.body).toBe(200);
    expect(label.headers["content-type"]).toBe("application/pdf");

    const listed = (await call("GET", "GetSandbox")).body.result.orders;
    expect(listed[0]).toMatchObject({ id: created.body.result.id, shipmentStatus: "ready_to_ship" });
  });

  it("moves the clock, refuses the next calls with 429, sets the order pace and sends a notification", async () => {
    const before = control().clock.now().getTime();
    const moved = await call("POST", "MoveClock", { minutes: 90 });
    expect(moved.status, moved.raw).toBe(200);
    expect(Date.parse(moved.body.result.now) - before).toBeGreaterThanOrEqual(90 * 60_000);

    expect((await call("POST", "RefuseCalls", { count: 2 })).body.result).toEqual({ refusalsPending: 2 });
    const sandboxCall = () => s.app.inject({ method: "GET", url: "/sandbox/meli/sites/MLM/categories" });
    // Every caller meets the refusals, the app's own jobs too (the test before's order may still be read): each call
    // takes one until none is left, then calls pass.
    expect((await sandboxCall()).statusCode).toBe(429);
    const pending = (await call("GET", "GetSandbox")).body.result.refusalsPending as number;
    expect(pending).toBeLessThanOrEqual(1);
    const statuses: number[] = [];
    do statuses.push((await sandboxCall()).statusCode);
    while (statuses.at(-1) === 429 && statuses.length <= pending);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.length - 1).toBeLessThanOrEqual(pending);
    expect((await call("GET", "GetSandbox")).body.result.refusalsPending).toBe(0);

    expect((await call("POST", "SetOrderRate", { intervalMinutes: 7 })).body.result).toEqual({ orderIntervalMinutes: 7 });
    expect(control().orderStream.intervalMinutes()).toBe(7);
    control().orderStream.setIntervalMinutes(1e13 / 60_000);

    const sent = control().notifications.deliveries().length;
    const notified = await call("POST", "SendNotification", { topic: "items", resourceId: itemId });
    expect(notified.status, notified.raw).toBe(200);
    expect(notified.body.result.resource).toBe(`/items/${itemId}`);
    await control().notifications.settle();
    const last = control().notifications.deliveries().slice(sent);
    expect(last.map((d) => [d.payload.topic, d.payload.resource, d.status])).toEqual([["items", `/items/${itemId}`, 200]]);
  });

  it("refuses bad input with the envelope and changes nothing", async () => {
    const orders = control().orders().length;
    const missing = await call("POST", "CreateOrder", { itemId: "MLM999" });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("沙箱中没有站点商品 MLM999");
    const tooMany = await call("POST", "CreateOrder", { itemId, quantity: 11 });
    expect(tooMany.status).toBe(400);
    expect((await call("POST", "MoveClock", { minutes: 0 })).status).toBe(400);
    expect((await call("POST", "RefuseCalls", { count: 1000 })).status).toBe(400);
    expect((await call("POST", "SendNotification", { topic: "orders_v2", resourceId: "123" })).status).toBe(404);
    expect(control().orders().length).toBe(orders);
    expect((await call("GET", "GetSandbox")).body.result.refusalsPending).toBe(0);
  });
});

describe("with MELI_API_URL set", () => {
  it("there is no sandbox page to work", async () => {
    const live = await startTestServer({ meliSandbox: false, meliApiUrl: "https://api.mercadolibre.com" });
    try {
      const token = await live.adminToken();
      const state = await live.api("GET", "/api/MeliSandbox/GetSandbox", { token });
      expect(state.body.result).toMatchObject({ enabled: false, sellers: [], orders: [] });
      const order = await live.api("POST", "/api/MeliSandbox/CreateOrder", { token, body: { itemId: "MLM1" } });
      expect(order.status).toBe(404);
    } finally {
      await live.close();
    }
  });
});
