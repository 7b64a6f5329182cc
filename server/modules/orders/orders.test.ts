// Orders end to end against the sandbox, through the real HTTP stack: the app listens on a port and the sandbox posts
// its order and shipment notifications to MeliCallback. One order arriving by its notification, FetchOrders and the
// periodic pull is stored once, its line linked to the listing and product, its profit as the worked example says; a
// pack's orders share the pack id and split its freight; the status follows the shipment over the sandbox's clock and
// the label is a PDF only when ready to ship; a sub-account sees its own shops' orders only, another tenant nothing;
// the periodic tick pulls the shops receiving orders and works through order notifications kept waiting; a global
// seller's marketplace order lands in its site's shop with its marketplace shipment's label; a pull of 10 shops keeps
// each seller's order searches to the order-search bucket's rate (last: its orders' later changes notify in bulk); a
// FetchOrders that fails mid-way and is retried goes on after the last page it stored.
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meliAccountGroups, meliAccounts, meliNotifications, orders, products, taskInfos } from "../../db/schema.ts";
import { rowsOf } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { createShopItem, recordListings } from "../../testing/listing-kit.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { uploadSellerInvoice } from "../../testing/order-kit.ts";
import { until } from "../../testing/publish-kit.ts";
import { createMeliClient, type MeliClient } from "../../integrations/mercadolibre/client.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { createTask } from "../../jobs/tasks.ts";
import { sandboxFetch } from "../../integrations/mercadolibre/transport.ts";
import { OrderStatus, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { OrderPage, OrderRow } from "#shared/contract/orders.ts";
import { MeliNotificationStatus } from "../meli/index.ts";
import { marketplaceOrderJson } from "../../sandbox/orders.ts";
import { createOrderSyncService, LOCAL_SEARCH_LIMIT, ORDER_SEARCH_RATE } from "./sync.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let sub: { id: string; token: string };
const HOUR = 3600_000;

const sandbox = () => s.deps.sandbox!;
const control = () => sandbox().control;

type Shop = { groupId: string; accountId: string; sellerId: number };

async function connect(t: TestTenant, nickname: string, uid?: string): Promise<Shop> {
  const page = await connectShop(s, t.token, { nickname, site: "MLM", sites: [1], uid });
  if (!page.ok) throw new Error(`connect: ${page.message}`);
  const seller = sandbox().store.userByNickname(nickname)!;
  const [row] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ groupId: meliAccountGroups.id, accountId: meliAccounts.id })
      .from(meliAccountGroups)
      .innerJoin(meliAccounts, and(eq(meliAccounts.tenantId, meliAccountGroups.tenantId), eq(meliAccounts.groupId, meliAccountGroups.id)))
      .where(and(eq(meliAccountGroups.tenantId, t.tenantId), eq(meliAccountGroups.custId, String(seller.id)))),
  );
  return { ...row, sellerId: seller.id };
}

const getOrders = async (token: string, query: Record<string, string | number> = {}) => {
  const res = await s.api("GET", "/api/Order/GetOrders", { token, query: { MaxResultCount: 100, ...query } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as OrderPage;
};

const storedOf = (t: TestTenant, meliOrderId: string | number) =>
  inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select()
      .from(orders)
      .where(and(eq(orders.tenantId, t.tenantId), eq(orders.meliOrderId, String(meliOrderId)))),
  );

/** Waits for the order to be stored (and, when given, to reach the status). */
const arrived = (t: TestTenant, meliOrderId: string | number, status?: number) =>
  until(
    () => storedOf(t, meliOrderId),
    (rows) => rows.length === 1 && (status === undefined || rows[0].status === status),
    `order ${meliOrderId}${status ? ` in status ${status}` : ""}`,
    30_000,
  );

const taskOf = async (t: TestTenant, taskId: string) =>
  (
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx
        .select()
        .from(taskInfos)
        .where(and(eq(taskInfos.tenantId, t.tenantId), eq(taskInfos.id, taskId))),
    )
  )[0];

async function taskDone(t: TestTenant, taskId: string) {
  return until(
    () => taskOf(t, taskId),
    (task) => task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed,
    `task ${taskId}`,
    60_000,
  );
}

/** A second orders service (creating one registers no worker; the app's run the queue): runs a job's body in the test. */
const pullService = (meli: MeliClient = s.deps.meli) =>
  createOrderSyncService({ database: s.database, jobs: s.deps.jobs, meli, log: s.deps.log });

