// BatchUpdateWeight, BatchUpdateImage and BatchUpdateMeliPrice on cross-border listings, against the sandbox through the
// real HTTP stack (issue 16), and batch jobs that fail for other reasons than a refusal. Pictures are served by a local
// HTTP server (CRAWL_ALLOW_PRIVATE on for this server, as the picture probe's tests do) so that their sizes are real.
// Each test checks what Mercado Libre (the sandbox's store) holds afterwards, the listing's record and the task.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { currencies, listings, meliCallLogs } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { rowsOf } from "../../db/client.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import {
  connectPublishingShop,
  createProductAs,
  ean13s,
  requestAttrs,
  shopGroupOf,
  syncCategories,
  until,
} from "../../testing/publish-kit.ts";
import { ListingStatus, TaskStatus } from "#shared/contract/enums.ts";
import type { BatchEditState } from "#shared/contract/listing-edits.ts";
import { pngImage } from "#shared/images/test-images.ts";
import { createMeliLogService } from "../meli-logs/service.ts";
import { createListingEditService, type Edit } from "./edits.ts";
import { EDIT_ATTEMPTS } from "./edit-job.ts";
import { batchEditState } from "./edit-task.ts";

let s: TestServer;
let A: TestTenant;
let C: TestTenant;
let images: Server;
let base: string;
type Live = { id: string; itemId: string; cbtId: string; site: number };
/** A's local listings, one per test that changes it. */
let local: Live[] = [];
/** C's cross-border listings of one global item: Mexico and Brazil. */
let mx: Live;
let br: Live;

const pictures: Record<string, Uint8Array> = {
  "/big.png": pngImage(800, 600),
  "/wide.png": pngImage(1000, 500),
  "/small.png": pngImage(300, 300),
  "/tiny.png": pngImage(120, 80),
};
const pic = (name: string) => `${base}/${name}.png`;

const sandbox = () => s.deps.sandbox!;
const item = (id: string) => sandbox().store.state.items.get(id)!;
/** The URLs the item's pictures were taken from, in order (the sandbox keeps a source picture's URL). */
const sourcesOf = (id: string) => item(id).pictures.map((p) => sandbox().store.state.pictures.get(p.id)?.url);
const api = (t: TestTenant, group: string, name: string, body: unknown, key: string) =>
  s.api("POST", `/api/${group}/${name}`, { token: t.token, body, headers: { "idempotency-key": key } });

async function record(t: TestTenant, id: string) {
  const [row] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select()
      .from(listings)
      .where(and(eq(listings.tenantId, t.tenantId), eq(listings.id, id))),
  );
  return row;
}

async function callsOf(t: TestTenant, listingId: string): Promise<number> {
  const [r] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(meliCallLogs)
      .where(and(eq(meliCallLogs.tenantId, t.tenantId), eq(meliCallLogs.listingId, listingId))),
  );
  return r.n;
}

type Finished = { state: BatchEditState; status: number; remark: string | null };
async function finished(t: TestTenant, taskId: string): Promise<Finished> {
  return until(
    async () =>
      inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
        const state = await batchEditState(tx, t.tenantId, taskId);
        const [r] = rowsOf<{ status: number; remark: string | null }>(
          await tx.execute(
            sql`select task_status as status, task_remark as remark from task_infos where tenant_id = ${t.tenantId} and id = ${taskId}`,
          ),
        );
        return { state: state!, ...r };
      }),
    (v) => v.state.outcome !== "running",
    "batch task",
    20_000,
  );
}

/** Starts a batch and waits for its task to end. */
async function batch(t: TestTenant, group: string, name: string, body: unknown, key: string): Promise<Finished> {
  const res = await api(t, group, name, body, key);
  expect(res.status, res.raw).toBe(200);
  return finished(t, res.body.result.taskId);
}

