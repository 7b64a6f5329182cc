// The listing sync and import against the sandbox through the real HTTP stack: SyncMelistat reflects a price changed
// on the marketplace (the sandbox's item changed in its store), BatchSyncMeliStat reads many with multiget (a sale and a
// pause show, a deleted item is marked) and ClearInvalidStat removes the deleted one's record; PullMarketStat imports
// 2,500 items of a seller (past the search's 1,000 offset, so only the scan reaches them) while the scroll expires
// mid-way (the sandbox's clock moved past the scroll's 5 minutes): restarted, 0 doubles, linked by SKU, and a second
// import finds them all known; AddSyncStatTask syncs a group and queues its next run; another tenant gets 4xx.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { listings, meliCallLogs, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { itemBody, plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, until } from "../../testing/publish-kit.ts";
import { accountOf as accountOfGroup, createShopItem, recordListings as recordListingRows } from "../../testing/listing-kit.ts";
import type { Item } from "../../sandbox/store.ts";
import { ListingStatus, TaskStatus } from "#shared/contract/enums.ts";
import type { ListingRow } from "#shared/contract/listings.ts";
import { createMeliLogService } from "../meli-logs/service.ts";
import { createListingSyncService, DELETED_CODE, DELETED_REASON } from "./sync.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let C: TestTenant;
let groupA: string;
let groupC: string;

const store = () => s.deps.sandbox!.store;
const control = () => s.deps.sandbox!.control;

const createItem = (t: TestTenant, groupId: string, overrides: Record<string, unknown> = {}) => createShopItem(s, t, groupId, overrides);
const accountOf = (t: TestTenant, groupId: string) => accountOfGroup(s, t, groupId);
const recordListings = (t: TestTenant, groupId: string, itemIds: string[]) => recordListingRows(s, t, groupId, itemIds);

/** `n` copies of a sandbox item straight into the sandbox's store (the seller's items, as if listed elsewhere). */
function cloneItems(baseId: string, n: number, sku: (i: number) => string): string[] {
  const base = store().state.items.get(baseId)!;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = store().newItemId("MLM");
    const copy: Item = {
      ...structuredClone(base),
      id,
      title: `${base.title} ${i}`,
      seller_custom_field: null,
      attributes: [
        ...base.attributes.filter((a) => a.id !== "SELLER_SKU"),
        { id: "SELLER_SKU", value_name: sku(i) } as Item["attributes"][number],
      ],
    };
    store().state.items.set(id, copy);
    ids.push(id);
  }
  return ids;
}

const listingsOf = (t: TestTenant, groupId: string) =>
  inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select()
      .from(listings)
      .where(and(eq(listings.tenantId, t.tenantId), eq(listings.accountGroupId, groupId))),
  );

async function taskOf(t: TestTenant, taskId: string) {
  const [task] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select()
      .from(taskInfos)
      .where(and(eq(taskInfos.tenantId, t.tenantId), eq(taskInfos.id, taskId))),
  );
  return task;
}

const finished = (t: TestTenant, taskId: string, ms = 120_000) =>
  until(
    () => taskOf(t, taskId),
    (task) => task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed,
    `task ${taskId}`,
    ms,
  );

const call = (t: Pick<TestTenant, "token">, name: string, body: Record<string, unknown>, group = "MeliStat") =>
  s.api("POST", `/api/${group}/${name}`, { token: t.token, body });

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  C = await s.createTenant();
  groupA = await connectPublishingShop(s, A, { nickname: uniqueName("SYNCA"), site: "MLM", sites: [1] }, []);
  groupC = await connectPublishingShop(s, C, { nickname: uniqueName("PULLC"), site: "MLM", sites: [1] }, []);
}, 180_000);
afterAll(() => s?.close());