/** A Mercado Libre client on the sandbox whose fetch `through` sees (and may answer) first. */
const meliThrough = (through: (url: URL) => Response | null) => {
  const inner = sandboxFetch(sandbox());
  return createMeliClient({
    apiUrl: s.deps.config.meliApiUrl,
    authUrl: s.deps.config.meliAuthUrl,
    clientId: s.deps.config.meliClientId,
    clientSecret: s.deps.config.meliClientSecret,
    database: s.database,
    secrets: s.deps.secrets,
    fetch: async (url, init) => through(new URL(url)) ?? inner(url, init),
  });
};

let shopA: Shop;
let shopSub: Shop;

beforeAll(async () => {
  s = await startTestServer();
  // No orders from the sandbox's seeded stream: only the ones each test makes.
  sandbox().store.state.orderIntervalMs = 1e13;
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  const port = (s.app.server.address() as AddressInfo).port;
  control().notifications.configure({ url: `http://127.0.0.1:${port}/api/Meli/MeliCallback` });
  A = await s.createTenant();
  B = await s.createTenant();
  sub = await s.createSubUser(A);
  shopA = await connect(A, uniqueName("ORDA"));
  shopSub = await connect(A, uniqueName("ORDSUB"), sub.id);
}, 180_000);
afterAll(async () => {
  // No delivery may still be on its way to the server as it closes (a loaded run once waited out the hook on it).
  control().notifications.configure({ url: null });
  await control().notifications.settle();
  control().notifications.reset();
  await s?.close();
});

