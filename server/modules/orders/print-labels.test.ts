// 批量打单 (issue 32) against the sandbox: PrintLabels of 50 ready-to-ship orders answers a task whose PDF is the packing
// list (order, SKU, variant, quantity, source) and then the 50 labels in packing order (source shop, then SKU), fetched
// in one /shipment_labels call (a lower batch size gives several calls and the same file); the orders read printed, as
// the sandbox's shipments do. Bad input is refused with the envelope; another tenant gets nothing; the sandbox refuses
// more than 50 shipments a call and a shipment not ready to ship. The packing list is Chinese: its font is embedded, a 1688
// shop named in Chinese prints as itself.
import { randomUUID } from "node:crypto";
import { inflateSync } from "node:zlib";
import { and, eq, inArray } from "drizzle-orm";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFPage } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collections, orders, products, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { createShopItem, recordListings } from "../../testing/listing-kit.ts";
import { connectOrderShop } from "../../testing/order-kit.ts";
import { until } from "../../testing/publish-kit.ts";
import { createTask } from "../../jobs/tasks.ts";
import { sandboxFetch } from "../../integrations/mercadolibre/transport.ts";
import { SANDBOX_PREFIX } from "../../sandbox/sandbox.ts";
import { OrderStatus, PlatformType, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { OrderPage } from "#shared/contract/orders.ts";
import { createOrderSyncService } from "./sync.ts";
import { createPrintLabels } from "./print-labels.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let groupId: string;
let sellerId: number;
const control = () => s.deps.sandbox!.control;

const streamText = (stream: PDFRawStream) => {
  const raw = Buffer.from(stream.getContents());
  return (stream.dict.get(PDFName.of("Filter")) ? inflateSync(raw) : raw).toString("latin1");
};

/** The text a page draws: its content streams, inflated, each hex string as (text): read through its font's ToUnicode
 *  map (the packing list's embedded font, two bytes a glyph), else as single bytes (a standard font's). Also the
 *  page's embedded font files. */
function pageText(page: PDFPage): { text: string; fontFiles: string[] } {
  const ctx = page.doc.context;
  const unicodeOf = new Map<string, Map<string, string>>();
  const fontFiles: string[] = [];
  for (const [name, ref] of page.node.Resources()?.lookupMaybe(PDFName.of("Font"), PDFDict)?.entries() ?? []) {
    const font = ctx.lookup(ref, PDFDict);
    const toUnicode = font.get(PDFName.of("ToUnicode"));
    if (!toUnicode) continue;
    const map = new Map<string, string>();
    for (const [, gid, uni] of streamText(ctx.lookup(toUnicode) as PDFRawStream).matchAll(/<([0-9A-F]{4})> <([0-9A-F]+)>/gi))
      map.set(gid.toUpperCase(), String.fromCodePoint(...(uni.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16))));
    unicodeOf.set(name.asString(), map);
    const descendant = ctx.lookup(font.lookup(PDFName.of("DescendantFonts"), PDFArray).get(0), PDFDict);
    const descriptor = descendant.lookup(PDFName.of("FontDescriptor"), PDFDict);
    for (const key of ["FontFile", "FontFile2", "FontFile3"])
      if (descriptor.get(PDFName.of(key))) fontFiles.push(`${key} ${name.asString()}`);
  }
  const contents = page.node.get(PDFName.of("Contents"));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  let current: Map<string, string> | undefined;
  const text = refs
    .map((ref) => {
      const stream = ctx.lookup(ref);
      return stream instanceof PDFRawStream ? streamText(stream) : "";
    })
    .join("\n")
    .replace(/(\/\S+) [\d.]+ Tf|<([0-9A-Fa-f]*)>\s*Tj/g, (all, font: string | undefined, hex: string | undefined) => {
      if (font) {
        current = unicodeOf.get(font);
        return all;
      }
      const decoded = current
        ? (hex!.match(/.{4}/g) ?? []).map((g) => current!.get(g.toUpperCase()) ?? "\ufffd").join("")
        : Buffer.from(hex!, "hex").toString("latin1");
      return `(${decoded}) Tj`;
    });
  return { text, fontFiles };
}