describe("SyncMelistat, BatchSyncMeliStat, ClearInvalidStat", () => {
  it("reflects a price changed on the marketplace, a sale and a pause, marks a deleted item and clears its record", async () => {
    const items = [await createItem(A, groupA), await createItem(A, groupA), await createItem(A, groupA)];
    const [one, two, three] = await recordListings(A, groupA, items);

    // The price changes on Mercado Libre (the sandbox's item), not through the app.
    store().state.items.get(items[0])!.price = 777;
    const synced = await call(A, "SyncMelistat", { id: one });
    expect(synced.status, synced.raw).toBe(200);
    const row = synced.body.result as ListingRow;
    expect(row).toMatchObject({ id: one, itemId: items[0], price: 777, status: ListingStatus.Active, title: "Producto de prueba" });
    expect(row.syncTime).not.toBeNull();
    expect(row.permalink).toBe(store().state.items.get(items[0])!.permalink);
    const logged = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.select().from(meliCallLogs).where(eq(meliCallLogs.listingId, one)),
    );
    // The multiget and the visits call (views).
    expect(logged.map((l) => [l.method, l.status])).toEqual([
      ["GET", 200],
      ["GET", 200],
    ]);
    expect(logged.every((l) => l.path.includes(`ids=${items[0]}`))).toBe(true);

    // A sale and a pause on the second, the third deleted (closed then deleted) on the marketplace.
    const second = store().state.items.get(items[1])!;
    second.sold_quantity = 4;
    second.available_quantity = 1;
    second.status = "paused";
    const third = store().state.items.get(items[2])!;
    third.status = "closed";
    third.deleted = true;
    control().resetCalls();
    const batch = await call(A, "BatchSyncMeliStat", { ids: [one, two, three] });
    expect(batch.status, batch.raw).toBe(200);
    expect(batch.body.result.total).toBe(3);
    const task = await finished(A, batch.body.result.taskId);
    expect(task.taskStatus).toBe(TaskStatus.Succeeded);
    expect(task.taskRemark).toContain("已同步 2，美客多已删除 1，失败 0");
    // Three listings, one multiget.
    expect(control().callCount("GET /items")).toBe(1);
    const rows = new Map((await listingsOf(A, groupA)).map((l) => [l.id, l]));
    expect(rows.get(one)).toMatchObject({ price: "777.00", status: ListingStatus.Active });
    expect(rows.get(two)).toMatchObject({ status: ListingStatus.Paused, orders: 4, stock: 1 });
    expect(rows.get(three)).toMatchObject({ status: ListingStatus.Closed, reason: DELETED_REASON });
    expect(rows.get(three)!.problems).toEqual([expect.objectContaining({ code: DELETED_CODE })]);

    // Another tenant clears nothing of A's; A's ClearInvalidStat removes only the deleted one's record.
    const foreign = await s.api("DELETE", "/api/MeliStat/ClearInvalidStat", { token: B.token, query: { accountGroupId: groupA } });
    expect(foreign.status, foreign.raw).toBe(404);
    const cleared = await s.api("DELETE", "/api/MeliStat/ClearInvalidStat", { token: A.token, query: { accountGroupId: groupA } });
    expect(cleared.status, cleared.raw).toBe(200);
    expect(cleared.body.result).toEqual({ removed: 1 });
    expect((await listingsOf(A, groupA)).map((l) => l.id).sort()).toEqual([one, two].sort());
  });

  it("AddSyncStatTask syncs the whole group now and queues its next run", async () => {
    const before = (await listingsOf(A, groupA)).filter((l) => l.itemId);
    for (const l of before) store().state.items.get(l.itemId!)!.price = 555;
    const res = await call(A, "AddSyncStatTask", { accountGroupId: groupA, everyHours: 6 });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.total).toBe(before.length);
    const task = await finished(A, res.body.result.taskId);
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect((await listingsOf(A, groupA)).every((l) => l.price === "555.00")).toBe(true);
    // The next run: a new task of the same group, pending (its job starts in 6 hours).
    const next = await until(
      () =>
        inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
          tx
            .select()
            .from(taskInfos)
            .where(and(eq(taskInfos.tenantId, A.tenantId), eq(taskInfos.taskStatus, TaskStatus.Pending))),
        ),
      (rows) => rows.some((r) => r.content.includes("每 6 小时")),
      "next sync",
      10_000,
    );
    const pending = next.filter((r) => r.content.includes("每 6 小时"));
    expect(pending).toHaveLength(1);

    // A second AddSyncStatTask of the group: its chain is the schedule, the first one's next run ends it.
    const again = await call(A, "AddSyncStatTask", { accountGroupId: groupA, everyHours: 6 });
    expect(again.status, again.raw).toBe(200);
    expect((await finished(A, again.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
    const pendingNow = () =>
      inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
        tx
          .select()
          .from(taskInfos)
          .where(and(eq(taskInfos.tenantId, A.tenantId), eq(taskInfos.taskStatus, TaskStatus.Pending))),
      );
    const both = await until(pendingNow, (rows) => rows.length === 2, "second chain's next sync", 10_000);
    // The first chain's delayed job, run now (it would start in 6 hours) by a second instance of the service.
    const runner = createListingSyncService({
      database: s.database,
      jobs: s.deps.jobs,
      meli: s.deps.meli,
      log: s.deps.log,
      callLog: createMeliLogService(),
    });
    await runner.runSync({ tenantId: A.tenantId, taskId: pending[0].id, creatorId: A.userId, groupId: groupA, everyHours: 6 });
    expect(await taskOf(A, pending[0].id)).toMatchObject({ taskStatus: TaskStatus.Succeeded, taskRemark: "已由新的定时同步取代" });
    // It queued no next run: only the second chain's stays.
    expect((await pendingNow()).map((r) => r.id)).toEqual(both.filter((r) => r.id !== pending[0].id).map((r) => r.id));
  });

  it("answers another tenant's listings and shop groups with 4xx, and a local group through MeliStatNew with 404", async () => {
    const [mine] = (await listingsOf(A, groupA)).map((l) => l.id);
    expect((await call(B, "SyncMelistat", { id: mine })).status).toBe(404);
    expect((await call(B, "BatchSyncMeliStat", { ids: [mine] })).status).toBe(403);
    expect((await call(B, "PullMarketStat", { accountGroupId: groupA })).status).toBe(404);
    expect((await call(B, "AddSyncStatTask", { accountGroupId: groupA })).status).toBe(404);
    expect((await call(A, "PullMarketStat", { accountGroupId: groupA }, "MeliStatNew")).status).toBe(404);
    expect((await call(A, "SyncMelistat", { id: mine }, "MeliStatNew")).status).toBe(404);
    expect((await call(A, "BatchSyncMeliStat", {})).status).toBe(400);
  });
});

