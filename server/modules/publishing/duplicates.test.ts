// Issue 29 (found from outside): ten publishes of one product to one shop and site, each with its own Idempotency-Key
// (a double click, two tabs), made ten live items. Now one item is made, the other publishes skip the pair with the
// reason and say so; a copy is made only when the request asks for it (isAllowDuplicate), and the pre-flight names the
// products already listed. A selection larger than a batch takes is cut with a notice, not silently.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inScope } from "../../db/scope.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { PUBLISH_MAX_PRODUCTS } from "./constants.ts";

let s: TestServer;
let A: TestTenant;
let group: string;

const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  await syncCategories(s, [1]);
  group = await connectPublishingShop(s, A, { nickname: "DUPLICATESELLER", site: "MLM", sites: [1] }, ean13s(8, 750300000000));
}, 180_000);
afterAll(() => s?.close());

const request = (productIds: string[], extra: Record<string, unknown> = {}) => ({
  accountGroupId: group,
  sites: [1],
  productIds,
  cateInfo: [{ site: 1, cateId: leaf().id, attrs: requestAttrs(leaf()) }],
  ...extra,
});
const publish = (body: Record<string, unknown>) =>
  s.api("POST", "/api/MeliStatNew/Publish", { token: A.token, body, headers: { "idempotency-key": randomUUID() } });
const listingsOf = async (batchId: string) =>
  (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } })).body.result.items as {
    productId: string;
    status: number;
    itemId: string | null;
    reason: string | null;
  }[];
const settled = (batchId: string) =>
  until(
    async () =>
      (
        await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: { maxResultCount: 100 } })
      ).body.result.items.find((b: { id: string }) => b.id === batchId),
    (b) => b.status !== PublishBatchStatus.Queued && b.status !== PublishBatchStatus.Running,
    "publish batch",
  );
const itemsTitled = (title: string) => [...s.deps.sandbox!.store.state.items.values()].filter((i) => i.title === title);

const product = (title: string) =>
  createProductAs(s, A, {
    title: { es: title },
    price: 100,
    currency: "CNY",
    sku: `DUP-${randomUUID().slice(0, 8)}`,
    stock: 3,
    weight: 450,
    size: "20x15x10",
    images: ["https://img.example.com/dup-1.jpg"],
  });

describe("one listing per product, shop and site", () => {
  it("ten publishes at once of the same product make one item; the others skip it and say why", async () => {
    const title = "Lámpara duplicada de escritorio";
    const id = await product(title);
    const answers = await Promise.all(Array.from({ length: 10 }, () => publish(request([id]))));
    for (const a of answers) expect(a.status, a.raw).toBe(200);
    const batches = await Promise.all(answers.map((a) => settled(a.body.result.id)));
    const rows = (await Promise.all(batches.map((b) => listingsOf(b.id)))).flat();
    expect(rows).toHaveLength(10);
    const live = rows.filter((r) => r.status === ListingStatus.Active);
    expect(live).toHaveLength(1);
    expect(itemsTitled(title)).toHaveLength(1);
    const skipped = rows.filter((r) => r.status === ListingStatus.Skipped);
    expect(skipped).toHaveLength(9);
    for (const r of skipped) expect(r.reason).toMatch(/该商品(已在此店铺站点刊登|正在此店铺站点刊登中)/);
    // Each refused publish says so in its answer and ends as no plain success.
    const refusedAnswers = answers.filter((a) => a.body.result.alreadyListed === 1);
    expect(refusedAnswers).toHaveLength(9);
    for (const a of refusedAnswers) expect(a.body.result.notice).toContain("允许重复刊登");
    expect(batches.filter((b) => b.status === PublishBatchStatus.Succeeded)).toHaveLength(1);
  }, 120_000);

  it("a later publish skips a product already live, naming its item; the pre-flight lists it; a copy is made only when asked", async () => {
    const title = "Taza duplicada de cerámica";
    const id = await product(title);
    const first = await publish(request([id]));
    expect(first.body.result).toMatchObject({ alreadyListed: 0, notice: null, selected: 1, taken: 1 });
    const [live] = (await listingsOf((await settled(first.body.result.id)).id)).filter((r) => r.status === ListingStatus.Active);
    expect(live.itemId).toBeTruthy();

    const pre = await s.api("POST", "/api/MeliStatNew/PreflightPublish", { token: A.token, body: request([id]) });
    expect(pre.status, pre.raw).toBe(200);
    expect(pre.body.result).toMatchObject({ alreadyListed: 1, ok: 0 });
    expect(pre.body.result.pairs[0].problems).toContainEqual(
      expect.objectContaining({ code: "duplicate", severity: "error", message: expect.stringContaining(live.itemId!) }),
    );

    const again = await publish(request([id]));
    expect(again.body.result).toMatchObject({ alreadyListed: 1, skipped: 1, status: PublishBatchStatus.Failed });
    const [skipped] = await listingsOf(again.body.result.id);
    expect(skipped).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    expect(skipped.reason).toContain(`该商品已在此店铺站点刊登（${live.itemId}）`);
    // RetryPublish does not send it either while the item is live.
    const retry = await s.api("POST", "/api/MeliStatNew/RetryPublish", { token: A.token, body: { batchId: again.body.result.id } });
    expect(retry.status).toBe(403);
    expect(retry.body.error.message).toContain("已在此店铺站点刊登");

    const copyPre = await s.api("POST", "/api/MeliStatNew/PreflightPublish", {
      token: A.token,
      body: request([id], { isAllowDuplicate: true }),
    });
    expect(copyPre.body.result).toMatchObject({ alreadyListed: 1, ok: 1 });
    const copy = await publish(request([id], { isAllowDuplicate: true }));
    expect(copy.body.result).toMatchObject({ alreadyListed: 0, notice: null });
    await settled(copy.body.result.id);
    expect(itemsTitled(title)).toHaveLength(2);
  }, 120_000);
});

describe("a selection over the batch maximum", () => {
  it(`says that it took ${PUBLISH_MAX_PRODUCTS} of ${PUBLISH_MAX_PRODUCTS + 1} products`, async () => {
    const t = await s.createTenant();
    const tGroup = await connectPublishingShop(s, t, { nickname: "CAPSELLER", site: "MLM", sites: [1] }, []);
    // Products without a price: every pair is skipped by the pre-flight, nothing is sent.
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.execute(`insert into products (tenant_id, id, user_id, status, title)
        select '${t.tenantId}', gen_random_uuid(), '${t.userId}', 1, jsonb_build_object('es', 'cap ' || g)
        from generate_series(1, ${PUBLISH_MAX_PRODUCTS + 1}) g`),
    );
    const res = await s.api("POST", "/api/MeliStatNew/Publish", {
      token: t.token,
      body: { accountGroupId: tGroup, sites: [1], filter: {} },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ selected: PUBLISH_MAX_PRODUCTS + 1, taken: PUBLISH_MAX_PRODUCTS, total: PUBLISH_MAX_PRODUCTS });
    expect(res.body.result.notice).toContain(`超过单批上限 ${PUBLISH_MAX_PRODUCTS} 个`);
  }, 180_000);
});