const taskOf = async (taskId: string) =>
  (
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select()
        .from(taskInfos)
        .where(and(eq(taskInfos.tenantId, A.tenantId), eq(taskInfos.id, taskId))),
    )
  )[0];

const download = (token: string, taskId: string) =>
  s.app.inject({
    method: "GET",
    url: "/api/Order/DownloadPrintedLabels",
    query: { taskId },
    headers: { authorization: `Bearer ${token}` },
  });

/** The source each item's product came from: "" for an item without a product. */
const sourceByItem = new Map<string, { source: string; sku: string }>();
let ready: OrderPage["items"];

beforeAll(async () => {
  s = await startTestServer();
  s.deps.sandbox!.store.state.orderIntervalMs = 1e13;
  A = await s.createTenant();
  B = await s.createTenant();
  ({ sellerId, groupId } = await connectOrderShop(s, A, "LBL"));

  // Four items: three published from collected products of three source shops, one with no product.
  const sources = [
    { platform: PlatformType.Alibaba1688, shop: "义乌红色小店", sku: "SKU-A", expect: "1688 / 义乌红色小店" },
    { platform: PlatformType.Alibaba1688, shop: "Shop Alpha", sku: "SKU-Z", expect: "1688 / Shop Alpha" },
    { platform: PlatformType.Taobao, shop: "Alpha", sku: "SKU-M", expect: "淘宝 / Alpha" },
  ];
  const items: string[] = [];
  for (const src of [...sources, null]) {
    const itemId = await createShopItem(s, A, groupId, { price: 100, available_quantity: 500 });
    items.push(itemId);
    if (!src) {
      sourceByItem.set(itemId, { source: "", sku: itemId });
      continue;
    }
    const collectionId = randomUUID();
    const productId = randomUUID();
    await inScope(s.database.db, { tenantId: A.tenantId }, async (tx) => {
      await tx.insert(collections).values({
        tenantId: A.tenantId,
        id: collectionId,
        userId: A.userId,
        platformType: src.platform,
        itemId: String(Math.floor(Math.random() * 1e12)),
        sourceUrl: "https://detail.1688.com/offer/1.html",
        shop: { id: "s1", name: src.shop, url: null },
      });
      await tx.insert(products).values({
        tenantId: A.tenantId,
        id: productId,
        userId: A.userId,
        sourceCollectionId: collectionId,
        platformType: src.platform,
        sku: src.sku,
        price: "10.00",
        currency: "CNY",
      });
    });
    await recordListings(s, A, groupId, [itemId], { productId });
    sourceByItem.set(itemId, { source: src.expect, sku: src.sku });
  }
  // 50 ready-to-ship orders over the four items, and one that is only paid; stored by one pull of the group.
  for (let i = 0; i < 50; i++) control().createReadyOrder(sellerId, { itemId: items[i % 4], quantity: (i % 3) + 1 });
  control().createOrder(sellerId, { itemId: items[0], quantity: 1, status: "paid" });
  await createOrderSyncService({ database: s.database, jobs: s.deps.jobs, meli: s.deps.meli, log: s.deps.log }).runPull({
    tenantId: A.tenantId,
    groupId,
  });
  const res = await s.api("GET", "/api/Order/GetOrders", {
    token: A.token,
    query: { MaxResultCount: 100, OrderStatus: OrderStatus.ReadyToShip },
  });
  expect(res.status, res.raw).toBe(200);
  ready = (res.body.result as OrderPage).items;
  expect(ready).toHaveLength(50);
}, 180_000);
afterAll(async () => {
  await s?.close();
});

