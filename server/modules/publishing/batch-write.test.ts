// Issue 29: a publish writes its batch over several short transactions (batch-write.ts), so on PGlite's one
// connection other tenants' calls run between its chunks. Watched between the chunks (a hook, not timing): another
// tenant's call is answered; the batch and its listings are in no read; a publish of the same product meanwhile is
// skipped as one being published, so one item is made. A writer that stopped between chunks leaves a hidden batch
// that its sweep removes, after which the products publish again. The Idempotency-Key still answers the first result.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { sweepWrittenBatch } from "./batch-sweep.ts";
import { batchWriting } from "./batch-write.ts";
import { WRITING_STALE_SECONDS, WRITING_SWEEP_JOB } from "./constants.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let group: string;

const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");
const defaults = { ...batchWriting };

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  await syncCategories(s, [1]);
  group = await connectPublishingShop(s, A, { nickname: "CHUNKSELLER", site: "MLM", sites: [1] }, ean13s(12, 750400000000));
}, 180_000);
afterAll(() => s?.close());
afterEach(() => Object.assign(batchWriting, defaults));

/** One listing per chunk, and `between` run after each chunk of the first batch written (not of others). */
function watchChunks(between: (batchId: string, chunk: number) => Promise<void>) {
  Object.assign(batchWriting, { firstChunk: 1, minChunk: 1, maxChunk: 1 });
  let first: string | null = null;
  let chunk = 0;
  batchWriting.betweenChunks = async (batchId) => {
    first ??= batchId;
    if (batchId === first) await between(batchId, ++chunk);
  };
}

const request = (productIds: string[]) => ({
  accountGroupId: group,
  sites: [1],
  productIds,
  cateInfo: [{ site: 1, cateId: leaf().id, attrs: requestAttrs(leaf()) }],
});
const publish = (productIds: string[], key: string = randomUUID()) =>
  s.api("POST", "/api/MeliStatNew/Publish", { token: A.token, body: request(productIds), headers: { "idempotency-key": key } });

const product = (title: string) =>
  createProductAs(s, A, {
    title: { es: title },
    price: 100,
    currency: "CNY",
    sku: `CHUNK-${randomUUID().slice(0, 8)}`,
    stock: 3,
    weight: 450,
    size: "20x15x10",
    images: ["https://img.example.com/chunk-1.jpg"],
  });

/** What tenant A's reads show: its batches, the listing centre's rows and tabs' total. */
async function visible() {
  const batches = await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: { maxResultCount: 1000 } });
  const rows = await s.api("POST", "/api/MeliStat/GetMeliStatsByPage", { token: A.token, body: { maxResultCount: 1000 } });
  const tabs = await s.api("POST", "/api/MeliStat/GetMeliStatGroupInfo", { token: A.token, body: {} });
  for (const r of [batches, rows, tabs]) expect(r.status, r.raw).toBe(200);
  return {
    batchIds: (batches.body.result.items as { id: string }[]).map((b) => b.id),
    batchCount: batches.body.result.totalCount as number,
    listingIds: (rows.body.result.items as { id: string }[]).map((l) => l.id),
    listingTotal: rows.body.result.totalCount as number,
    tabsTotal: tabs.body.result.total.count as number,
  };
}