describe("a sub-account, and a 429 storm", () => {
  it("a sub-account edits and syncs only the listings of the shops given to it", async () => {
    const sub = await s.createSubUser(A);
    const items = [await createItem(A, groupA, { price: 300 }), await createItem(A, groupA, { price: 300 })];
    const ids = await recordListings(A, groupA, items);
    const before = await listingsOf(A, groupA);
    const priceOf = (i: number) => store().state.items.get(items[i])!.price;
    // Not its shop: every call finds nothing and changes nothing, on Mercado Libre or here.
    expect((await call(sub, "SyncMelistat", { id: ids[0] })).status).toBe(404);
    expect((await call(sub, "UpdateMarketPrice", { id: ids[0], price: 111 })).status).toBe(404);
    expect((await call(sub, "UpOrDownMarket", { id: ids[0], status: ListingStatus.Paused })).status).toBe(404);
    expect((await call(sub, "RemoveStat", { id: ids[0] })).status).toBe(404);
    expect((await call(sub, "BatchUpdatePriceDirect", { ids, price: 111 })).status).toBe(403);
    expect((await call(sub, "BatchSyncMeliStat", { ids })).status).toBe(403);
    expect((await call(sub, "GetMeliStatsByPage", { itemIds: items })).body.result.items).toEqual([]);
    expect([priceOf(0), priceOf(1)]).toEqual([300, 300]);
    expect(await listingsOf(A, groupA)).toEqual(before);

    // Given the shop, it edits its listings.
    const { id: accountId } = await accountOf(A, groupA);
    const assigned = await s.api("POST", "/api/MeliAccount/AssignAccount", { token: A.token, body: { ids: [accountId], userId: sub.id } });
    expect(assigned.status, assigned.raw).toBe(200);
    const edited = await call(sub, "UpdateMarketPrice", { id: ids[0], price: 111 });
    expect(edited.status, edited.raw).toBe(200);
    expect(edited.body.result).toMatchObject({ outcome: "done", listing: { id: ids[0], price: 111 } });
    expect(priceOf(0)).toBe(111);
    expect((await call(sub, "SyncMelistat", { id: ids[1] })).body.result).toMatchObject({ id: ids[1], price: 300 });
    // Back to the main account, for the tests after this one.
    await s.api("POST", "/api/MeliAccount/AssignAccount", { token: A.token, body: { ids: [accountId], userId: A.userId } });
  });

  it("a 429 storm during BatchSyncMeliStat slows it down, and every listing is read", async () => {
    const items: string[] = [];
    for (let i = 0; i < 25; i++) items.push(await createItem(A, groupA));
    const ids = await recordListings(A, groupA, items);
    for (const id of items) store().state.items.get(id)!.price = 321;
    control().resetCalls();
    control().inject({ method: "GET", path: "/items", status: 429, headers: { "retry-after": "1" }, times: 4 });
    const started = await call(A, "BatchSyncMeliStat", { ids });
    expect(started.status, started.raw).toBe(200);
    const task = await finished(A, started.body.result.taskId);
    control().clearInjections();
    expect(task.taskStatus).toBe(TaskStatus.Succeeded);
    expect(task.taskRemark).toContain("已同步 25，美客多已删除 0，失败 0");
    // Two multigets of 20 and 5, each tried again after its 429s.
    expect(control().callCount("GET /items")).toBeGreaterThan(2);
    const rows = (await listingsOf(A, groupA)).filter((l) => ids.includes(l.id));
    expect(rows.map((l) => l.price)).toEqual(Array(25).fill("321.00"));
  });
});