/** The orders in packing order: source (none last), then SKU, then order number. */
function packingOrder(rows: OrderPage["items"]): string[] {
  const key = (r: OrderPage["items"][number]) => {
    const src = sourceByItem.get(r.items[0].meliId)!;
    return [src.source || "\uffff", r.items[0].sku || src.sku, r.orderNo];
  };
  return [...rows]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
      return 0;
    })
    .map((r) => r.orderNo);
}

/** The file's labels: the order number each label page names, after the packing list's pages. */
async function labelsOf(pdf: Buffer) {
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const doc = await PDFDocument.load(pdf);
  const pages = doc.getPages().map(pageText);
  const first = pages.findIndex((p) => p.text.includes("Mercado Envios"));
  return {
    packing: pages.slice(0, first),
    orderNos: pages.slice(first).map((p) => /Venta (\d+)/.exec(p.text)?.[1] ?? "?"),
  };
}

describe("PrintLabels", () => {
  let taskId: string;

  it("gives one PDF: the packing list, then the 50 labels in packing order from one label call; the orders read printed", async () => {
    const calls = control().callCount("GET /shipment_labels");
    const res = await s.api("POST", "/api/Order/PrintLabels", { token: A.token, body: { filter: { AccountGroupId: groupId } } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.orders).toBe(50);
    taskId = res.body.result.taskId;
    const task = await until(
      () => taskOf(taskId),
      (t) => t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed,
      "print task",
      60_000,
    );
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect(task.taskType).toBe(TaskType.PrintLabels);
    expect(task.progress).toBe(100);
    expect(task.taskRemark).toMatch(/^面单-\d{8}-\d{6}\.pdf$/);
    expect(task.content).toBe("批量打单：50 个订单：50 张面单");
    // 50 shipments of one shop: one call at the documented limit.
    expect(control().callCount("GET /shipment_labels")).toBe(calls + 1);

    const file = await download(A.token, taskId);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(decodeURIComponent(String(file.headers["content-disposition"]))).toContain(task.taskRemark!);
    const { packing, orderNos } = await labelsOf(file.rawPayload);
    expect(orderNos).toEqual(packingOrder(ready));
    // The packing list: every order with its SKU, quantity and source, in the same order, in Chinese: the font is
    // embedded (a subset) and a Chinese shop name is drawn as itself, not "?".
    expect(packing.length).toBeGreaterThanOrEqual(1);
    expect(packing[0].fontFiles.join()).toMatch(/FontFile3 \/NotoSansHans-Regular/);
    const list = packing.map((p) => p.text).join("\n");
    expect(list).toContain("装箱单");
    expect(list).toContain("共 50 张面单，50 行");
    for (const header of ["(订单号)", "(SKU)", "(规格)", "(数量)", "(货源)"]) expect(list).toContain(header);
    expect(list).not.toContain("\ufffd");
    const positions = packingOrder(ready).map((no) => list.indexOf(`(${no})`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const src of ["(1688 / Shop Alpha)", "(1688 / 义乌红色小店)", "(淘宝 / Alpha)", "(SKU-Z)"]) expect(list).toContain(src);

    // Printed: stored and at Mercado Libre.
    const stored = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select({ sub: orders.shipmentSubstatus })
        .from(orders)
        .where(
          and(
            eq(orders.tenantId, A.tenantId),
            inArray(
              orders.id,
              ready.map((r) => r.id),
            ),
          ),
        ),
    );
    expect(new Set(stored.map((r) => r.sub))).toEqual(new Set(["printed"]));
    const shipment = await s.deps.meli
      .shop({ tenantId: A.tenantId, groupId })
      .send<{ substatus: string }>("GET", `/shipments/${ready[0].shipmentId}`, { headers: { "x-format-new": "true" } });
    expect(shipment.substatus).toBe("printed");
  });

  it("batches: at 20 shipments a call the same 50 labels come from 3 calls, in the same order", async () => {
    const calls = control().callCount("GET /shipment_labels");
    const small = createPrintLabels({
      database: s.database,
      jobs: s.deps.jobs,
      meli: s.deps.meli,
      dataDir: s.deps.config.dataDir,
      labelsPerCall: 20,
    });
    const id = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      createTask(tx, { tenantId: A.tenantId, taskType: TaskType.PrintLabels, content: "批量打单：50 个订单", creatorId: A.userId }),
    );
    await small.runPrint({
      tenantId: A.tenantId,
      taskId: id,
      orderIds: ready.map((r) => r.id),
      fileName: "面单-20260101-000000.pdf",
      content: "批量打单：50 个订单",
    });
    expect(control().callCount("GET /shipment_labels")).toBe(calls + 3);
    const file = await download(A.token, id);
    expect(file.statusCode, file.body).toBe(200);
    expect((await labelsOf(file.rawPayload)).orderNos).toEqual(packingOrder(ready));
  });

  it("refuses bad input with the envelope", async () => {
    const post = (body: unknown) => s.api("POST", "/api/Order/PrintLabels", { token: A.token, body });
    for (const body of [{}, { orderIds: [], filter: {} }, { orderIds: ["x"] }]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
    const tooMany = await post({ orderIds: Array.from({ length: 1001 }, () => randomUUID()) });
    expect(tooMany.status).toBe(400);
    // An order that is only paid has no label yet.
    const all = (await s.api("GET", "/api/Order/GetOrders", { token: A.token, query: { OrderStatus: OrderStatus.Paid } })).body
      .result as OrderPage;
    const paid = await post({ orderIds: [ready[0].id, all.items[0].id] });
    expect(paid.status).toBe(400);
    expect(paid.body.error.message).toContain(all.items[0].orderNo);
    // A filter with no ready order.
    const none = await post({ filter: { OrderStatus: OrderStatus.Paid } });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain("没有待发货的订单");
    // An unknown task downloads nothing.
    expect((await download(A.token, randomUUID())).statusCode).toBe(404);
  });

  it("another tenant gets nothing: A's orders are not found, A's file not given", async () => {
    const calls = control().callCount("GET /shipment_labels");
    const res = await s.api("POST", "/api/Order/PrintLabels", { token: B.token, body: { orderIds: [ready[0].id] } });
    expect(res.status).toBe(404);
    expect(res.raw).not.toContain(ready[0].orderNo);
    const filtered = await s.api("POST", "/api/Order/PrintLabels", { token: B.token, body: { filter: { AccountGroupId: groupId } } });
    expect(filtered.status).toBe(400);
    expect((await download(B.token, taskId)).statusCode).toBe(404);
    expect(control().callCount("GET /shipment_labels")).toBe(calls);
  });
});

describe("the sandbox's /shipment_labels", () => {
  const labels = async (ids: string[]) => {
    const now = s.deps.sandbox!.store.now();
    const [token] = [...s.deps.sandbox!.store.state.tokens.entries()].find(([, t]) => t.userId === sellerId && t.expiresAt > now)!;
    return sandboxFetch(s.deps.sandbox!)(
      `http://sandbox.local${SANDBOX_PREFIX}/shipment_labels?shipment_ids=${ids.join(",")}&response_type=pdf`,
      { method: "GET", headers: { authorization: `Bearer ${token}` } },
    );
  };

  it("takes at most 50 shipments a call and only shipments ready to ship", async () => {
    const ids = ready.map((r) => r.shipmentId!);
    const over = await labels([...ids, "1"]);
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: string }).error).toBe("too_many_shipments");
    const paid = control().createOrder(sellerId, { quantity: 1, status: "paid" });
    const notReady = await labels([ids[0], String(paid.shipping.id)]);
    expect(notReady.status).toBe(400);
    expect(((await notReady.json()) as { error: string }).error).toBe("not_ready_to_ship");
    const two = await labels(ids.slice(0, 2));
    expect(two.status).toBe(200);
    expect((await PDFDocument.load(Buffer.from(await two.arrayBuffer()))).getPageCount()).toBe(2);
  });
});
