// Margin that follows the rate (issue 32) against the sandbox through the real HTTP stack: three live listings on
// Mexico, two priced from yuan and one from dollars. A dearer dollar moves the drift of exactly the dollar-priced
// listing (to a loss); Reprice's dry run changes nothing; applied, it sets the formula's price through the batch-edit
// path and UndoReprice gives the old price and breakdown back; bad input is refused; another tenant gets nothing.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listings } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { rowsOf } from "../../db/client.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { MarginDriftRow, RepriceResult } from "#shared/contract/margin-drift.ts";
import { batchEditState } from "./edit-task.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
/** A's live listings: yuan, yuan, dollar. */
let live: { id: string; itemId: string; price: number }[] = [];

const item = (id: string) => s.deps.sandbox!.store.state.items.get(id)!;
const api = (t: TestTenant, name: string, body: unknown, key?: string) =>
  s.api("POST", `/api/MeliStat/${name}`, { token: t.token, body, headers: key ? { "idempotency-key": key } : {} });

async function drift(t: TestTenant, body: Record<string, unknown> = {}): Promise<MarginDriftRow[]> {
  const res = await api(t, "GetMarginDrift", { maxResultCount: 50, ...body });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.items;
}
const rowOf = (rows: MarginDriftRow[], id: string) => rows.find((r) => r.id === id)!;

/** A's listing as stored: its price, breakdown and what a reprice kept. */
const record = async (id: string) =>
  (
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .select({
          price: listings.price,
          priceContent: listings.priceContent,
          previousPrice: listings.previousPrice,
          previousPriceContent: listings.previousPriceContent,
          repriceTaskId: listings.repriceTaskId,
          repriceReason: listings.repriceReason,
        })
        .from(listings)
        .where(and(eq(listings.tenantId, A.tenantId), eq(listings.id, id))),
    )
  )[0];

const finished = (taskId: string) =>
  until(
    () => inScope(s.database.db, { tenantId: A.tenantId }, (tx) => batchEditState(tx, A.tenantId, taskId)),
    (v) => !!v && v.outcome !== "running",
    "batch task",
  );

const setRate = (code: string, rate: string) => s.database.db.execute(sql`update currencies set rate = ${rate} where code = ${code}`);

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  await syncCategories(s, [1]);
  const group = await connectPublishingShop(s, A, { nickname: "DRIFTSELLER", site: "MLM", sites: [1] }, ean13s(4, 750300000000));
  const leaf = plainLeaf(s.deps.sandbox!, "MLM");
  const sources = [
    [100, "CNY"],
    [120, "CNY"],
    [20, "USD"],
  ] as const;
  const pack = { stock: 5, weight: 300, size: "20x15x10" };
  const ids = await Promise.all(
    sources.map(([price, currency], i) =>
      createProductAs(s, A, {
        title: { es: `Taza de cerámica ${i + 1}` },
        price,
        currency,
        sku: `DRIFT-${i}`,
        ...pack,
        images: [`https://img.example.com/d${i}.jpg`],
      }),
    ),
  );
  const res = await s.api("POST", "/api/MeliStatNew/Publish", {
    token: A.token,
    body: { accountGroupId: group, sites: [1], productIds: ids, cateInfo: [{ site: 1, cateId: leaf.id, attrs: requestAttrs(leaf) }] },
  });
  if (res.status !== 200) throw new Error(res.raw);
  const rows = await until(
    async (): Promise<{ id: string; itemId: string; price: number; status: number; productId: string }[]> =>
      (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId: res.body.result.id } })).body
        .result.items,
    (ls) => ls.length === 3 && ls.every((l) => l.status === ListingStatus.Active),
    "publish",
  );
  live = ids.map((p) => rows.find((l) => l.productId === p)!);
}, 240_000);
afterAll(async () => {
  await setRate("USD", "7.1");
  await s?.close();
});

