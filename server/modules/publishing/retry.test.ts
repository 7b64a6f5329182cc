// RetryPublish against the sandbox through the real HTTP stack: a batch's refused and skipped listings go back to
// Pending and their jobs plan again with the product as the seller fixed it, so each is created once (the same
// x-idempotency-key after a refusal creates the item: a refusal created nothing); a live listing is not touched, a
// product still failing the pre-flight is skipped again with its reason; a global item's refused site is added to the
// existing global item; a running batch, a batch with nothing to retry and another tenant's batch are refused and
// change nothing; the same Idempotency-Key twice retries once.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listings, publishBatches } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { plainLeaf, requiredAttributes } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { createProductAs, ean13s, requestAttrs, shopGroupOf, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { createFreightService } from "../freight/service.ts";
import { createGtinService } from "../gtin/service.ts";
import { createMeliLogService } from "../meli-logs/service.ts";
import { createPlanner } from "./plan.ts";
import { createPublishingService } from "./service.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let groupA: string;

type Row = {
  id: string;
  productId: string;
  productTitle: string | null;
  site: number;
  status: number;
  itemId: string | null;
  cbtId: string | null;
  title: string | null;
  reason: string | null;
  lastModificationTime: string | null;
};

const createProduct = (t: TestTenant, body: Record<string, unknown>) => createProductAs(s, t, body);

const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");
const attrsOf = () => requestAttrs(leaf());

const publish = (t: TestTenant, productIds: string[], group = groupA) =>
  s.api("POST", "/api/MeliStatNew/Publish", {
    token: t.token,
    body: { accountGroupId: group, sites: [1], productIds, cateInfo: [{ site: 1, cateId: leaf().id, attrs: attrsOf() }] },
  });

const retry = (t: TestTenant, body: Record<string, unknown>, key?: string) =>
  s.api("POST", "/api/MeliStatNew/RetryPublish", { token: t.token, body, headers: key ? { "idempotency-key": key } : {} });

const listingsOf = async (t: TestTenant, batchId: string): Promise<Row[]> => {
  const res = await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: t.token, body: { batchId } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.items;
};

const settled = (t: TestTenant, batchId: string, what: string) =>
  until(
    () => listingsOf(t, batchId),
    (ls) => ls.length > 0 && ls.every((l) => l.status !== ListingStatus.Pending && l.status !== ListingStatus.Publishing),
    what,
  );

const batchOf = async (t: TestTenant, batchId: string) =>
  (
    await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: t.token, body: { maxResultCount: 100 } })
  ).body.result.items.find((b: { id: string }) => b.id === batchId);

/** Items the sandbox holds for a listing (its seller_custom_field is the listing id). */
const itemsFor = (listingId: string) => [...s.deps.sandbox!.store.state.items.values()].filter((i) => i.seller_custom_field === listingId);

/** Where the item's pictures came from (the sandbox keeps a source picture's URL). */
const sourcesOf = (item: { pictures: { id: string }[] }) => item.pictures.map((x) => s.deps.sandbox!.store.state.pictures.get(x.id)?.url);

/** The tenant's listings as stored, to prove a refused call changed nothing. */
const snapshot = (t: TestTenant) =>
  inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => ({
    listings: await tx.select().from(listings).where(eq(listings.tenantId, t.tenantId)).orderBy(listings.id),
    batches: await tx.select().from(publishBatches).where(eq(publishBatches.tenantId, t.tenantId)).orderBy(publishBatches.id),
  }));

const complete = (title: string, image: string) => ({
  title: { es: title },
  price: 100,
  currency: "CNY",
  weight: 300,
  size: "20x10x10",
  images: [image],
});

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  await syncCategories(s, [1]);
  const page = await connectShop(s, A.token, { nickname: "RETRYSELLER", site: "MLM", sites: [1] });
  expect(page.ok, page.message).toBe(true);
  groupA = await shopGroupOf(s, A);
  // The leaf requires a GTIN: one code per attempt; a refused attempt gives its code back.
  const set = await s.api("POST", "/api/MeliCode/SetCodes", { token: A.token, body: { codes: ean13s(20, 750300000001) } });
  expect(set.status, set.raw).toBe(200);
}, 180_000);
afterAll(() => s?.close());

