// The source behind every order (issue 32), against the sandbox: an order of a listing published from a collected
// product shows its offer, the variant its SKU names (price when collected and last known, 去采购 on that variant) and
// the margin at the last known price (the list's row too); the purchase list of the ready orders sums the variant's quantity over its
// orders under its source shop and exports as xlsx; SetPurchase's cost is the line's cost in the order's profit (kept
// when the order is stored again) and a replay of its Idempotency-Key changes nothing; bad input is a 400 or 404;
// another tenant gets nothing.
import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collections, currencies, orders, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { createShopItem, recordListings } from "../../testing/listing-kit.ts";
import { connectOrderShop } from "../../testing/order-kit.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { OrderSources, PurchaseList } from "#shared/contract/order-sources.ts";
import { createOrderSyncService } from "./sync.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let groupId: string;
let sellerId: number;
const orderIds: string[] = [];
const meliIds: string[] = [];

const sync = () =>
  createOrderSyncService({ database: s.database, jobs: { ...s.deps.jobs, handle: () => undefined }, meli: s.deps.meli, log: s.deps.log });

const stored = async (id: string) =>
  (
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select()
        .from(orders)
        .where(and(eq(orders.tenantId, A.tenantId), eq(orders.id, id))),
    )
  )[0];

beforeAll(async () => {
  s = await startTestServer();
  s.deps.sandbox!.store.state.orderIntervalMs = 1e13;
  A = await s.createTenant();
  B = await s.createTenant();
  ({ sellerId, groupId } = await connectOrderShop(s, A, "SRC"));
  // A 1688 offer with two colours, collected (last known 12.50 for blue) and made a product (11.00 for blue when collected).
  const collectionId = randomUUID();
  const productId = randomUUID();
  const offer = { platformType: 1, itemId: "654321", sourceUrl: "https://detail.1688.com/offer/654321.html" };
  const options = [
    {
      name: "颜色",
      values: [
        { id: "r", name: "红色" },
        { id: "b", name: "蓝色" },
      ],
    },
  ];
  await inScope(s.database.db, { tenantId: A.tenantId }, async (tx) => {
    await tx.insert(collections).values({
      tenantId: A.tenantId,
      id: collectionId,
      userId: A.userId,
      ...offer,
      titleText: "源头工厂 水杯",
      price: "10.00",
      currency: "CNY",
      shop: { id: "s1", name: "义乌小店", url: "https://shop1.1688.com" },
      options,
      variants: [
        { sku: "SRC-R", optionValues: ["r"], price: 10 },
        { sku: "SRC-B", optionValues: ["b"], price: 12.5 },
      ],
    });
    await tx.insert(products).values({
      tenantId: A.tenantId,
      id: productId,
      userId: A.userId,
      sourceCollectionId: collectionId,
      ...offer,
      price: "9.00",
      currency: "CNY",
      options,
      variants: [
        { sku: "SRC-R", optionValues: ["r"], price: 9 },
        { sku: "SRC-B", optionValues: ["b"], price: 11 },
      ],
    });
  });
  // Its listing: the sandbox item carries the blue variant's SKU; two ready orders of it (2 and 1).
  const itemId = await createShopItem(s, A, groupId, { price: 250, available_quantity: 50, seller_custom_field: "SRC-B" });
  await recordListings(s, A, groupId, [itemId], { productId });
  for (const quantity of [2, 1]) meliIds.push(String(s.deps.sandbox!.control.createReadyOrder(sellerId, { itemId, quantity }).id));
  expect(await sync().refreshOrders(A.tenantId, groupId, meliIds)).toBe(2);
  const rows = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
    tx.select({ id: orders.id, no: orders.meliOrderId }).from(orders).where(eq(orders.tenantId, A.tenantId)),
  );
  for (const no of meliIds) orderIds.push(rows.find((r) => r.no === no)!.id);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const sources = async (token: string, orderId: string) => s.api("GET", "/api/Order/GetOrderSources", { token, query: { orderId } });
const purchaseList = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await s.api("POST", "/api/Order/GetPurchaseList", { token, body });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as PurchaseList;
};
const setPurchase = (token: string, body: Record<string, unknown>, key = randomUUID()) =>
  s.api("POST", "/api/Order/SetPurchase", { token, body, headers: { "idempotency-key": key } });