describe("orders arrive three ways and end up once", () => {
  let order: { id: number };
  let productId: string;
  let itemId: string;

  it("a notification, FetchOrders and the periodic pull store one order, linked to its listing and product, with its profit", async () => {
    itemId = await createShopItem(s, A, shopA.groupId, { price: 250, available_quantity: 50 });
    productId = randomUUID();
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .insert(products)
        .values({ tenantId: A.tenantId, id: productId, userId: A.userId, price: "30.00", currency: "CNY", sku: "ORD-SKU-1" }),
    );
    const [listingId] = await recordListings(s, A, shopA.groupId, [itemId], { productId });

    // 1. The notification (orders_v2) reaches MeliCallback; its job stores the order.
    order = control().createOrder(shopA.sellerId, { itemId, quantity: 2, status: "paid" });
    const [first] = await arrived(A, order.id);

    // 2. FetchOrders over the day: a task that reads it again.
    const fetch = await s.api("GET", "/api/Order/FetchOrders", {
      token: A.token,
      query: { StartTime: new Date(Date.now() - 86_400_000 * 2).toISOString(), GroupId: shopA.groupId },
    });
    expect(fetch.status, fetch.raw).toBe(200);
    const task = await taskDone(A, fetch.body.result.taskId);
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect(task.taskRemark).toContain("已读取 1 个订单");

    // 3. The periodic pull of the group (its job's body, run here by a second instance of the service).
    const searches = control().callCount("GET /orders/search");
    await pullService().runPull({ tenantId: A.tenantId, groupId: shopA.groupId });
    expect(control().callCount("GET /orders/search")).toBe(searches + 1);

    const stored = await storedOf(A, order.id);
    expect(stored).toHaveLength(1);
    expect(stored[0].id).toBe(first.id);

    const page = await getOrders(A.token, { OrderNo: String(order.id) });
    expect(page.totalCount).toBe(1);
    const row = page.items[0];
    const meliOrder = control()
      .orders(shopA.sellerId)
      .find((o) => o.id === order.id)!;
    const fee = meliOrder.order_items[0].sale_fee;
    expect(row).toMatchObject({
      id: first.id,
      orderNo: String(order.id),
      packId: null,
      accountGroupId: shopA.groupId,
      accountId: shopA.accountId,
      site: 1,
      currency: "MXN",
      orderStatus: OrderStatus.Paid,
      meliStatus: "paid",
      shipmentStatus: "handling",
      totalAmount: 500,
      labelReady: false,
    });
    expect(row.items).toEqual([
      expect.objectContaining({ meliId: itemId, num: 2, price: 250, listingId, productId, saleFee: Math.round(fee * 2 * 100) / 100 }),
    ]);
    expect(row.recieveAddress?.city).toBeTruthy();
    expect(row.mustSendTime).not.toBeNull();
    // The worked example: 2 × 250 MXN sold; Mercado Libre's fee per unit; the seller pays the whole freight (17 × 5.5 =
    // 93.50: free shipping from 299 MXN); 2 × 30 CNY = 60 CNY at MXN 0.39 CNY = 153.846… → 153.85 MXN.
    const expectedProfit = Math.round((500 - fee * 2 - 93.5 - 153.85) * 100) / 100;
    expect(row.profitDetail).toMatchObject({
      currency: "MXN",
      salePrice: 500,
      saleFee: Math.round(fee * 2 * 100) / 100,
      freight: 93.5,
      productCost: 153.85,
      profit: expectedProfit,
      complete: true,
      rates: expect.arrayContaining([
        { code: "MXN", rate: "0.39000000" },
        { code: "CNY", rate: "1.00000000" },
      ]),
    });
    expect(row.profit).toBe(expectedProfit);
    expect(row.freightFee).toBe(93.5);
    expect(row.cost).toBe(153.85);
    // The shop's minimum margin comes with the row (null: the default), for the list to warn under it.
    expect(row.minMargin).toBeNull();
    const set = await s.api("POST", "/api/MeliAccount/UpdateAccount", {
      token: A.token,
      body: { id: shopA.accountId, info: { minMargin: 15.5 } },
    });
    expect(set.status, set.raw).toBe(200);
    expect((await getOrders(A.token)).items.find((r) => r.id === first.id)?.minMargin).toBe(15.5);
    await s.api("POST", "/api/MeliAccount/UpdateAccount", { token: A.token, body: { id: shopA.accountId, info: { minMargin: null } } });
  });

  it("a pack's orders share the pack id and split its freight", async () => {
    const pack = control().createPack(shopA.sellerId, 2, { itemId, quantity: 1 });
    for (const o of pack) await arrived(A, o.id);
    const page = await getOrders(A.token, { PackOrderId: String(pack[0].pack_id) });
    expect(page.items.map((r) => r.orderNo).sort()).toEqual(pack.map((o) => String(o.id)).sort());
    // One shipment for both: 17 × (4 + 1.5) = 93.50, half each (250 of 500).
    expect(page.items.map((r) => r.freightFee)).toEqual([46.75, 46.75]);
    expect(new Set(page.items.map((r) => r.shipmentId)).size).toBe(1);
  });

  it("follows the shipment over the clock: the label is refused before ready_to_ship, a PDF after", async () => {
    const [row] = await storedOf(A, order.id);
    const label = () =>
      s.app.inject({
        method: "GET",
        url: "/api/Order/GetOrderLabel",
        query: { orderId: row.id },
        headers: { authorization: `Bearer ${A.token}` },
      });
    const early = await label();
    expect(early.statusCode, early.body).toBe(400);
    expect(JSON.parse(early.body).error.message).toBe("面单只在订单待发货（ready_to_ship）时可以下载，该订单当前物流状态：备货中");

    control().clock.advance(2 * HOUR);
    control().orders(); // the sandbox's clock reaches the change: its shipments notification goes out
    await arrived(A, order.id, OrderStatus.ReadyToShip);
    const ready = await label();
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.headers["content-type"]).toBe("application/pdf");
    expect(ready.rawPayload.subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");
    expect(ready.body).toContain(String(order.id));
    expect((await getOrders(A.token, { OrderId: row.id })).items[0].labelReady).toBe(true);

    // The invoice is the seller's own, uploaded to the sale (no pack: the order id); none before.
    const noInvoice = await s.api("GET", "/api/Order/GetMeliOrderInvoice", { token: A.token, query: { orderId: row.id } });
    expect(noInvoice.status, noInvoice.raw).toBe(404);
    expect(noInvoice.body.error.message).toBe("该订单还没有发票：卖家尚未在美客多上传发票");
    const pdf = Buffer.from("%PDF-1.4\n% factura 0001\n%%EOF\n", "latin1");
    await uploadSellerInvoice(sandbox(), shopA.sellerId, order.id, pdf, "factura-0001.pdf");
    const invoice = await s.api("GET", "/api/Order/GetMeliOrderInvoice", { token: A.token, query: { orderId: row.id } });
    expect(invoice.status, invoice.raw).toBe(200);
    expect(invoice.body.result).toMatchObject({
      orderId: row.id,
      orderNo: String(order.id),
      invoiceNumber: "factura-0001",
      status: "issued",
      currency: "MXN",
      total: 500,
      items: [expect.objectContaining({ meliId: itemId, num: 2, price: 250 })],
      documentUrl: `data:application/pdf;base64,${pdf.toString("base64")}`,
    });
    expect(Date.parse(invoice.body.result.issuedAt)).toBeGreaterThan(0);

    control().clock.advance(22 * HOUR);
    control().orders();
    await arrived(A, order.id, OrderStatus.Shipped);
    const shipped = (await storedOf(A, order.id))[0];
    expect(shipped.deliveryTime).not.toBeNull();
    expect(shipped.mustSendTime).toBeNull();
    expect((await label()).statusCode).toBe(400);

    // GetNewOrder re-reads it: delivered (or not) two days later.
    control().clock.advance(48 * HOUR);
    const again = await s.api("PUT", "/api/Order/GetNewOrder", { token: A.token, query: { id: row.id } });
    expect(again.status, again.raw).toBe(200);
    expect([OrderStatus.Delivered, OrderStatus.NotDelivered]).toContain((again.body.result as OrderRow).orderStatus);

    // Mercado Libre refusing the read is a failure with its reason, not the stored row as if synced. Every read of the
    // order is refused until cleared: the fetch job of the clock's notifications may read it first.
    control().inject({ method: "GET", path: new RegExp(`/orders/${order.id}$`), status: 403, times: 1000 });
    const refused = await s.api("PUT", "/api/Order/GetNewOrder", { token: A.token, query: { id: row.id } });
    control().clearInjections();
    expect(refused.status, refused.raw).toBe(403);
    expect(refused.body.error.message).toBe(`订单 ${order.id} 同步失败：美客多拒绝读取该订单`);
  });

  it("the tabs count per status, site and shop group", async () => {
    const res = await s.api("GET", "/api/Order/GetMeliOrderGroupInfo", { token: A.token });
    expect(res.status, res.raw).toBe(200);
    const info = res.body.result;
    expect(info.total).toEqual({ count: 3, capped: false });
    expect(info.sites.find((x: { site: number }) => x.site === 1).count).toBe(3);
    expect(info.accountGroups.find((g: { accountGroupId: string }) => g.accountGroupId === shopA.groupId).count).toBe(3);
    expect(info.statuses.reduce((a: number, x: { count: number }) => a + x.count, 0)).toBe(3);
  });
});