describe("RetryPublish", () => {
  it("publishes the skipped listings the seller fixed, once each, with the fixed data; the live one is not touched", async () => {
    const live = await createProduct(A, complete("Lámpara de escritorio", "https://img.example.com/r-lamp.jpg"));
    // No weight and no size: the pre-flight skips them.
    const fixedFirst = await createProduct(A, {
      title: { es: "Taza de cerámica" },
      price: 100,
      currency: "CNY",
      images: ["https://img.example.com/r-cup.jpg"],
    });
    const fixedLater = await createProduct(A, {
      title: { es: "Plato hondo" },
      price: 100,
      currency: "CNY",
      images: ["https://img.example.com/r-plate.jpg"],
    });
    const neverFixed = await createProduct(A, {
      title: { es: "Vaso de vidrio" },
      price: 100,
      currency: "CNY",
      images: ["https://img.example.com/r-glass.jpg"],
    });
    const res = await publish(A, [live, fixedFirst, fixedLater, neverFixed]);
    expect(res.status, res.raw).toBe(200);
    const batchId = res.body.result.id;
    const first = await settled(A, batchId, "first publish");
    const by = (rows: Row[], p: string) => rows.find((l) => l.productId === p)!;
    expect(by(first, live).status).toBe(ListingStatus.Active);
    for (const p of [fixedFirst, fixedLater, neverFixed]) {
      expect(by(first, p)).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
      expect(by(first, p).reason).toContain("缺少重量");
    }
    // The drawer names a listing by its product when it has no title of its own.
    expect(by(first, neverFixed).productTitle).toBe("Vaso de vidrio");
    expect(await batchOf(A, batchId)).toMatchObject({ total: 4, success: 1, skipped: 3, status: PublishBatchStatus.PartlySucceeded });

    // The seller fixes two of them (weight, size and a new picture).
    for (const p of [fixedFirst, fixedLater]) {
      const edit = await s.api("POST", "/api/Product/CreateOrUpdateProduct", {
        token: A.token,
        body: { id: p, weight: 250, size: "12x12x8", images: [`https://img.example.com/fixed-${p}.jpg`] },
      });
      expect(edit.status, edit.raw).toBe(200);
    }
    // Another batch's listing among listingIds is ignored, as is the live one.
    const other = await publish(A, [live]);
    const [otherListing] = await settled(A, other.body.result.id, "other batch");
    const posts = s.deps.sandbox!.control.callCount("POST /items");

    // Only the one selected: the live listing and another batch's listing are ignored.
    const one = await retry(A, { batchId, listingIds: [by(first, fixedFirst).id, by(first, live).id, otherListing.id] });
    expect(one.status, one.raw).toBe(200);
    expect(one.body.result).toMatchObject({ id: batchId, status: PublishBatchStatus.Running, total: 4, success: 1, skipped: 2 });
    const afterOne = await settled(A, batchId, "retry of one");
    expect(by(afterOne, fixedFirst).status).toBe(ListingStatus.Active);
    expect(by(afterOne, fixedLater).status).toBe(ListingStatus.Skipped);
    expect(s.deps.sandbox!.control.callCount("POST /items")).toBe(posts + 1);
    expect((await listingsOf(A, other.body.result.id))[0]).toEqual(otherListing);

    // Then the rest: the fixed product is published, the one still incomplete is skipped again with its reason.
    const rest = await retry(A, { batchId });
    expect(rest.status, rest.raw).toBe(200);
    const done = await settled(A, batchId, "retry of the rest");
    expect(by(done, fixedLater).status).toBe(ListingStatus.Active);
    expect(by(done, neverFixed)).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    expect(by(done, neverFixed).reason).toContain("缺少重量");
    // The live listing is exactly as it was.
    expect(by(done, live)).toEqual(by(first, live));
    expect(s.deps.sandbox!.control.callCount("POST /items")).toBe(posts + 2);

    // Each fixed listing is one item, with the data as fixed.
    for (const p of [fixedFirst, fixedLater]) {
      const l = by(done, p);
      const items = itemsFor(l.id);
      expect(items.map((i) => i.id)).toEqual([l.itemId]);
      expect(sourcesOf(items[0])).toEqual([`https://img.example.com/fixed-${p}.jpg`]);
    }
    expect(await batchOf(A, batchId)).toMatchObject({
      total: 4,
      success: 3,
      fail: 0,
      skipped: 1,
      status: PublishBatchStatus.PartlySucceeded,
    });
    expect(s.deps.sandbox!.control.duplicates()).toEqual([]);
  });

  it("publishes a listing Mercado Libre refused once the seller fixed it, with the same key, and the same Idempotency-Key twice retries once", async () => {
    const p = await createProduct(A, complete("Lámpara de pie", "https://img.example.com/small.jpg"));
    // Mercado Libre downloads the picture and finds it too small.
    s.deps.sandbox!.control.inject({
      method: "POST",
      path: "/items",
      status: 400,
      body: {
        message: "Validation error",
        error: "validation_error",
        status: 400,
        cause: [
          {
            department: "items",
            cause_id: 205,
            type: "error",
            code: "item.pictures.invalid_size",
            references: ["item.pictures[0]"],
            message: "The picture is too small: each side must be at least 500 px.",
          },
        ],
      },
    });
    const res = await publish(A, [p]);
    const batchId = res.body.result.id;
    const [refused] = await settled(A, batchId, "refused publish");
    expect(refused).toMatchObject({ status: ListingStatus.Refused, itemId: null });
    expect(refused.reason).toContain("至少一边 500 像素");
    expect(itemsFor(refused.id)).toEqual([]);
    expect(await batchOf(A, batchId)).toMatchObject({ success: 0, fail: 1, status: PublishBatchStatus.Failed });

    await s.api("POST", "/api/Product/CreateOrUpdateProduct", {
      token: A.token,
      body: { id: p, images: ["https://img.example.com/large.jpg"] },
    });
    const key = `retry-${refused.id}`;
    const once = await retry(A, { batchId }, key);
    expect(once.status, once.raw).toBe(200);
    const again = await retry(A, { batchId }, key);
    expect(again.status, again.raw).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body.result).toEqual(once.body.result);

    const [published] = await settled(A, batchId, "retried publish");
    expect(published).toMatchObject({ status: ListingStatus.Active, reason: null });
    const items = itemsFor(refused.id);
    expect(items.map((i) => i.id)).toEqual([published.itemId]);
    expect(sourcesOf(items[0])).toEqual(["https://img.example.com/large.jpg"]);
    // One creation under the listing's key: the refused attempt created nothing, the retry created it once.
    const creations = s.deps.sandbox!.control.creations().filter((c) => c.key === refused.id);
    expect(creations).toHaveLength(1);
    expect(creations[0].itemIds).toEqual([published.itemId]);
    expect(await batchOf(A, batchId)).toMatchObject({ success: 1, fail: 0, status: PublishBatchStatus.Succeeded });

    // Nothing left to retry: a clear refusal.
    const nothing = await retry(A, { batchId });
    expect(nothing.status).toBe(403);
    expect(nothing.body.error.message).toBe("没有可重试的刊登");
  });

  it("refuses a batch still publishing, another tenant's batch and an unknown batch, and changes nothing", async () => {
    const p = await createProduct(A, {
      title: { es: "Cuchara" },
      price: 100,
      currency: "CNY",
      images: ["https://img.example.com/spoon.jpg"],
    });
    const q = await createProduct(A, complete("Tenedor", "https://img.example.com/fork.jpg"));
    const res = await publish(A, [p, q]);
    const batchId = res.body.result.id;
    const rows = await settled(A, batchId, "publish");
    const done = rows.find((l) => l.productId === q)!;
    const skipped = rows.find((l) => l.productId === p)!;
    expect(skipped.status).toBe(ListingStatus.Skipped);

    // As if its job had not run yet.
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .update(listings)
        .set({ status: ListingStatus.Pending })
        .where(and(eq(listings.tenantId, A.tenantId), eq(listings.id, done.id))),
    );
    const before = await snapshot(A);
    const running = await retry(A, { batchId });
    expect(running.status, running.raw).toBe(409);
    expect(running.body.error.message).toBe("批次仍在刊登中，请稍后再试");
    expect(await snapshot(A)).toEqual(before);
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) =>
      tx
        .update(listings)
        .set({ status: ListingStatus.Active })
        .where(and(eq(listings.tenantId, A.tenantId), eq(listings.id, done.id))),
    );

    const held = await snapshot(A);
    const posts = s.deps.sandbox!.control.callCount("POST /items");
    const foreign = await retry(B, { batchId });
    expect(foreign.status, foreign.raw).toBe(404);
    expect(foreign.body.error.message).toBe("刊登批次不存在");
    expect(foreign.raw).not.toContain(skipped.id);
    const foreignIds = await retry(B, { batchId, listingIds: [skipped.id] });
    expect(foreignIds.status).toBe(404);
    const unknown = await retry(A, { batchId: "00000000-0000-4000-8000-000000000009" });
    expect(unknown.status).toBe(404);
    const bad = await retry(A, { batchId, listingIds: [] });
    expect(bad.status).toBe(400);
    // Only A's other batch's listing: nothing of this batch is named.
    const strangers = await retry(A, { batchId, listingIds: ["00000000-0000-4000-8000-00000000000a"] });
    expect(strangers.status).toBe(403);
    expect(strangers.body.error.message).toBe("没有可重试的刊登");
    await new Promise((r) => setTimeout(r, 1000));
    expect(await snapshot(A)).toEqual(held);
    expect(s.deps.sandbox!.control.callCount("POST /items")).toBe(posts);
  });
});