describe("a sync Mercado Libre refuses in part", () => {
  it("fails the task, saying what was synced, what failed and Mercado Libre's reason", async () => {
    const items: string[] = [];
    for (let i = 0; i < 25; i++) items.push(await createItem(A, groupA));
    const ids = await recordListings(A, groupA, items);
    // One of the two multigets (20 and 5 ids) is refused.
    control().inject({ method: "GET", path: "/items", status: 403, times: 1 });
    const started = await call(A, "BatchSyncMeliStat", { ids });
    expect(started.status, started.raw).toBe(200);
    const task = await finished(A, started.body.result.taskId);
    control().clearInjections();
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Failed);
    const [, synced, failed] = /已同步 (\d+)，美客多已删除 0，失败 (\d+)（.+）/.exec(task.taskRemark ?? "") ?? [];
    expect([Number(synced) + Number(failed), Number(synced) > 0, Number(failed) > 0], task.taskRemark ?? "").toEqual([25, true, true]);
  });

  it("answers a single sync Mercado Libre refused as an error with its reason, not the stored row", async () => {
    const [item] = [await createItem(A, groupA)];
    const [id] = await recordListings(A, groupA, [item]);
    control().inject({ method: "GET", path: "/items", status: 403, times: 1 });
    const res = await call(A, "SyncMelistat", { id });
    control().clearInjections();
    expect(res.status, res.raw).toBe(403);
    expect(res.body.error.message).toContain(`${item} 同步失败：`);
  });
});

describe("PullMarketStat", () => {
  const N = 2_500;
  it(`imports ${N} items through a scroll that expires mid-way: each once, linked by SKU`, async () => {
    // One item listed through the API, copied in the sandbox's store: each copy carries its own SKU.
    const base = await createItem(C, groupC);
    const ids = [base, ...cloneItems(base, N - 1, (i) => `PULL-${i}`)];
    // Products whose SKU three of the items carry; one item already recorded.
    const skus = ["PULL-5", "PULL-1500", "PULL-2400"];
    const productIds = new Map<string, string>();
    for (const sku of skus) {
      productIds.set(sku, await createProductAs(s, C, { title: { es: `Producto ${sku}` }, sku, price: 10, currency: "CNY" }));
    }
    await recordListings(C, groupC, [ids[7]]);

    control().resetCalls();
    const started = Date.now();
    const res = await call(C, "PullMarketStat", { accountGroupId: groupC });
    expect(res.status, res.raw).toBe(200);
    const taskId = res.body.result.taskId as string;
    // Past the search's 1,000 offset (11 pages of 100 read), the scroll expires: the sandbox's clock moves 6 minutes.
    await until(
      async () => control().callCount("GET /users/:id/items/search"),
      (n) => n >= 11,
      "scan past 1,000",
      120_000,
    );
    control().clock.advance(6 * 60_000);
    const task = await finished(C, taskId, 240_000);
    const ms = Date.now() - started;
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
    expect(task.taskRemark).toContain(`扫描 ${N} 个：新导入 ${N - 1}（关联商品 3），已有 1，失败 0`);
    expect(task.taskRemark).toContain("滚动查询过期重新开始 1 次");
    // 25 pages and the empty end, plus the pages read again after the restart.
    expect(control().callCount("GET /users/:id/items/search")).toBeGreaterThan(26);

    const rows = await listingsOf(C, groupC);
    expect(rows).toHaveLength(N);
    expect(new Set(rows.map((r) => r.itemId)).size).toBe(N);
    expect(new Set(rows.map((r) => r.itemId))).toEqual(new Set(ids));
    const linked = rows.filter((r) => r.productId !== null && r.itemId !== ids[7]);
    expect(linked.map((r) => [r.title!.replace("Producto de prueba ", "PULL-"), r.productId]).sort()).toEqual(
      skus.map((sku) => [sku, productIds.get(sku)]).sort(),
    );
    const imported = rows.find((r) => r.itemId === ids[100])!;
    expect(imported).toMatchObject({
      status: ListingStatus.Active,
      site: 1,
      currency: "MXN",
      productId: null,
      cateId: expect.any(String),
    });
    expect(imported.syncTime).not.toBeNull();
    console.log(`PullMarketStat of ${N} items: ${ms} ms on ${s.database.kind}`);

    // Again: everything is known, nothing imported.
    const again = await call(C, "PullMarketStat", { accountGroupId: groupC });
    expect(again.status, again.raw).toBe(200);
    const second = await finished(C, again.body.result.taskId, 240_000);
    expect(second.taskRemark).toContain(`扫描 ${N} 个：新导入 0（关联商品 0），已有 ${N}，失败 0`);
    const [{ n, d }] = rowsOf<{ n: number; d: number }>(
      await inScope(s.database.db, { tenantId: C.tenantId }, (tx) =>
        tx.execute(sql`select count(*)::int as n, count(distinct item_id)::int as d from listings where tenant_id = ${C.tenantId}`),
      ),
    );
    expect([n, d]).toEqual([N, N]);
  }, 400_000);
});