describe("who sees which orders", () => {
  it("a sub-account sees its own shops' orders only; another tenant sees nothing and reaches none", async () => {
    const mine = control().createOrder(shopSub.sellerId, { status: "paid" });
    await arrived(A, mine.id);
    const asSub = await getOrders(sub.token);
    expect(asSub.items.map((r) => r.orderNo)).toEqual([String(mine.id)]);
    const asMain = await getOrders(A.token);
    expect(asMain.items.map((r) => r.orderNo)).toContain(String(mine.id));
    expect(asMain.totalCount).toBe(4);
    const subTabs = (await s.api("GET", "/api/Order/GetMeliOrderGroupInfo", { token: sub.token })).body.result;
    expect(subTabs.total.count).toBe(1);
    expect(subTabs.accountGroups.map((g: { accountGroupId: string }) => g.accountGroupId)).toEqual([shopSub.groupId]);

    const other = await getOrders(B.token);
    expect(other.totalCount).toBe(0);
    const aRow = asMain.items.find((r) => r.orderNo !== String(mine.id))!;
    const label = await s.api("GET", "/api/Order/GetOrderLabel", { token: B.token, query: { orderId: aRow.id } });
    expect(label.status).toBe(404);
    expect((await s.api("PUT", "/api/Order/GetNewOrder", { token: B.token, query: { id: aRow.id } })).status).toBe(404);
    expect((await s.api("GET", "/api/Order/GetMeliOrderInvoice", { token: sub.token, query: { orderId: aRow.id } })).status).toBe(404);
    const fetchOther = await s.api("GET", "/api/Order/FetchOrders", { token: B.token, query: { GroupId: shopA.groupId } });
    expect(fetchOther.status).toBe(404);
  });

  it("a shop with order receiving off is not pulled", async () => {
    const off = await s.api("POST", "/api/MeliAccount/EnableRecieveOrder", {
      token: A.token,
      query: { Id: shopSub.accountId, Enable: false },
    });
    expect(off.status, off.raw).toBe(200);
    const res = await s.api("GET", "/api/Order/FetchOrders", { token: A.token, query: { GroupId: shopSub.groupId } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("该店铺未开启接收订单");
  });
});

describe("the periodic pull", () => {
  it("a tick pulls every shop receiving orders and works through order notifications kept waiting", async () => {
    control().notifications.configure({ url: null });
    const pulled = control().createOrder(shopA.sellerId, { status: "paid" });
    const late = control().createOrder(shopA.sellerId, { status: "paid" });
    // A notification stored before the orders module existed: kept Waiting by the notification job.
    const noteId = randomUUID();
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.insert(meliNotifications).values({
        tenantId: A.tenantId,
        id: noteId,
        notificationId: randomUUID(),
        groupId: shopA.groupId,
        accountId: shopA.accountId,
        topic: "orders_v2",
        resource: `/orders/${late.id}`,
        meliUserId: String(shopA.sellerId),
        status: MeliNotificationStatus.Waiting,
      }),
    );
    const searches = control().callCount("GET /orders/search");
    await pullService().tick();
    await arrived(A, pulled.id);
    await arrived(A, late.id);
    expect(control().callCount("GET /orders/search")).toBeGreaterThan(searches);
    await until(
      () =>
        inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
          tx
            .select({ status: meliNotifications.status })
            .from(meliNotifications)
            .where(and(eq(meliNotifications.tenantId, A.tenantId), eq(meliNotifications.id, noteId))),
        ),
      (rows) => rows[0]?.status === MeliNotificationStatus.Processed,
      "waiting notification processed",
      30_000,
    );
  });
});