describe("a publish job the queue will not try again", () => {
  it("ends its listings Failed with the reason and the batch with them; a late attempt changes nothing; RetryPublish sends it again", async () => {
    const p = await createProduct(A, complete("Lámpara colgante", "https://img.example.com/pendant.jpg"));
    // Mercado Libre answers 503 to every creation: the job fails attempt after attempt.
    s.deps.sandbox!.control.inject({ method: "POST", path: "/items", status: 503, times: 1000 });
    const res = await publish(A, [p]);
    const batchId = res.body.result.id;
    await until(
      () => listingsOf(A, batchId),
      (ls) => ls.length === 1 && ls[0].status === ListingStatus.Publishing,
      "the first attempt",
    );
    // What the queue runs after the job's last attempt failed.
    const { database, meli } = s.deps;
    const publishing = createPublishingService(
      {
        database,
        jobs: s.deps.jobs,
        meli,
        log: s.deps.log,
        secrets: s.deps.secrets,
        gtin: createGtinService(),
        callLog: createMeliLogService(),
        feesMoved: async () => undefined,
      },
      createPlanner(s.deps.secrets, createFreightService({ database, meli })),
    );
    await publishing.failPublishJob({ tenantId: A.tenantId, batchId, productId: p }, new Error("美客多暂时不可用"));
    const [failed] = await listingsOf(A, batchId);
    expect(failed).toMatchObject({ status: ListingStatus.Failed, itemId: null });
    expect(failed.reason).toBe("多次重试后仍未刊登成功：美客多暂时不可用");
    expect(await batchOf(A, batchId)).toMatchObject({ success: 0, fail: 1, status: PublishBatchStatus.Failed });

    // The attempt still running here (in production the last one has ended) fails on; until no creation has been
    // tried for 3 s. Then attempts the queue had scheduled find nothing waiting and change nothing.
    const creations = () => s.deps.sandbox!.control.callCount("POST /items");
    for (let seen = -1; seen !== creations();) {
      seen = creations();
      await new Promise((r) => setTimeout(r, 3000));
    }
    s.deps.sandbox!.control.clearInjections();
    await new Promise((r) => setTimeout(r, 3000));
    expect((await listingsOf(A, batchId))[0]).toMatchObject({ status: ListingStatus.Failed });
    expect(itemsFor(failed.id)).toEqual([]);

    const again = await retry(A, { batchId }, `retry-${failed.id}`);
    expect(again.status, again.raw).toBe(200);
    const [published] = await settled(A, batchId, "retried publish");
    expect(published).toMatchObject({ status: ListingStatus.Active, reason: null });
    expect(itemsFor(failed.id).map((i) => i.id)).toEqual([published.itemId]);
  });
});

