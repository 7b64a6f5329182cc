// A shop whose grant Mercado Libre no longer knows (the sandbox forgot it, or the seller revoked the app): every sync
// reports the failure and asks for 重新授权, none shows a success. Before, SyncMelistat and GetNewOrder answered 200
// with the stale row and the console showed 同步成功.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { createShopItem, recordListings } from "../../testing/listing-kit.ts";
import { plainLeaf, requiredAttributes } from "../../testing/sandbox-kit.ts";
import { connectPublishingShop, until } from "../../testing/publish-kit.ts";
import { TaskStatus } from "#shared/contract/enums.ts";

let s: TestServer;
let A: TestTenant;
let groupId: string;

const control = () => s.deps.sandbox!.control;

/** The plain leaf's required attributes, and the reason for no GTIN where the leaf asks for one. */
function plainAttributes() {
  const leaf = plainLeaf(s.deps.sandbox!, "MLM");
  const reason = leaf.attributes.find((a) => a.id === "EMPTY_GTIN_REASON" && a.values?.length);
  const list: { id: string; value_id?: string; value_name?: string }[] = requiredAttributes(leaf);
  if (reason && !list.some((a) => a.id === reason.id)) list.push({ id: reason.id, value_id: reason.values![0].id });
  return list;
}

/** What a sandbox restart without its state did: every token and grant of the app is gone. */
function forgetGrants() {
  const { state } = s.deps.sandbox!.store;
  state.tokens.clear();
  state.grants.clear();
  state.refreshTokens.clear();
}

const taskOf = (taskId: string) =>
  until(
    async () =>
      (
        await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
          tx
            .select()
            .from(taskInfos)
            .where(and(eq(taskInfos.tenantId, A.tenantId), eq(taskInfos.id, taskId))),
        )
      )[0],
    (t) => t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed,
    `task ${taskId}`,
  );

let listingId: string;
let orderRowId: string;

beforeAll(async () => {
  s = await startTestServer();
  s.deps.sandbox!.store.state.orderIntervalMs = 1e13;
  A = await s.createTenant();
  const nickname = uniqueName("REFUSED");
  groupId = await connectPublishingShop(s, A, { nickname, site: "MLM", sites: [1] }, []);
  const itemId = await createShopItem(s, A, groupId, { attributes: plainAttributes() });
  [listingId] = await recordListings(s, A, groupId, [itemId]);
  const sellerId = s.deps.sandbox!.store.state.items.get(itemId)!.seller_id;
  const order = control().createOrder(sellerId, { itemId, status: "paid" });
  const fetch = await s.api("GET", "/api/Order/FetchOrders", {
    token: A.token,
    query: { StartTime: new Date(Date.now() - 86_400_000).toISOString(), GroupId: groupId },
  });
  expect((await taskOf(fetch.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
  const page = await s.api("GET", "/api/Order/GetOrders", { token: A.token, query: { OrderNo: String(order.id) } });
  orderRowId = page.body.result.items[0].id;
  forgetGrants();
}, 180_000);
afterAll(() => s?.close());

describe("a sync after Mercado Libre refused the shop's token", () => {
  it("SyncMelistat answers the failure with 重新授权, not the stale row", async () => {
    const res = await s.api("POST", "/api/MeliStat/SyncMelistat", { token: A.token, body: { id: listingId } });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.error.message).toContain("重新授权");
  });

  it("GetNewOrder answers the failure with 重新授权", async () => {
    const res = await s.api("PUT", "/api/Order/GetNewOrder", { token: A.token, query: { id: orderRowId } });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.error.message).toContain("重新授权");
  });

  it("BatchSyncMeliStat and FetchOrders fail their task, naming 重新授权", async () => {
    const batch = await s.api("POST", "/api/MeliStat/BatchSyncMeliStat", { token: A.token, body: { ids: [listingId] } });
    expect(batch.status, batch.raw).toBe(200);
    const synced = await taskOf(batch.body.result.taskId);
    expect(synced.taskStatus).toBe(TaskStatus.Failed);
    expect(synced.taskRemark).toContain("重新授权");

    const fetch = await s.api("GET", "/api/Order/FetchOrders", { token: A.token, query: { GroupId: groupId } });
    const fetched = await taskOf(fetch.body.result.taskId);
    expect(fetched.taskStatus).toBe(TaskStatus.Failed);
    expect(fetched.taskRemark).toContain("重新授权");
  });
});