describe("a shipment's notification", () => {
  it("brings in the orders of a shipment not stored yet, named by its items", async () => {
    control().notifications.configure({ url: null });
    const order = control().createOrder(shopA.sellerId, { status: "paid" });
    const noteId = randomUUID();
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.insert(meliNotifications).values({
        tenantId: A.tenantId,
        id: noteId,
        notificationId: randomUUID(),
        groupId: shopA.groupId,
        accountId: shopA.accountId,
        topic: "shipments",
        resource: `/shipments/${order.shipping.id}`,
        meliUserId: String(shopA.sellerId),
        status: MeliNotificationStatus.Pending,
      }),
    );
    const items = control().callCount("GET /shipments/:id/items");
    await pullService().notifications.process({ tenantId: A.tenantId, id: noteId });
    expect(control().callCount("GET /shipments/:id/items")).toBe(items + 1);
    const [stored] = await storedOf(A, order.id);
    expect(stored).toMatchObject({ shipmentId: String(order.shipping.id), status: OrderStatus.Paid });
  });
});

describe("global selling (CBT) orders", () => {
  it("a marketplace user's order arrives by marketplace_orders, in its site's shop; its label comes from the marketplace shipment", async () => {
    const D = await s.createTenant();
    const nickname = uniqueName("ORDCBT");
    control().notifications.configure({ url: `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}/api/Meli/MeliCallback` });
    const page = await connectShop(s, D.token, { nickname, site: "CBT", marketplaces: ["MLM", "MLB"], sites: [1, 2] });
    expect(page.ok, page.message).toBe(true);
    const global = sandbox().store.userByNickname(nickname)!;
    const brazil = global.marketplaces.find((m) => m.siteId === "MLB")!.userId;
    const [account] = await inScope(s.database.db, { tenantId: D.tenantId }, (tx) =>
      tx
        .select({ id: meliAccounts.id, groupId: meliAccounts.groupId })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, D.tenantId), eq(meliAccounts.custId, String(brazil)))),
    );
    const order = control().createOrder(brazil, { status: "paid" });
    const [stored] = await arrived(D, order.id);
    // A marketplace order is in USD (BRL 5 a dollar in the sandbox): its fee and freight are its lines' net proceeds
    // concepts, as /marketplace/orders/{id} answers them.
    const line = sandbox().store.state.orders.get(order.id)!.lines[0];
    const { order_items } = marketplaceOrderJson(sandbox().store, sandbox().store.state.orders.get(order.id)!);
    const concept = (id: string) => order_items[0].net_proceeds.additional_concepts.find((c) => c.id === id)!.amount;
    expect(stored).toMatchObject({ accountId: account.id, accountGroupId: account.groupId, isCbt: true, site: 2, currency: "USD" });
    expect(Number(stored.totalAmount)).toBeCloseTo((Math.round((line.unitPrice / 5) * 100) / 100) * line.quantity, 2);
    expect(Number(stored.saleFee)).toBeCloseTo(concept("sale_fee"), 2);
    expect(Number(stored.freightFee)).toBeCloseTo(concept("shipping_cost"), 2);
    expect(concept("sale_fee")).toBeGreaterThan(0);

    control().clock.advance(2 * HOUR);
    control().orders();
    await arrived(D, order.id, OrderStatus.ReadyToShip);
    const label = await s.app.inject({
      method: "GET",
      url: "/api/Order/GetOrderLabel",
      query: { orderId: stored.id },
      headers: { authorization: `Bearer ${D.token}` },
    });
    expect(label.statusCode, label.body).toBe(200);
    expect(label.rawPayload.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const invoice = await s.api("GET", "/api/Order/GetMeliOrderInvoice", { token: D.token, query: { orderId: stored.id } });
    expect(invoice.status, invoice.raw).toBe(200);
    expect(invoice.body.result).toMatchObject({ orderNo: String(order.id), currency: "USD", status: "issued" });
    expect(invoice.body.result.documentUrl).toMatch(/^data:application\/pdf;base64,/);
    expect(Buffer.from(invoice.body.result.documentUrl.split(",")[1], "base64").subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });
});