beforeAll(async () => {
  images = createServer((req, res) => {
    const body = pictures[new URL(req.url ?? "/", "http://x").pathname];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/png", "content-length": body.length }).end(body);
  });
  await new Promise<void>((r) => images.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  const crawl = loadConfig({ TOKEN_SIGNING_KEY: "x".repeat(40), DATA_DIR: "/tmp/erp-batch-more-config" }).crawl;
  s = await startTestServer({ crawl: { ...crawl, allowPrivate: true } });
  await syncCategories(s, [1, 5]);

  // Local: five listings on Mexico.
  A = await s.createTenant();
  const groupA = await connectPublishingShop(s, A, { nickname: "MOREEDITS", site: "MLM", sites: [1] }, ean13s(10, 750400000000));
  const leaf = plainLeaf(sandbox(), "MLM");
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(
      await createProductAs(s, A, {
        title: { es: `Organizador de escritorio modelo ${i + 1}` },
        price: 80 + i,
        currency: "CNY",
        sku: `MORE-${i}`,
        stock: 5,
        weight: 300,
        size: "20x15x10",
        images: [pic("big")],
      }),
    );
  }
  const pub = await s.api("POST", "/api/MeliStatNew/Publish", {
    token: A.token,
    body: { accountGroupId: groupA, sites: [1], productIds: ids, cateInfo: [{ site: 1, cateId: leaf.id, attrs: requestAttrs(leaf) }] },
  });
  if (pub.status !== 200) throw new Error(pub.raw);
  local = await until(
    async (): Promise<(Live & { status: number })[]> =>
      (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId: pub.body.result.id } })).body
        .result.items,
    (ls) => ls.length === 5 && ls.every((l) => l.status === ListingStatus.Active),
    "local publish",
  );

  // Cross-border: one global item sold on Mexico and Brazil.
  C = await s.createTenant();
  const page = await connectShop(s, C.token, { nickname: "MOREGLOBAL", site: "CBT", marketplaces: ["MLM", "MLB"] });
  if (!page.ok) throw new Error(page.message);
  const groupC = await shopGroupOf(s, C);
  const cbtLeaf = plainLeaf(sandbox(), "CBT");
  await s.api("POST", "/api/MeliCode/SetCodes", { token: C.token, body: { codes: ean13s(2, 750500000000) } });
  const p = await createProductAs(s, C, {
    title: { en: "Desk organizer with drawers", es: "Organizador de escritorio con cajones", pt: "Organizador de mesa com gavetas" },
    price: 100,
    currency: "CNY",
    stock: 5,
    weight: 450,
    size: "20x15x10",
    images: [pic("big")],
  });
  const attrs = requestAttrs(cbtLeaf).filter((a) => !a.id.startsWith("PACKAGE_") && a.id !== "ITEM_CONDITION");
  const cbtPub = await s.api("POST", "/api/MeliStatNew/Publish", {
    token: C.token,
    body: { accountGroupId: groupC, sites: [1, 2], productIds: [p], cateInfo: [{ site: 5, cateId: cbtLeaf.id, attrs }] },
  });
  if (cbtPub.status !== 200) throw new Error(cbtPub.raw);
  const rows = await until(
    async (): Promise<(Live & { status: number })[]> =>
      (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: C.token, body: { batchId: cbtPub.body.result.id } })).body
        .result.items,
    (ls) => ls.length === 2 && ls.every((l) => l.status === ListingStatus.Active),
    "global publish",
  );
  mx = rows.find((l) => l.site === 1)!;
  br = rows.find((l) => l.site === 2)!;
}, 240_000);

afterAll(async () => {
  sandbox()?.control.clearInjections();
  await s?.close();
  await new Promise((r) => images?.close(r));
});

