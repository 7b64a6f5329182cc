// Margin that follows the rate (issue 32) against the sandbox through the real HTTP stack: three live listings on
// Mexico, two priced from yuan and one from dollars. A dearer dollar moves the drift of exactly the dollar-priced
// listing (to a loss); Reprice's dry run changes nothing; applied, it sets the formula's price through the batch-edit
// path and UndoReprice gives the old price and breakdown back; bad input is refused; another tenant gets nothing. The
// stored margin (margin-sql.ts) agrees with the TypeScript formula on varied listings; a rate saved by the host stores
// again the margin of exactly the listings priced in that currency; a shop's automatic repricing stays within its
// bounds (± N % a day, never lowered under the minimum margin) and logs why, and leaves another tenant alone.
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
import { MARGIN_JOB } from "./margin-job.ts";
import { storeMargins } from "./margin-sql.ts";

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

/** The stored margins of A's listings by id. */
type Stored = {
  id: string;
  price: string;
  margin_priced: number | null;
  margin_now: number | null;
  margin_now_percent: string | null;
  margin_level: number | null;
  margin_at: Date | null;
  auto_reprice_day: string | null;
  auto_reprice_day_price: string | null;
  reprice_reason: string | null;
};
const stored = async (tenantId = A.tenantId) =>
  new Map(
    rowsOf<Stored>(
      await inScope(s.database.db, { tenantId }, (tx) =>
        tx.execute(sql`select id, price, margin_priced::float8 as margin_priced, margin_now::float8 as margin_now,
            margin_now_percent::text as margin_now_percent, margin_level, margin_at, auto_reprice_day::text as auto_reprice_day,
            auto_reprice_day_price, reprice_reason
          from listings where tenant_id = ${tenantId}`),
      ),
    ).map((r) => [r.id, r]),
  );

/** Waits for the queued margin jobs to finish (none failed). */
async function marginJobsDone() {
  const left = () =>
    s.database.db
      .execute(
        sql`select count(*) filter (where state not in ('completed', 'failed'))::int as n,
          count(*) filter (where state = 'failed')::int as failed from pgboss.job where name = ${MARGIN_JOB}`,
      )
      .then((r) => rowsOf<{ n: number; failed: number }>(r)[0]);
  const done = await until(left, (v) => v.n === 0, "margin jobs", 20_000).catch(async (e: unknown) => {
    console.log(rowsOf(await s.database.db.execute(sql`select state, output from pgboss.job where name = ${MARGIN_JOB}`)));
    throw e;
  });
  expect(done.failed).toBe(0);
}

/** The host saves a rate through the API: the recompute job stores the margins again. */
const saveRate = async (code: string, rate: string) => {
  const admin = await s.adminToken();
  const all = await s.api("GET", "/api/Currency/GetAllCurrency", { token: admin });
  const c = (all.body.result as { id: string; code: string; zh: string }[]).find((x) => x.code === code)!;
  const res = await s.api("POST", "/api/Currency/CreateOrUpdateCurrency", { token: admin, body: { id: c.id, code, zh: c.zh, rate } });
  expect(res.status, res.raw).toBe(200);
};

const level = { ok: 0, low: 1, negative: 2 } as const;

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

    await saveRate("USD", "14.2");
    await marginJobsDone();
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

describe("the stored margin, its recompute and automatic repricing", () => {
  it("the stored margin (SQL) is the formula's (TypeScript) on the same listings", async () => {
    // Copies of the live listings (no item, no batch) in the cases the formula takes apart: each a patch of the row.
    const copies: [string, string][] = [
      [live[0].id, `jsonb_build_object('listing_type', 'gold_pro')`],
      [live[0].id, `jsonb_build_object('listing_type', 'free')`],
      [live[1].id, `jsonb_build_object('price_content', jsonb_set(l.price_content, '{freight}', '2350'), 'price', 150.5)`],
      [live[1].id, `jsonb_build_object('price', 99.99)`],
      [live[2].id, `jsonb_build_object('price', 1200)`],
      [live[2].id, `jsonb_build_object('product_id', null)`],
      [live[0].id, `jsonb_build_object('cate_id', 'MLM_NO_SUCH')`],
    ];
    const ids: string[] = copies.map(() => crypto.randomUUID());
    await inScope(s.database.db, { tenantId: A.tenantId }, async (tx) => {
      for (const [i, [from, patch]] of copies.entries())
        await tx.execute(sql`insert into listings select (jsonb_populate_record(null::listings,
            to_jsonb(l) || jsonb_build_object('id', ${ids[i]}::text, 'item_id', null, 'batch_id', null) || ${sql.raw(patch)})).*
          from listings l where l.tenant_id = ${A.tenantId} and l.id = ${from}`);
    });
    try {
      await inScope(s.database.db, { tenantId: A.tenantId }, (tx) => storeMargins(tx, sql`l.tenant_id = ${A.tenantId}`));
      const rows = await drift(A);
      const db = await stored();
      expect(rows).toHaveLength(live.length + copies.length);
      for (const r of rows) {
        const m = db.get(r.id)!;
        expect(m.margin_at, r.id).not.toBeNull();
        expect(m.margin_now, `${r.id} ${r.reason}`).toBe(r.now?.margin ?? null);
        expect(m.margin_now_percent).toBe(r.now?.marginPercent ?? null);
        expect(m.margin_level).toBe(r.now ? level[r.now.status] : null);
        expect(m.margin_priced).toBe(r.priced?.margin ?? null);
      }
      // The cases differ: fees, a freight, a loss and no formula all met.
      const nows = rows.filter((r) => ids.includes(r.id)).map((r) => r.now?.margin ?? null);
      expect(new Set(nows).size).toBeGreaterThanOrEqual(5);
      expect(nows).toContain(null);
    } finally {
      await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
        tx.execute(
          sql`delete from listings where tenant_id = ${A.tenantId} and id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`,
        ),
      );
    }
  });
});