describe("global selling (CBT) pulls", () => {
  it("a pull searches the purchases once for every marketplace user and reads each wrapped order: a cart's orders share their pack", async () => {
    const F = await s.createTenant();
    const nickname = uniqueName("ORDCBTPULL");
    control().notifications.configure({ url: null });
    const page = await connectShop(s, F.token, { nickname, site: "CBT", marketplaces: ["MLM", "MLB"], sites: [1, 2] });
    expect(page.ok, page.message).toBe(true);
    const global = sandbox().store.userByNickname(nickname)!;
    const [mexico, brazil] = ["MLM", "MLB"].map((site) => global.marketplaces.find((m) => m.siteId === site)!.userId);
    const single = control().createOrder(mexico, { status: "paid" });
    const cart = control().createPack(brazil, 2);
    const [group] = await inScope(s.database.db, { tenantId: F.tenantId }, (tx) =>
      tx
        .select({ id: meliAccountGroups.id })
        .from(meliAccountGroups)
        .where(and(eq(meliAccountGroups.tenantId, F.tenantId), eq(meliAccountGroups.custId, String(global.id)))),
    );
    const searches = control().callCount("GET /marketplace/orders/search");
    const reads = control().callCount("GET /marketplace/orders/:id");
    const pulled = await pullService().pullGroup(F.tenantId, group.id, { by: "created", from: new Date(Date.now() - HOUR) }, null);
    // Two purchases (the cart wraps two orders), three orders read one by one.
    expect(pulled).toEqual({ read: 3, stored: 3, total: 2, withoutShipment: 0 });
    expect(control().callCount("GET /marketplace/orders/search")).toBe(searches + 1);
    expect(control().callCount("GET /marketplace/orders/:id")).toBe(reads + 3);
    const rows = await inScope(s.database.db, { tenantId: F.tenantId }, (tx) =>
      tx.select().from(orders).where(eq(orders.tenantId, F.tenantId)),
    );
    const byId = new Map(rows.map((r) => [r.meliOrderId, r]));
    expect(byId.get(String(single.id))).toMatchObject({ site: 1, currency: "USD", isCbt: true, packId: null });
    for (const o of cart) expect(byId.get(String(o.id))).toMatchObject({ site: 2, currency: "USD", packId: String(cart[0].pack_id) });
    // The cart's freight (its shipment's seller share, in USD) is split between its two orders.
    const freight = cart.map((o) => Number(byId.get(String(o.id))!.freightFee));
    const expected = cart.map((o) =>
      marketplaceOrderJson(sandbox().store, sandbox().store.state.orders.get(o.id)!).order_items.reduce(
        (a, l) => a + l.net_proceeds.additional_concepts.find((c) => c.id === "shipping_cost")!.amount,
        0,
      ),
    );
    freight.forEach((f, i) => expect(f).toBeCloseTo(expected[i], 2));
  });
});