describe("BatchUpdateWeight", () => {
  it("sets a local item's shipping dimensions, stores what it holds, and an equal package makes no call", async () => {
    const [a, b] = local;
    const done = await batch(A, "MeliStat", "BatchUpdateWeight", { ids: [a.id, b.id], weight: 450, size: "25X20x12" }, "w-1");
    expect(done.state).toMatchObject({ op: "weight", total: 2, done: 2, refused: 0, outcome: "succeeded" });
    expect(done.remark).toContain("改重量已完成");
    for (const l of [a, b]) {
      expect(item(l.itemId).shipping.dimensions).toBe("25x20x12,450");
      expect(await record(A, l.id)).toMatchObject({ weight: "450.00", size: "25x20x12", reason: null });
    }
    const calls = await callsOf(A, a.id);
    const again = await batch(A, "MeliStat", "BatchUpdateWeight", { ids: [a.id, b.id], weight: 450, size: "25x20x12" }, "w-2");
    expect(again.state).toMatchObject({ done: 0, skipped: 2, outcome: "succeeded" });
    expect(await callsOf(A, a.id)).toBe(calls);
    // The weight alone keeps the size the listing holds.
    const weightOnly = await batch(A, "MeliStat", "BatchUpdateWeight", { ids: [a.id], weight: 520 }, "w-3");
    expect(weightOnly.state.done).toBe(1);
    expect(item(a.itemId).shipping.dimensions).toBe("25x20x12,520");
  });

  it("takes the product's size when the listing has none", async () => {
    const l = local[2];
    expect((await record(A, l.id)).size).toBeNull();
    const done = await batch(A, "MeliStat", "BatchUpdateWeight", { ids: [l.id], weight: 380 }, "w-4");
    expect(done.state).toMatchObject({ done: 1, outcome: "succeeded" });
    expect(item(l.itemId).shipping.dimensions).toBe("20x15x10,380");
    expect(await record(A, l.id)).toMatchObject({ weight: "380.00", size: "20x15x10" });
  });

  it("refuses a size that is not LxWxH and a weight that is not whole grams", async () => {
    const bodies = [
      { ids: [local[0].id], weight: 450, size: "25x20" },
      { ids: [local[0].id], weight: 0 },
      { ids: [local[0].id], weight: 12.5 },
    ];
    for (const [i, body] of bodies.entries()) {
      const res = await api(A, "MeliStat", "BatchUpdateWeight", body, `w-bad-${i}`);
      expect(res.status, res.raw).toBe(400);
    }
  });

  it("sets a global item's PACKAGE_* attributes once for every site listing of it", async () => {
    const done = await batch(C, "MeliStatNew", "BatchUpdateWeight", { ids: [mx.id], weight: 600, size: "30x20x10" }, "cw-1");
    expect(done.state).toMatchObject({ done: 1, outcome: "succeeded" });
    const attrs = Object.fromEntries(item(mx.cbtId).attributes.map((a) => [a.id, a.value_name]));
    expect(attrs).toMatchObject({ PACKAGE_WEIGHT: "600 g", PACKAGE_LENGTH: "30 cm", PACKAGE_WIDTH: "20 cm", PACKAGE_HEIGHT: "10 cm" });
    for (const l of [mx, br]) expect(await record(C, l.id)).toMatchObject({ weight: "600.00", size: "30x20x10" });
    // The other site's listing holds the same package already: nothing to send.
    const calls = await callsOf(C, br.id);
    const other = await batch(C, "MeliStatNew", "BatchUpdateWeight", { ids: [br.id], weight: 600, size: "30x20x10" }, "cw-2");
    expect(other.state).toMatchObject({ skipped: 1, outcome: "succeeded" });
    expect(await callsOf(C, br.id)).toBe(calls);
  });
});

describe("BatchUpdateImage", () => {
  it("replaces a local item's pictures, leaves out those known too small, and keeps pictures by id", async () => {
    const l = local[3];
    const done = await batch(A, "MeliStat", "BatchUpdateImage", { ids: [l.id], images: [pic("wide"), pic("small"), pic("big")] }, "i-1");
    expect(done.state).toMatchObject({ op: "images", done: 1, outcome: "succeeded" });
    expect(done.remark).toContain("改图片已完成");
    expect(sourcesOf(l.itemId)).toEqual([pic("wide"), pic("big")]);
    const [first, second] = item(l.itemId).pictures;
    expect((await record(A, l.id)).image).toBe(first.secure_url);

    // Reordered by the item's own picture URLs: the same pictures, kept by id; the same order again sends nothing.
    const swapped = [second.secure_url, first.secure_url];
    const reorder = await batch(A, "MeliStat", "BatchUpdateImage", { ids: [l.id], images: swapped }, "i-2");
    expect(reorder.state.done).toBe(1);
    expect(item(l.itemId).pictures.map((p) => p.id)).toEqual([second.id, first.id]);
    const same = await batch(A, "MeliStat", "BatchUpdateImage", { ids: [l.id], images: swapped }, "i-3");
    expect(same.state).toMatchObject({ done: 0, skipped: 1 });
    expect(item(l.itemId).pictures.map((p) => p.id)).toEqual([second.id, first.id]);
  });

  it("refuses the call when every picture is known to be too small, and changes nothing", async () => {
    const l = local[3];
    const before = item(l.itemId).pictures.map((p) => p.id);
    const res = await api(A, "MeliStat", "BatchUpdateImage", { ids: [l.id], images: [pic("small"), pic("tiny")] }, "i-4");
    expect(res.status, res.raw).toBe(403);
    expect(res.body.error.code).toBe("Listing.PicturesTooSmall");
    expect(res.body.error.message).toMatch(/500像素/);
    expect(item(l.itemId).pictures.map((p) => p.id)).toEqual(before);
  });

  it("replaces a global item's pictures, which every site item shows", async () => {
    const done = await batch(C, "MeliStatNew", "BatchUpdateImage", { ids: [mx.id], images: [pic("wide")] }, "ci-1");
    expect(done.state).toMatchObject({ done: 1, outcome: "succeeded" });
    expect(sourcesOf(mx.cbtId)).toEqual([pic("wide")]);
    const ids = item(mx.cbtId).pictures.map((p) => p.id);
    expect(item(mx.itemId).pictures.map((p) => p.id)).toEqual(ids);
    expect(item(br.itemId).pictures.map((p) => p.id)).toEqual(ids);
  });
});

