// Listing views from Mercado Libre's visits resource, against the sandbox through the real HTTP stack: the sandbox's
// GET /visits/items (its shape, its 50-id cap, any seller's token reads it as the docs name no owner check, global
// items have none); visits added on the sandbox show on the listing after SyncMelistat and after BatchSyncMeliStat
// (25 listings: two multigets and one visits call, never a call per listing), hasView and sorting by views then find
// them; a failed visits call keeps the old views and does not fail the sync.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meliCallLogs, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, until } from "../../testing/publish-kit.ts";
import { createShopItem, recordListings as recordListingRows } from "../../testing/listing-kit.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { ListingRow } from "#shared/contract/listings.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let groupA: string;
let groupB: string;

const store = () => s.deps.sandbox!.store;
const control = () => s.deps.sandbox!.control;
const shopOf = (t: TestTenant, groupId: string) => s.deps.meli.shop({ tenantId: t.tenantId, groupId });

const createItem = (t: TestTenant, groupId: string) => createShopItem(s, t, groupId);
const recordListings = (t: TestTenant, groupId: string, itemIds: string[], views = 0) =>
  recordListingRows(s, t, groupId, itemIds, { views });

const finished = (t: TestTenant, taskId: string) =>
  until(
    () =>
      inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
        tx
          .select()
          .from(taskInfos)
          .where(and(eq(taskInfos.tenantId, t.tenantId), eq(taskInfos.id, taskId))),
      ).then((r) => r[0]),
    (task) => task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed,
    `task ${taskId}`,
    120_000,
  );

const call = (t: TestTenant, name: string, body: Record<string, unknown>) =>
  s.api("POST", `/api/MeliStat/${name}`, { token: t.token, body });

async function page(t: TestTenant, body: Record<string, unknown>): Promise<ListingRow[]> {
  const res = await call(t, "GetMeliStatsByPage", { maxResultCount: 100, ...body });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.items as ListingRow[];
}

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  groupA = await connectPublishingShop(s, A, { nickname: uniqueName("VISITA"), site: "MLM", sites: [1] }, []);
  groupB = await connectPublishingShop(s, B, { nickname: uniqueName("VISITB"), site: "MLM", sites: [1] }, []);
}, 180_000);
afterAll(() => s?.close());