describe("the order-search limit", () => {
  it("a pull of 10 shops keeps every seller's searches to the order-search bucket's rate", async () => {
    expect(ORDER_SEARCH_RATE.perMinute + ORDER_SEARCH_RATE.burst).toBeLessThanOrEqual(100);
    const C = await s.createTenant();
    const shops: Shop[] = [];
    for (let i = 0; i < 10; i++) shops.push(await connect(C, uniqueName(`ORDPULL${i}`)));
    control().notifications.configure({ url: null });
    for (const shop of shops) for (let i = 0; i < 52; i++) control().createOrder(shop.sellerId, { status: "paid" });

    // The same pull with the bucket at 60 a minute (one search a second per seller, no burst): 52 orders are two
    // pages of 51, so each seller's two searches must be a second apart while the ten sellers go side by side.
    const calls: { at: number; seller: string }[] = [];
    const meli = meliThrough((u) => {
      if (u.pathname.endsWith("/orders/search")) calls.push({ at: Date.now(), seller: u.searchParams.get("seller")! });
      return null;
    });
    const rejectedBefore = sandbox().store.state.rejections;
    const service = createOrderSyncService({
      database: s.database,
      jobs: s.deps.jobs,
      meli,
      log: s.deps.log,
      orderSearchRate: { perMinute: 60, burst: 1 },
    });
    const from = new Date(Date.now() - HOUR);
    const results = await Promise.all(shops.map((shop) => service.pullGroup(C.tenantId, shop.groupId, { by: "created", from }, null)));
    expect(results.map((r) => r.stored)).toEqual(shops.map(() => 52));
    expect(sandbox().store.state.rejections).toBe(rejectedBefore);
    for (const shop of shops) {
      const mine = calls.filter((c) => c.seller === String(shop.sellerId)).map((c) => c.at);
      expect(mine).toHaveLength(2);
      expect(mine[1] - mine[0]).toBeGreaterThanOrEqual(950);
    }
    // Side by side: each seller's searches take places in a bucket of its own (orders:<seller>, at the rate given), not
    // one shared by the sellers, so no seller's searches wait for another's. Its schedule (GCRA: a search may go once
    // tat − interval has passed) ends at its second search's place: the second search went no earlier than that place
    // (nothing took a place after it), and the first went before it.
    const buckets = rowsOf<{ key: string; tat_ms: number | string; interval_ms: number; burst_ms: number }>(
      await s.database.db.execute(
        sql`select key, extract(epoch from tat) * 1000 as tat_ms, interval_ms, burst_ms from meli_rate_buckets where key in (${sql.join(
          shops.map((shop) => sql`${`orders:${shop.sellerId}`}`),
          sql`, `,
        )})`,
      ),
    );
    expect(buckets.map((b) => b.key).sort()).toEqual(shops.map((shop) => `orders:${shop.sellerId}`).sort());
    for (const b of buckets) {
      expect({ interval: Number(b.interval_ms), burst: Number(b.burst_ms) }).toEqual({ interval: 1000, burst: 0 });
      const [first, second] = calls.filter((c) => `orders:${c.seller}` === b.key).map((c) => c.at);
      const lastPlace = Number(b.tat_ms) - 1000;
      // The timer and Date.now() count whole milliseconds; the database's clock, fractions of one.
      expect(second, b.key).toBeGreaterThanOrEqual(Math.floor(lastPlace) - 1);
      expect(first, b.key).toBeLessThan(lastPlace);
    }
    const count = await inScope(s.database.db, { tenantId: C.tenantId }, (tx) =>
      tx
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.tenantId, C.tenantId),
            inArray(
              orders.accountGroupId,
              shops.map((x) => x.groupId),
            ),
          ),
        ),
    );
    expect(count).toHaveLength(520);
  }, 120_000);
});