describe("margin drift and 重新定价", () => {
  it("a dearer dollar moves the margin of exactly the dollar-priced listing; the margin filters find it", async () => {
    const before = await drift(A);
    expect(before).toHaveLength(3);
    for (const r of before) {
      // Priced today: the margin now is the margin when priced, and the formula's price is the listing's.
      expect(r.now!.margin, r.reason ?? "").toBe(r.priced!.margin);
      expect(r.suggested!.nextListingPrice).toBe(r.listingPrice);
      expect(r.now!.status).toBe("ok");
    }
    expect(rowOf(before, live[2].id).priced!.productCurrency).toBe("USD");
    expect((await drift(A, { ids: [live[1].id] })).map((r) => r.id)).toEqual([live[1].id]);

    await setRate("USD", "14.2");
    const after = await drift(A);
    for (const l of live.slice(0, 2)) expect(rowOf(after, l.id)).toEqual(rowOf(before, l.id));
    const usd = rowOf(after, live[2].id);
    expect(usd.now!.margin).toBeLessThan(0);
    expect(usd.now!.status).toBe("negative");
    expect(usd.priced).toEqual(rowOf(before, live[2].id).priced);
    expect(usd.suggested!.nextListingPrice).toBeGreaterThan(usd.listingPrice!);
    expect(Number(usd.suggested!.marginPercent)).toBeGreaterThan(10);
    expect((await drift(A, { margin: "negative" })).map((r) => r.id)).toEqual([live[2].id]);
    expect((await drift(A, { margin: "low" })).map((r) => r.id)).toEqual([live[2].id]);
  });

  it("Reprice's dry run answers old and new price and margin and changes nothing", async () => {
    s.deps.sandbox!.control.resetCalls();
    const res = await api(A, "Reprice", { ids: live.map((l) => l.id), dryRun: true }, "dry-1");
    expect(res.status, res.raw).toBe(200);
    const r: RepriceResult = res.body.result;
    expect(r).toMatchObject({ dryRun: true, taskId: null, total: 3, changed: 1, unpriced: 0 });
    expect(r.changes[0]).toMatchObject({ id: live[2].id, listingPrice: Math.round(live[2].price * 100), currency: "MXN" });
    expect(r.changes[0].marginNow!.margin).toBeLessThan(0);
    expect(s.deps.sandbox!.control.calls()).toEqual({});
    expect(item(live[2].itemId).price).toBe(live[2].price);
    expect(await record(live[2].id)).toMatchObject({ repriceTaskId: null, previousPrice: null });
  });

  it("applied, Reprice sets the formula's price as a batch; UndoReprice restores the price and its breakdown", async () => {
    const l = live[2];
    const old = await record(l.id);
    const want = rowOf(await drift(A), l.id).suggested!;
    const res = await api(A, "Reprice", { filter: { margin: "negative" } }, "apply-1");
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ dryRun: false, total: 1, changed: 1 });
    const taskId = res.body.result.taskId;
    expect(await finished(taskId)).toMatchObject({ op: "price", done: 1, outcome: "succeeded" });
    expect(item(l.itemId).price * 100).toBe(want.nextListingPrice);
    const repriced = await record(l.id);
    expect(repriced).toMatchObject({ previousPrice: old.price, repriceTaskId: taskId });
    expect(repriced.previousPriceContent).toEqual(old.priceContent);
    expect(repriced.repriceReason).toContain("重新定价");
    const now = rowOf(await drift(A), l.id);
    expect(now.priced!.margin).toBe(want.margin);
    expect(now.now!).toMatchObject({ margin: want.margin, status: "ok" });
    // The same key answers the same task, no second batch.
    expect((await api(A, "Reprice", { filter: { margin: "negative" } }, "apply-1")).body.result.taskId).toBe(taskId);

    const undo = await api(A, "UndoReprice", { taskId }, "undo-1");
    expect(undo.status, undo.raw).toBe(200);
    expect(await finished(undo.body.result.taskId)).toMatchObject({ done: 1, outcome: "succeeded" });
    expect(item(l.itemId).price).toBe(l.price);
    const back = await record(l.id);
    expect(back).toMatchObject({ price: old.price, repriceTaskId: null });
    expect(back.priceContent).toEqual(old.priceContent);
    const again = await api(A, "UndoReprice", { taskId }, "undo-2");
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe("Listing.NothingToUndo");
  });

  it("refuses bad input", async () => {
    const cases: [string, unknown, string | undefined][] = [
      ["Reprice", { dryRun: true }, "bad-1"],
      ["Reprice", { ids: ["not-an-id"], dryRun: true }, "bad-2"],
      ["GetMarginDrift", { margin: "worse" }, undefined],
      ["UndoReprice", { taskId: "x" }, "bad-3"],
    ];
    for (const [name, body, key] of cases) {
      const res = await api(A, name, body, key);
      expect(res.status, `${name} ${res.raw}`).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
  });

  it("another tenant sees no drift, reprices nothing and undoes nothing of A's", async () => {
    expect(await drift(B)).toEqual([]);
    const dry = await api(B, "Reprice", { ids: live.map((l) => l.id), dryRun: true }, "b-dry");
    expect(dry.body.result).toMatchObject({ total: 0, changed: 0, changes: [] });
    const apply = await api(B, "Reprice", { ids: live.map((l) => l.id) }, "b-apply");
    expect(apply.status).toBe(403);
    const [task] = rowsOf<{ id: string }>(
      await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
        tx.execute(sql`select id from task_infos where tenant_id = ${A.tenantId} limit 1`),
      ),
    );
    const undo = await api(B, "UndoReprice", { taskId: task.id }, "b-undo");
    expect(undo.status).toBe(403);
    expect(item(live[2].itemId).price).toBe(live[2].price);
  });
});