describe("BatchUpdateMeliPrice on cross-border listings", () => {
  it("prices the site item from the net proceeds the publish formula gives, limitMinPrice holding it up", async () => {
    const floor = await batch(C, "MeliStatNew", "BatchUpdateMeliPrice", { ids: [mx.id], limitMinPrice: 9876 }, "cp-1");
    expect(floor.state, JSON.stringify(floor.state)).toMatchObject({ done: 1, outcome: "succeeded" });
    expect(item(mx.itemId).price).toBe(9876);
    expect(Number((await record(C, mx.id)).price)).toBe(9876);

    const formula = await batch(C, "MeliStatNew", "BatchUpdateMeliPrice", { ids: [mx.id, br.id] }, "cp-2");
    expect(formula.state).toMatchObject({ total: 2, refused: 0, outcome: "succeeded" });
    const rates = new Map(
      (await inScope(s.database.db, { tenantId: C.tenantId }, (tx) => tx.select().from(currencies))).map((r) => [r.code, Number(r.rate)]),
    );
    for (const [l, currency] of [
      [mx, "MXN"],
      [br, "BRL"],
    ] as const) {
      const row = await record(C, l.id);
      const content = row.priceContent as { isCbt: boolean; currency: string; buyerPrice: number; sitePrice: number; siteCurrency: string };
      expect(content).toMatchObject({ isCbt: true, currency: "USD", siteCurrency: currency });
      // The buyer's price in USD (net proceeds plus the fee) at the rates, rounded up to the site's cents.
      const expected = Math.ceil((((content.buyerPrice / 100) * rates.get("USD")!) / rates.get(currency)!) * 100 - 1e-6) / 100;
      expect(content.sitePrice).toBe(expected);
      expect(item(l.itemId).price).toBe(expected);
      expect(Number(row.price)).toBe(expected);
    }
    // Priced already: nothing to send.
    const calls = await callsOf(C, br.id);
    const again = await batch(C, "MeliStatNew", "BatchUpdateMeliPrice", { ids: [br.id] }, "cp-3");
    expect(again.state).toMatchObject({ skipped: 1 });
    expect(await callsOf(C, br.id)).toBe(calls);
  });
});

describe("jobs that fail otherwise", () => {
  it("an answer the edit cannot read counts the listing refused with a Chinese reason: the task ends", async () => {
    const l = local[4];
    // The item's re-read after the write answers an empty 200.
    sandbox().control.inject({ method: "GET", path: `/items/${l.itemId}`, status: 200, body: "", times: 3 });
    const done = await batch(A, "MeliStat", "BatchUpdateTitle", { ids: [l.id], title: "Organizador de escritorio negro" }, "f-1");
    sandbox().control.clearInjections();
    expect(done.state).toMatchObject({ total: 1, done: 0, refused: 1, outcome: "failed" });
    expect(done.status).toBe(TaskStatus.Failed);
    expect(done.state.refusals[0].reason).toMatch(/[\u4e00-\u9fa5]/);
    expect((await record(A, l.id)).reason).toBe(done.state.refusals[0].reason);
  });

  it("the last attempt of a listing Mercado Libre keeps failing counts it refused: the task ends", async () => {
    const l = local[1];
    sandbox().control.inject({ method: "PUT", path: `/items/${l.itemId}`, status: 500, times: 1000 });
    const res = await api(A, "MeliStat", "BatchUpdateStock", { ids: [l.id], stock: 3 }, "f-2");
    expect(res.status, res.raw).toBe(200);
    // The job's last attempt, as the queue would run it after EDIT_ATTEMPTS − 1 back-offs.
    const edits = createListingEditService({
      database: s.database,
      jobs: s.deps.jobs,
      meli: s.deps.meli,
      log: s.deps.log,
      callLog: createMeliLogService(),
    });
    const edit: Edit = { op: "stock", stock: 3 };
    const [task] = rowsOf<{ creatorId: string }>(
      await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
        tx.execute(
          sql`select creator_id as "creatorId" from task_infos where tenant_id = ${A.tenantId} and id = ${res.body.result.taskId}`,
        ),
      ),
    );
    await edits.runEditJob({
      tenantId: A.tenantId,
      taskId: res.body.result.taskId,
      listingId: l.id,
      creatorId: task.creatorId,
      edit,
      attempt: EDIT_ATTEMPTS - 1,
    });
    const done = await finished(A, res.body.result.taskId);
    sandbox().control.clearInjections();
    expect(done.state).toMatchObject({ total: 1, refused: 1, outcome: "failed" });
    expect(done.status).toBe(TaskStatus.Failed);
    expect(done.state.refusals[0].reason).toMatch(/美客多/);
    expect(item(l.itemId).available_quantity).toBe(5);
  });
});