describe("a retried FetchOrders", () => {
  it("goes on after the last page it stored: no page is searched twice, every order is stored once", async () => {
    const E = await s.createTenant();
    const small = await connect(E, uniqueName("ORDRES1"));
    const big = await connect(E, uniqueName("ORDRES2"));
    control().notifications.configure({ url: null });
    const made = new Map<number, number[]>([
      [small.sellerId, []],
      [big.sellerId, []],
    ]);
    // 52 orders (two pages of 51) and 103 (three pages).
    for (let i = 0; i < 52; i++) made.get(small.sellerId)!.push(control().createOrder(small.sellerId, { status: "paid" }).id);
    for (let i = 0; i < 103; i++) made.get(big.sellerId)!.push(control().createOrder(big.sellerId, { status: "paid" }).id);

    // Every search each attempt makes (seller, offset, answered); the second group's second search is refused once as
    // Mercado Libre refuses a seller over its order-search limit (429, Retry-After longer than a call waits).
    type Search = { seller: number; offset: number; failed: boolean };
    const searches: Search[] = [];
    let failed = false;
    const meli = meliThrough((u) => {
      if (!u.pathname.endsWith("/orders/search")) return null;
      const search = { seller: Number(u.searchParams.get("seller")), offset: Number(u.searchParams.get("offset")), failed: false };
      searches.push(search);
      if (failed || search.seller !== big.sellerId || search.offset !== LOCAL_SEARCH_LIMIT) return null;
      failed = search.failed = true;
      return new Response(JSON.stringify({ message: "Too many requests", error: "too_many_requests", status: 429, cause: [] }), {
        status: 429,
        headers: { "content-type": "application/json", "retry-after": "600" },
      });
    });

    // The job FetchOrders queues for the two groups (the big one second: it fails after the first is done).
    const taskId = await inScope(s.database.db, { tenantId: E.tenantId }, (tx) =>
      createTask(tx, { tenantId: E.tenantId, taskType: TaskType.SyncOrders, content: "拉取订单", creatorId: E.userId }),
    );
    const job = {
      tenantId: E.tenantId,
      taskId,
      creatorId: E.userId,
      from: new Date(Date.now() - HOUR).toISOString(),
      to: null,
      groups: [small, big].map((g) => ({ groupId: g.groupId, accountIds: null })),
    };
    const storedRows = () =>
      inScope(s.database.db, { tenantId: E.tenantId }, (tx) =>
        tx.select({ id: orders.meliOrderId, groupId: orders.accountGroupId }).from(orders).where(eq(orders.tenantId, E.tenantId)),
      );

    // The first attempt fails at the refused search: the queue would retry it (a retryable error, the task running).
    const first = await pullService(meli)
      .runFetch(job)
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(first).toBeInstanceOf(MeliApiError);
    expect((first as MeliApiError).retryable).toBe(true);
    expect(failed).toBe(true);
    // The task keeps where it stopped: the first group done, the second's first page stored (a periodic pull of the
    // same shops, should one run meanwhile, stores into the same rows and leaves this alone).
    const stopped = await taskOf(E, taskId);
    expect(stopped.taskStatus).toBe(TaskStatus.Running);
    expect(stopped.state).toMatchObject({
      group: 1,
      before: { read: 52, stored: 52 },
      pull: {
        read: LOCAL_SEARCH_LIMIT,
        stored: LOCAL_SEARCH_LIMIT,
        total: 103,
        next: { seller: String(big.sellerId), offset: LOCAL_SEARCH_LIMIT },
      },
    });
    const attempt1 = searches.length;

    // The retry (a new service, as another worker would run it) reads the task's resume point.
    await pullService(meli).runFetch(job);
    const retried = searches.slice(attempt1);
    expect(retried[0]).toEqual({ seller: big.sellerId, offset: LOCAL_SEARCH_LIMIT, failed: false });
    const answered = searches.filter((x) => !x.failed).map((x) => `${x.seller}@${x.offset}`);
    expect(new Set(answered).size).toBe(answered.length);
    const pages = (seller: number, n: number) =>
      Array.from({ length: Math.ceil(n / LOCAL_SEARCH_LIMIT) }, (_, i) => `${seller}@${i * LOCAL_SEARCH_LIMIT}`);
    expect(answered.sort()).toEqual([...pages(small.sellerId, 52), ...pages(big.sellerId, 103)].sort());

    const rows = await storedRows();
    expect(rows).toHaveLength(155);
    expect(
      rows
        .filter((r) => r.groupId === small.groupId)
        .map((r) => Number(r.id))
        .sort(),
    ).toEqual([...made.get(small.sellerId)!].sort());
    expect(
      rows
        .filter((r) => r.groupId === big.groupId)
        .map((r) => Number(r.id))
        .sort(),
    ).toEqual([...made.get(big.sellerId)!].sort());
    const task = await taskOf(E, taskId);
    expect(task.taskStatus).toBe(TaskStatus.Succeeded);
    expect(task.taskRemark).toBe("已读取 155 个订单，新增或更新 155 个");
  }, 240_000);
});

describe("a FetchOrders whose shipments Mercado Libre refuses", () => {
  it("stores the orders without them and ends failed, saying how many lack their shipment (never a plain success)", async () => {
    const F = await s.createTenant();
    const shop = await connect(F, uniqueName("ORDSHIP"));
    control().notifications.configure({ url: null });
    const order = control().createOrder(shop.sellerId, { status: "paid" });
    const shipmentId = control()
      .orders(shop.sellerId)
      .find((o) => o.id === order.id)!.shipping!.id;
    control().inject({ method: "GET", path: new RegExp(`/shipments/${shipmentId}$`), status: 403, times: 10 });
    const fetch = await s.api("GET", "/api/Order/FetchOrders", {
      token: F.token,
      query: { StartTime: new Date(Date.now() - HOUR).toISOString(), GroupId: shop.groupId },
    });
    expect(fetch.status, fetch.raw).toBe(200);
    const task = await taskDone(F, fetch.body.result.taskId);
    control().clearInjections();
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Failed);
    expect(task.taskRemark).toContain("已读取 1 个订单，新增或更新 1 个；1 个订单的物流");
    const [stored] = await storedOf(F, order.id);
    expect(stored).toMatchObject({ shipmentStatus: null });
  });
});