describe("the sandbox's visits resource", () => {
  it("answers { id: total } for up to 50 ids, to any seller's token, and leaves out ids without visits data", async () => {
    const [one, two] = [await createItem(A, groupA), await createItem(A, groupA)];
    expect(control().addVisits(one, 12)).toBe(12);
    const mine = await shopOf(A, groupA).send("GET", "/visits/items", { query: { ids: `${one},${two},MLM1` } });
    expect(mine).toEqual({ [one]: 12, [two]: 0 });
    // Mercado Libre's docs name no owner check on visits: another seller's token reads the same totals.
    const theirs = await shopOf(B, groupB).send("GET", "/visits/items", { query: { ids: one } });
    expect(theirs).toEqual({ [one]: 12 });

    const tooMany = Array.from({ length: 51 }, (_, i) => `MLM${i + 1}`).join(",");
    const refused = await shopOf(A, groupA)
      .send("GET", "/visits/items", { query: { ids: tooMany } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MeliApiError);
    expect((refused as MeliApiError).meli.status).toBe(400);
    // A token is required.
    const anonymous = await s.app.inject({ method: "GET", url: `/sandbox/meli/visits/items?ids=${one}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("views on the listing", () => {
  it("SyncMelistat stores the item's visits and logs the visits call on the listing", async () => {
    const item = await createItem(A, groupA);
    const [id] = await recordListings(A, groupA, [item]);
    control().addVisits(item, 7);
    const synced = await call(A, "SyncMelistat", { id });
    expect(synced.status, synced.raw).toBe(200);
    expect(synced.body.result as ListingRow).toMatchObject({ id, itemId: item, views: 7 });
    const logged = await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx.select().from(meliCallLogs).where(eq(meliCallLogs.listingId, id)),
    );
    expect(logged.map((l) => [l.method, l.path.split("?")[0], l.status]).sort()).toEqual([
      ["GET", "/items", 200],
      ["GET", "/visits/items", 200],
    ]);
    expect(logged.find((l) => l.path.startsWith("/visits/items"))!.path).toContain(`ids=${item}`);
  });

  it("BatchSyncMeliStat of 25 listings: two multigets and one visits call; hasView and sorting by views find them", async () => {
    const items: string[] = [];
    for (let i = 0; i < 25; i++) items.push(await createItem(A, groupA));
    const ids = await recordListings(A, groupA, items);
    // The first ten are viewed (1..10 times), the rest not at all.
    for (let i = 0; i < 10; i++) control().addVisits(items[i], i + 1);
    const before = await page(A, { itemIds: items, hasView: true });
    expect(before).toEqual([]);

    control().resetCalls();
    const started = await call(A, "BatchSyncMeliStat", { ids });
    expect(started.status, started.raw).toBe(200);
    const task = await finished(A, started.body.result.taskId);
    expect(task.taskStatus).toBe(TaskStatus.Succeeded);
    expect(task.taskRemark).toContain("已同步 25，美客多已删除 0，失败 0");
    // Bounded: no call per listing.
    expect(control().calls()).toEqual({ "GET /items": 2, "GET /visits/items": 1 });

    const viewed = await page(A, { itemIds: items, hasView: true, sorting: "views desc" });
    expect(viewed.map((r) => [r.itemId, r.views])).toEqual(
      items
        .slice(0, 10)
        .map((itemId, i) => [itemId, i + 1])
        .reverse(),
    );
    const unviewed = await page(A, { itemIds: items, hasView: false });
    expect(unviewed.map((r) => r.itemId).sort()).toEqual(items.slice(10).sort());
    expect(unviewed.every((r) => r.views === 0)).toBe(true);
  });

  it("a failed visits call keeps the old views and does not fail the sync", async () => {
    const items = [await createItem(A, groupA), await createItem(A, groupA)];
    const ids = await recordListings(A, groupA, items, 40);
    for (const item of items) {
      control().addVisits(item, 99);
      store().state.items.get(item)!.price = 432;
    }
    control().inject({ method: "GET", path: "/visits/items", status: 403, times: 1 });
    const started = await call(A, "BatchSyncMeliStat", { ids });
    expect(started.status, started.raw).toBe(200);
    const task = await finished(A, started.body.result.taskId);
    control().clearInjections();
    expect(task.taskStatus).toBe(TaskStatus.Succeeded);
    expect(task.taskRemark).toContain("已同步 2，美客多已删除 0，失败 0");
    const rows = await page(A, { itemIds: items });
    expect(rows.map((r) => [r.price, r.views])).toEqual([
      [432, 40],
      [432, 40],
    ]);

    // The next sync reads them.
    const again = await call(A, "BatchSyncMeliStat", { ids });
    expect((await finished(A, again.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
    expect((await page(A, { itemIds: items })).map((r) => r.views)).toEqual([99, 99]);
  });

  it("PullMarketStat imports a shop's items with their views", async () => {
    const items = [await createItem(B, groupB), await createItem(B, groupB), await createItem(B, groupB)];
    control().addVisits(items[0], 12);
    control().addVisits(items[1], 3);
    const started = await call(B, "PullMarketStat", { accountGroupId: groupB });
    expect(started.status, started.raw).toBe(200);
    expect((await finished(B, started.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
    const rows = await page(B, { itemIds: items });
    expect(new Map(rows.map((r) => [r.itemId, r.views]))).toEqual(
      new Map([
        [items[0], 12],
        [items[1], 3],
        [items[2], 0],
      ]),
    );
  });
});