describe("the recompute job and automatic repricing", () => {
  const shopRule = async (info: Record<string, unknown>) => {
    const shopId = await accountOf(live[0].id);
    const res = await s.api("POST", "/api/MeliAccount/UpdateAccount", { token: A.token, body: { id: shopId, info } });
    expect(res.status, res.raw).toBe(200);
    return res.body.result;
  };
  const accountOf = async (id: string) =>
    rowsOf<{ account_id: string }>(
      await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
        tx.execute(sql`select account_id from listings where tenant_id = ${A.tenantId} and id = ${id}`),
      ),
    )[0].account_id;

  const taskCount = async (t: TestTenant) =>
    rowsOf<{ n: number }>(
      await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
        tx.execute(sql`select count(*)::int as n from task_infos where tenant_id = ${t.tenantId}`),
      ),
    )[0].n;

  it("a rate saved by the host stores again the margin of exactly the listings priced in that currency", async () => {
    await saveRate("USD", "14.2");
    await marginJobsDone();
    const before = await stored();
    await saveRate("USD", "10.65");
    await marginJobsDone();
    const after = await stored();
    const rows = await drift(A);
    // The yuan listings were not written again; the dollar one was, to the formula's margin now.
    for (const l of live.slice(0, 2)) expect(after.get(l.id)).toEqual(before.get(l.id));
    const usd = after.get(live[2].id)!;
    expect(usd.margin_now).not.toBe(before.get(live[2].id)!.margin_now);
    expect(usd.margin_now).toBe(rowOf(rows, live[2].id).now!.margin);
    expect(usd.margin_level).toBe(level[rowOf(rows, live[2].id).now!.status]);
  });

  it("automatic repricing raises a listing under the minimum by at most N % a day, logs why, and leaves another tenant alone", async () => {
    const l = live[2];
    await saveRate("USD", "21.3");
    await marginJobsDone();
    const under = (await stored()).get(l.id)!;
    expect(under.margin_level).toBe(level.negative);
    const shop = await shopRule({ autoReprice: true, autoRepriceMaxPercent: 10 });
    expect(shop).toMatchObject({ autoReprice: true, autoRepriceMaxPercent: 10 });
    await marginJobsDone();
    // The formula's price is far above: held at the day's first price + 10 %.
    const cents = Math.round(l.price * 100);
    const bound = Math.floor((cents * 11_000) / 10_000);
    await until(
      async () => item(l.itemId).price,
      (p) => p !== l.price,
      "automatic repricing",
    );
    expect(Math.round(item(l.itemId).price * 100)).toBe(bound);
    const after = await until(
      async () => (await stored()).get(l.id)!,
      (r) => Number(r.price) * 100 === bound,
      "repriced listing stored",
    );
    expect(after).toMatchObject({ auto_reprice_day: new Date().toISOString().slice(0, 10), auto_reprice_day_price: under.price });
    expect(after.reprice_reason).toContain("自动调价");
    // Only the listing under the minimum moved.
    for (const y of live.slice(0, 2)) expect(item(y.itemId).price).toBe(y.price);
    const logs = await s.api("GET", `/api/MeliStatLog/GetLogsByPage?ListingId=${l.id}&MaxResultCount=50`, { token: A.token });
    const reasons = (logs.body.result.items as { reason: string | null }[]).map((x) => x.reason).filter(Boolean);
    expect(reasons.some((x) => x!.includes("自动调价") && x!.includes("±10%"))).toBe(true);
    // Manual 重新定价's calls carry their reason too.
    expect(reasons.some((x) => x!.startsWith("重新定价"))).toBe(true);

    // Again the same day: still under the minimum, but the day's bound is reached: no further change, no batch.
    const tasks = await taskCount(A);
    await shopRule({ autoRepriceMaxPercent: 10 });
    await marginJobsDone();
    expect(await taskCount(A)).toBe(tasks);
    expect(Math.round(item(l.itemId).price * 100)).toBe(bound);
    expect((await stored()).get(l.id)!.margin_level).toBeGreaterThan(0);

    // Another tenant: nothing stored, no task, no call.
    expect(await drift(B)).toEqual([]);
    expect(await taskCount(B)).toBe(0);
  });

  it("automatic repricing never lowers a price under the shop's minimum margin", async () => {
    const l = live[2];
    const priced = Number((await stored()).get(l.id)!.price);
    const tasks = await taskCount(A);
    // A cheap dollar: the formula's price is lower, but at a minimum of 90 % no lower price keeps it: unchanged.
    await shopRule({ minMargin: 90 });
    await saveRate("USD", "3.55");
    await marginJobsDone();
    expect(await taskCount(A)).toBe(tasks);
    expect(item(l.itemId).price).toBe(priced);
    const r = rowOf(await drift(A), l.id);
    expect(r.suggested!.nextListingPrice).toBeLessThan(Math.round(priced * 100));
    await shopRule({ autoReprice: false, minMargin: null });
    await marginJobsDone();
  });
});