describe("the source behind an order", () => {
  it("an order line of a collected product shows its offer, its variant and the margin at the last known price", async () => {
    const res = await sources(A.token, orderIds[0]);
    expect(res.status, res.raw).toBe(200);
    const r = res.body.result as OrderSources;
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({ quantity: 2, sku: "SRC-B", purchase: null });
    expect(r.lines[0].source).toMatchObject({
      platformType: 1,
      offerUrl: "https://detail.1688.com/offer/654321.html",
      sourceItemId: "654321",
      shopName: "义乌小店",
      variant: { sku: "SRC-B", values: ["蓝色"], match: "sku" },
      purchaseUrl: "https://detail.1688.com/offer/654321.html?skuId=SRC-B",
      currency: "CNY",
      collectedPrice: 11,
      lastKnownPrice: 12.5,
    });
    // The margin's cost: 2 × 12.50 CNY in pesos at the stored rates, half up.
    const rates = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) => tx.select().from(currencies));
    const mxn = Number(rates.find((x) => x.code === "MXN")!.rate);
    expect(r.margin).toMatchObject({ currency: "MXN", complete: true, cost: Math.round((25 / mxn) * 100) / 100 });
    expect(r.margin.profit).toBeLessThan(r.margin.salePrice - r.margin.cost);
    // The order list's row carries the source too (one statement for the page).
    const page = await s.api("GET", "/api/Order/GetOrders", { token: A.token, query: { OrderId: orderIds[0] } });
    expect(page.body.result.items[0].items[0].source).toEqual({
      offerUrl: r.lines[0].source!.offerUrl,
      platformType: 1,
      shopName: "义乌小店",
    });
    // And its margin at the source, the drawer's (one more statement for the page's lines).
    expect(page.body.result.items[0].sourceMargin).toEqual(r.margin);
  });

  it("the purchase list sums the variant's quantity over the ready orders, by source shop, and exports as xlsx", async () => {
    const list = await purchaseList(A.token);
    expect(list.truncated).toBe(false);
    expect(list.groups).toHaveLength(1);
    expect(list.groups[0]).toMatchObject({ shopId: "s1", shopName: "义乌小店" });
    expect(list.groups[0].lines).toHaveLength(1);
    expect(list.groups[0].lines[0]).toMatchObject({ quantity: 3, boughtQuantity: 0, estimatedCost: 37.5 });
    expect(list.groups[0].lines[0].orders.map((o) => o.orderNo).sort()).toEqual([...meliIds].sort());
    // Another status: nothing to buy.
    expect((await purchaseList(A.token, { OrderStatus: 4 })).groups).toEqual([]);
    // By source (the extension's page of the offer): the same line; another offer's, nothing.
    expect((await purchaseList(A.token, { SourcePlatformType: 1, SourceItemId: "654321" })).groups).toEqual(list.groups);
    expect((await purchaseList(A.token, { SourcePlatformType: 2, SourceItemId: "654321" })).groups).toEqual([]);

    const started = await s.api("POST", "/api/Order/ExportPurchaseList", { token: A.token, body: {} });
    expect(started.status, started.raw).toBe(200);
    const taskId = started.body.result.taskId as string;
    let task: { taskStatus: number; taskRemark: string } | undefined;
    for (let i = 0; i < 500 && !(task && task.taskStatus >= TaskStatus.Succeeded); i++) {
      const page = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", {
        token: A.token,
        query: { TaskType: TaskType.ExportPurchaseList },
      });
      task = page.body.result.items.find((t: { id: string }) => t.id === taskId);
      if (!task || task.taskStatus < TaskStatus.Succeeded) await new Promise((r) => setTimeout(r, 100));
    }
    expect(task?.taskStatus, task?.taskRemark).toBe(TaskStatus.Succeeded);
    const file = await s.app.inject({
      method: "GET",
      url: "/api/Order/DownloadPurchaseListExport",
      query: { taskId },
      headers: { authorization: `Bearer ${A.token}` },
    });
    expect(file.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as never);
    const row = (workbook.worksheets[0].getRow(2).values as unknown[]).slice(1);
    expect(row.slice(0, 5)).toEqual(["义乌小店", "源头工厂 水杯", "SRC-B", "蓝色", 3]);
    // B cannot download A's file.
    const other = await s.app.inject({
      method: "GET",
      url: "/api/Order/DownloadPurchaseListExport",
      query: { taskId },
      headers: { authorization: `Bearer ${B.token}` },
    });
    expect(other.statusCode).toBe(404);
  });

  it("SetPurchase's cost is the line's cost in the order's profit, kept when the order is stored again; a replay changes nothing", async () => {
    const before = await stored(orderIds[0]);
    const key = randomUUID();
    const body = { orderId: orderIds[0], line: 1, cost: 20, purchaseOrderNo: "PO-1688-1" };
    const first = await setPurchase(A.token, body, key);
    expect(first.status, first.raw).toBe(200);
    const after = await stored(orderIds[0]);
    const rates = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) => tx.select().from(currencies));
    const mxn = Number(rates.find((x) => x.code === "MXN")!.rate);
    // 20 CNY instead of 2 × 9.00 CNY (the product's price).
    expect(Number(after.cost)).toBeCloseTo(Math.round((20 / mxn) * 100) / 100, 2);
    expect(Number(after.profit)).toBeCloseTo(Number(before.profit) - (Number(after.cost) - Number(before.cost)), 2);
    expect(first.body.result).toMatchObject({ line: 1, cost: Number(after.cost), profit: Number(after.profit) });
    expect(first.body.result.purchase).toMatchObject({ cost: 20, currency: "CNY", purchaseOrderNo: "PO-1688-1" });

    // The same key and body: the first answer, nothing done again.
    const replay = await setPurchase(A.token, body, key);
    expect(replay.status).toBe(200);
    expect(replay.body.result).toEqual(first.body.result);
    const list = await purchaseList(A.token);
    expect(list.groups[0].lines[0]).toMatchObject({ quantity: 3, boughtQuantity: 2 });
    expect((await sources(A.token, orderIds[0])).body.result.lines[0].purchase).toMatchObject({ cost: 20, purchaseOrderNo: "PO-1688-1" });

    // Stored again from Mercado Libre: the purchase still counts.
    s.deps.sandbox!.control.clock.advance(1000);
    expect(await sync().refreshOrders(A.tenantId, groupId, [meliIds[0]])).toBe(1);
    expect(Number((await stored(orderIds[0])).cost)).toBe(Number(after.cost));

    // Cleared: the product's price again.
    const cleared = await setPurchase(A.token, { orderId: orderIds[0], line: 1, cost: null });
    expect(cleared.status, cleared.raw).toBe(200);
    expect(Number((await stored(orderIds[0])).cost)).toBe(Number(before.cost));
  });

  it("bad input is refused and another tenant gets nothing", async () => {
    const bad: [Record<string, unknown>, number][] = [
      [{ orderId: orderIds[1], line: 1, cost: -1 }, 400],
      [{ orderId: orderIds[1], line: 1, cost: 1.234 }, 400],
      [{ orderId: orderIds[1], line: 1, cost: 5, currency: "CNYX" }, 400],
      [{ orderId: orderIds[1], line: 1, cost: 5.5, currency: "CLP" }, 400],
      [{ orderId: "x", line: 1, cost: 5 }, 400],
      [{ orderId: orderIds[1], line: 9, cost: 5 }, 404],
      [{ orderId: randomUUID(), line: 1, cost: 5 }, 404],
    ];
    for (const [body, status] of bad) {
      const res = await setPurchase(A.token, body);
      expect(res.status, `${JSON.stringify(body)} ${res.raw}`).toBe(status);
      expect(res.body.error.message).toBeTruthy();
    }
    expect((await sources(A.token, "nope")).status).toBe(400);
    expect((await sources(B.token, orderIds[1])).status).toBe(404);
    expect((await setPurchase(B.token, { orderId: orderIds[1], line: 1, cost: 5 })).status).toBe(404);
    expect((await purchaseList(B.token)).groups).toEqual([]);
    expect((await purchaseList(B.token, { OrderId: orderIds[1] })).groups).toEqual([]);
    expect(Number((await stored(orderIds[1])).cost)).toBeGreaterThan(0);
    const untouched = await sources(A.token, orderIds[1]);
    expect(untouched.body.result.lines[0].purchase).toBeNull();
  });
});