/** Every row of the batch, hidden or not (as the host sees the tables). */
const stored = (batchId: string) =>
  inScope(s.database.db, hostAllScope, async (tx) => ({
    batch: rowsOf<{ status: number }>(await tx.execute(sql`select status from publish_batches where id = ${batchId}`))[0] ?? null,
    listings: rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from listings where batch_id = ${batchId}`))[0].n,
  }));

const storedListings = (batchId: string) =>
  inScope(s.database.db, hostAllScope, async (tx) =>
    rowsOf<{ id: string; productId: string }>(
      await tx.execute(sql`select id, product_id as "productId" from listings where batch_id = ${batchId}`),
    ),
  );

const settled = (batchId: string) =>
  until(
    async () =>
      (
        await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: { maxResultCount: 1000 } })
      ).body.result.items.find((b: { id: string }) => b.id === batchId),
    (b) => !!b && b.status !== PublishBatchStatus.Queued && b.status !== PublishBatchStatus.Running,
    "publish batch",
  );
const listingsOf = async (batchId: string) =>
  (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } })).body.result.items as {
    productId: string;
    status: number;
    reason: string | null;
  }[];

describe("a batch written in chunks", () => {
  it("gives the database to other calls between its chunks, shows nothing until its end, and holds its products meanwhile", async () => {
    const ids = [await product("Chunk lámpara uno"), await product("Chunk lámpara dos"), await product("Chunk lámpara tres")];
    const before = await visible();
    const seen: string[] = [];
    let second: Awaited<ReturnType<typeof publish>> | null = null;
    let heldFirst = "";
    watchChunks(async (batchId, chunk) => {
      seen.push(`chunk ${chunk}`);
      // Another tenant's call runs to its answer while the batch is half written (on PGlite: the one connection is free).
      const other = await s.api("GET", "/api/User/GetMyInfo", { token: B.token });
      expect(other.status, other.raw).toBe(200);
      seen.push("other tenant answered");
      // Nothing of the batch is seen: not the batch, not its listings, not in the tabs; its listing list is not found.
      const written = (await storedListings(batchId)).map((l) => l.id);
      expect(written).toHaveLength(chunk);
      const now = await visible();
      expect(now.batchIds).not.toContain(batchId);
      expect(now.listingIds.filter((id) => written.includes(id))).toEqual([]);
      expect(now.tabsTotal).toBe(now.listingTotal);
      expect(now.listingTotal).toBe(before.listingTotal + (chunk === 1 ? 0 : 1));
      const own = await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } });
      expect(own.status).toBe(404);
      const retry = await s.api("POST", "/api/MeliStatNew/RetryPublish", {
        token: A.token,
        body: { batchId },
        headers: { "idempotency-key": randomUUID() },
      });
      expect(retry.status).toBe(404);
      // A publish of the product the first chunk wrote, meanwhile: skipped as being published.
      if (chunk === 1) {
        heldFirst = (await storedListings(batchId))[0].productId;
        second = await publish([heldFirst]);
      }
    });
    const first = await publish(ids);
    expect(first.status, first.raw).toBe(200);
    expect(seen).toEqual(["chunk 1", "other tenant answered", "chunk 2", "other tenant answered", "chunk 3", "other tenant answered"]);
    expect(first.body.result).toMatchObject({ total: 3, skipped: 0, alreadyListed: 0, status: PublishBatchStatus.Queued });

    expect(second!.status, second!.raw).toBe(200);
    expect(second!.body.result).toMatchObject({ total: 1, skipped: 1, alreadyListed: 1, status: PublishBatchStatus.Failed });
    const [skipped] = await listingsOf(second!.body.result.id);
    expect(skipped).toMatchObject({ productId: heldFirst, status: ListingStatus.Skipped });
    expect(skipped.reason).toContain("该商品正在此店铺站点刊登中");

    const done = await settled(first.body.result.id);
    expect(done.status).toBe(PublishBatchStatus.Succeeded);
    const rows = await listingsOf(first.body.result.id);
    expect(rows.map((r) => r.status)).toEqual([ListingStatus.Active, ListingStatus.Active, ListingStatus.Active]);
    expect([...s.deps.sandbox!.store.state.items.values()].filter((i) => i.title.startsWith("Chunk lámpara"))).toHaveLength(3);
    const after = await visible();
    expect(after.batchIds).toEqual(expect.arrayContaining([first.body.result.id, second!.body.result.id]));
    expect(after.listingIds).toHaveLength(before.listingIds.length + 4);
  }, 120_000);

  it("left half written (its writer stopped), is hidden until its sweep removes it; the products then publish again", async () => {
    const ids = [await product("Chunk taza uno"), await product("Chunk taza dos")];
    const before = await visible();
    let stopped!: (batchId: string) => void;
    const atStop = new Promise<string>((resolve) => (stopped = resolve));
    let resume!: () => void;
    watchChunks(async (batchId, chunk) => {
      if (chunk !== 1) return;
      stopped(batchId);
      await new Promise<void>((resolve) => (resume = resolve));
    });
    const stuck = publish(ids);
    const batchId = await atStop;
    expect(await stored(batchId)).toEqual({ batch: { status: -1 }, listings: 1 });
    expect(await visible()).toEqual(before);
    const sweeps = rowsOf(
      await s.database.db.execute(sql`select 1 from pgboss.job where name = ${WRITING_SWEEP_JOB} and data->>'batchId' = ${batchId}`),
    );
    expect(sweeps).toHaveLength(1);

    // Its sweep while it is fresh leaves it; once untouched for longer than the bound, removes it.
    const sweep = () => sweepWrittenBatch(s.deps, { tenantId: A.tenantId, batchId });
    await sweep();
    expect(await stored(batchId)).toEqual({ batch: { status: -1 }, listings: 1 });
    await inScope(s.database.db, hostAllScope, (tx) =>
      tx.execute(sql`update publish_batches set last_update_time = now() - ${WRITING_STALE_SECONDS + 60}::int * interval '1 second'
        where id = ${batchId}`),
    );
    await sweep();
    expect(await stored(batchId)).toEqual({ batch: null, listings: 0 });
    expect(await visible()).toEqual(before);

    // The products are free again: a new publish makes their items.
    batchWriting.betweenChunks = null;
    const again = await publish(ids);
    expect(again.status, again.raw).toBe(200);
    expect(again.body.result).toMatchObject({ total: 2, alreadyListed: 0, skipped: 0 });
    expect((await settled(again.body.result.id)).status).toBe(PublishBatchStatus.Succeeded);

    // The stopped writer, resumed, finds its batch gone and says so; nothing of it is left.
    resume();
    const late = await stuck;
    expect(late.status, late.raw).toBe(409);
    expect(late.body.error.code).toBe("Publish.BatchExpired");
    expect(await stored(batchId)).toEqual({ batch: null, listings: 0 });
  }, 120_000);

  it("removes the batch it wrote when the call's transaction does not make it one", async () => {
    const ids = [await product("Chunk plato uno"), await product("Chunk plato dos")];
    const key = randomUUID();
    let batch = "";
    watchChunks(async (batchId, chunk) => {
      batch = batchId;
      // After the last chunk, the key looks taken by a request still running: the call's claim refuses (409) and its
      // transaction rolls back.
      if (chunk === 2)
        await inScope(s.database.db, hostAllScope, (tx) =>
          tx.execute(sql`insert into idempotency_keys (tenant_id, user_id, key, request_hash)
            values (${A.tenantId}, ${A.userId}, ${key}, 'another request')`),
        );
    });
    const refused = await publish(ids, key);
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.body.error.code).toBe("Idempotency.InProgress");
    expect(await stored(batch)).toEqual({ batch: null, listings: 0 });
    batchWriting.betweenChunks = null;
    const again = await publish(ids);
    expect(again.body.result).toMatchObject({ total: 2, alreadyListed: 0, skipped: 0 });
  }, 120_000);

  it("answers a repeated Idempotency-Key with the first result, and leaves no second batch", async () => {
    const ids = [await product("Chunk vaso uno"), await product("Chunk vaso dos")];
    Object.assign(batchWriting, { firstChunk: 1, minChunk: 1, maxChunk: 1 });
    const key = randomUUID();
    const hidden = () =>
      inScope(s.database.db, hostAllScope, async (tx) =>
        rowsOf<{ n: number }>(
          await tx.execute(sql`select count(*)::int as n from publish_batches where tenant_id = ${A.tenantId} and status < 0`),
        ),
      );
    // Two at once with the same key: one batch, both answered with it.
    const [one, two] = await Promise.all([publish(ids, key), publish(ids, key)]);
    for (const r of [one, two]) expect(r.status, r.raw).toBe(200);
    expect(two.body.result).toEqual(one.body.result);
    expect([one, two].filter((r) => r.headers["idempotent-replayed"] === "true")).toHaveLength(1);
    // Later, the same key again: the recorded answer, nothing written.
    const batches = (await visible()).batchCount;
    const three = await publish(ids, key);
    expect(three.status).toBe(200);
    expect(three.headers["idempotent-replayed"]).toBe("true");
    expect(three.body.result).toEqual(one.body.result);
    expect((await visible()).batchCount).toBe(batches);
    expect(await hidden()).toEqual([{ n: 0 }]);
    expect((await settled(one.body.result.id)).status).toBe(PublishBatchStatus.Succeeded);
  }, 120_000);
});