describe("RetryPublish of a global item's refused site", () => {
  it("adds the site to the global item the first attempt created, and creates no second global item", async () => {
    await syncCategories(s, [5]);
    const C = await s.createTenant();
    const page = await connectShop(s, C.token, { nickname: "RETRYGLOBAL", site: "CBT", marketplaces: ["MLM", "MLB", "MCO"] });
    expect(page.ok, page.message).toBe(true);
    const group = await shopGroupOf(s, C);
    const cbtLeaf = plainLeaf(s.deps.sandbox!, "CBT");
    const attrs = requiredAttributes(cbtLeaf)
      .filter((a) => !a.id.startsWith("PACKAGE_"))
      .map((a) => ({
        id: a.id,
        valueId: (a as { value_id?: string }).value_id ?? null,
        valueName: (a as { value_name?: string }).value_name ?? null,
      }));
    await s.api("POST", "/api/MeliCode/SetCodes", { token: C.token, body: { codes: ean13s(4, 750300000100) } });
    const p = await createProduct(C, {
      title: { en: "Ceramic mug", es: "Taza de cerámica", pt: "Caneca de cerâmica" },
      price: 100,
      currency: "CNY",
      weight: 450,
      size: "20x15x10",
      images: ["https://img.example.com/mug.jpg"],
    });
    // The seller lost Colombia after the shop was connected, and gets it back before the retry.
    const seller = [...s.deps.sandbox!.store.state.users.values()].find((u) => u.nickname === "RETRYGLOBAL")!;
    const all = seller.marketplaces;
    seller.marketplaces = all.filter((m) => m.siteId !== "MCO");
    const res = await s.api("POST", "/api/MeliStatNew/Publish", {
      token: C.token,
      body: { accountGroupId: group, sites: [1, 2, 4], productIds: [p], cateInfo: [{ site: 5, cateId: cbtLeaf.id, attrs }] },
    });
    expect(res.status, res.raw).toBe(200);
    const batchId = res.body.result.id;
    const first = await settled(C, batchId, "global publish");
    const co = first.find((l) => l.site === 4)!;
    const mx = first.find((l) => l.site === 1)!;
    expect(co).toMatchObject({ status: ListingStatus.Refused, cbtId: mx.cbtId });
    const globals = s.deps.sandbox!.control.callCount("POST /global/items");

    seller.marketplaces = all;
    const again = await retry(C, { batchId });
    expect(again.status, again.raw).toBe(200);
    const done = await settled(C, batchId, "global retry");
    const co2 = done.find((l) => l.site === 4)!;
    expect(co2).toMatchObject({ status: ListingStatus.Active, cbtId: mx.cbtId, reason: null });
    expect(co2.itemId).toMatch(/^MCO/);
    expect(done.find((l) => l.site === 1)).toEqual(mx);
    expect(s.deps.sandbox!.control.callCount("POST /global/items")).toBe(globals);
    const parents = [...s.deps.sandbox!.store.state.items.values()].filter((i) => i.id.startsWith("CBT") && i.title === "Ceramic mug");
    expect(parents.map((i) => i.id)).toEqual([mx.cbtId]);
    expect(await batchOf(C, batchId)).toMatchObject({ total: 3, success: 3, fail: 0, status: PublishBatchStatus.Succeeded });
    expect(s.deps.sandbox!.control.duplicates()).toEqual([]);
  });
});