describe("a PullMarketStat Mercado Libre answers in part", () => {
  it("fails the task, saying how many items it could not read and Mercado Libre's reason", async () => {
    const D = await s.createTenant();
    const groupD = await connectPublishingShop(s, D, { nickname: uniqueName("PULLD"), site: "MLM", sites: [1] }, []);
    await createItem(D, groupD);
    await createItem(D, groupD);
    // The items' multiget is refused once: both items fail with its reason.
    control().inject({ method: "GET", path: "/items", status: 403, times: 1 });
    const res = await call(D, "PullMarketStat", { accountGroupId: groupD });
    expect(res.status, res.raw).toBe(200);
    const task = await finished(D, res.body.result.taskId);
    control().clearInjections();
    expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Failed);
    expect(task.taskRemark).toMatch(/扫描 2 个：新导入 0（关联商品 0），已有 0，失败 2（.+）/);
  });
});

describe("cross-border (MeliStatNew)", () => {
  it("imports a global item's site items with its cbtId, and a sync shows one site paused while the other is active", async () => {
    const D = await s.createTenant();
    const groupD = await connectPublishingShop(
      s,
      D,
      { nickname: uniqueName("CBTSYNC"), site: "CBT", marketplaces: ["MLM", "MLB"], sites: [1, 2] },
      [],
    );
    const shop = s.deps.meli.shop({ tenantId: D.tenantId, groupId: groupD });
    const sites = ["MLM", "MLB"].map((site_id) => ({
      site_id,
      logistic_type: "remote",
      listing_type_id: "gold_special",
      net_proceeds: 20,
    }));
    const global = await shop.send<{ item_id: string; site_items: { site_id: string; item_id: string }[] }>("POST", "/global/items", {
      body: itemBody(plainLeaf(s.deps.sandbox!, "CBT"), {
        title: "Wireless test product",
        price: 20,
        currency_id: "USD",
        sites_to_sell: sites,
      }),
    });
    expect(global.site_items.every((x) => x.item_id)).toBe(true);

    // A local shop's call does not reach a cross-border group.
    expect((await call(D, "PullMarketStat", { accountGroupId: groupD })).status).toBe(404);
    const pull = await call(D, "PullMarketStat", { accountGroupId: groupD }, "MeliStatNew");
    expect(pull.status, pull.raw).toBe(200);
    const pulled = await finished(D, pull.body.result.taskId);
    expect(pulled.taskRemark).toContain("新导入 2");
    const rows = await listingsOf(D, groupD);
    expect(rows.map((r) => [r.site, r.itemId, r.cbtId]).sort()).toEqual([
      [1, global.site_items.find((x) => x.site_id === "MLM")!.item_id, global.item_id],
      [2, global.site_items.find((x) => x.site_id === "MLB")!.item_id, global.item_id],
    ]);

    // Brazil's site item paused on the marketplace; Mexico's stays active.
    store().state.items.get(global.site_items.find((x) => x.site_id === "MLB")!.item_id)!.status = "paused";
    const sync = await call(D, "BatchSyncMeliStat", { filter: { cbtId: global.item_id } }, "MeliStatNew");
    expect(sync.status, sync.raw).toBe(200);
    expect(sync.body.result.total).toBe(2);
    expect((await finished(D, sync.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
    const list = await s.api("POST", "/api/MeliStatNew/GetMeliStatsByPage", { token: D.token, body: { cbtId: global.item_id } });
    expect(list.status, list.raw).toBe(200);
    expect((list.body.result.items as ListingRow[]).map((r) => [r.site, r.status]).sort()).toEqual([
      [1, ListingStatus.Active],
      [2, ListingStatus.Paused],
    ]);
  });
});
