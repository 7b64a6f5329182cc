// Issue 28: a product follows its listings. Published through the sandbox it becomes 已发布 (the product list's status
// filter finds it there); its only listing closed and deleted on Mercado Libre (DeleteMarket) or its record removed
// (RemoveStat), it goes back to 待发布; a sync reading it closed or active on Mercado Libre moves it too. An archived
// product stays archived, and the update never reaches another tenant's product.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { connectPublishingShop, createProductAs, ean13s, requestAttrs, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus, ProductStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { productsFollowListings } from "./listing-status.ts";
import { inScope } from "../../db/scope.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let groupA: string;

const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");
const stat = (name: string, body: unknown) => s.api("POST", `/api/MeliStat/${name}`, { token: A.token, body });

async function productStatus(t: TestTenant, id: string): Promise<number> {
  const res = await s.api("GET", "/api/Product/GetProductById", { token: t.token, query: { id } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.status;
}

/** The seller's own choice of status (BatchUpdateProductStatus). */
async function chooseStatus(t: TestTenant, id: string, status: number) {
  const res = await s.api("POST", "/api/Product/BatchUpdateProductStatus", { token: t.token, body: { ids: [id], status } });
  expect(res.status, res.raw).toBe(200);
}

/** The ids the product list's status filter answers. */
async function listedWith(status: number): Promise<string[]> {
  const res = await s.api("POST", "/api/Product/GetProductsByPage", { token: A.token, body: { status, maxResultCount: 100 } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.items.map((p: { id: string }) => p.id);
}

const lamp = (i: number) => ({
  title: { es: `Lámpara de escritorio LED ${i}` },
  price: 120 + i,
  currency: "CNY",
  sku: `FOLLOW-${i}`,
  stock: 5,
  weight: 300,
  size: "20x15x10",
  images: [`https://img.example.com/follow-${i}.jpg`],
});

/** Publishes the products to MLM and answers their listings once the batch has finished. */
async function publish(
  productIds: string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; productId: string; itemId: string; status: number }[]> {
  const res = await s.api("POST", "/api/MeliStatNew/Publish", {
    token: A.token,
    body: {
      accountGroupId: groupA,
      sites: [1],
      productIds,
      cateInfo: [{ site: 1, cateId: leaf().id, attrs: requestAttrs(leaf()) }],
      ...extra,
    },
  });
  expect(res.status, res.raw).toBe(200);
  const batchId = res.body.result.id;
  await until(
    async () =>
      (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: A.token, body: {} })).body.result.items.find(
        (b: { id: string }) => b.id === batchId,
      ),
    (b) => b.status !== PublishBatchStatus.Queued && b.status !== PublishBatchStatus.Running,
    "publish batch",
  );
  return (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } })).body.result.items;
}

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  await syncCategories(s, [1]);
  groupA = await connectPublishingShop(s, A, { nickname: "FOLLOWSELLER", site: "MLM", sites: [1] }, ean13s(6, 750300000000));
}, 240_000);
afterAll(() => s?.close());

describe("a product follows its listings", () => {
  it("published: 已发布; its only listing closed and deleted (DeleteMarket): back to 待发布", async () => {
    const id = await createProductAs(s, A, lamp(1));
    await chooseStatus(A, id, ProductStatus.Ready);
    expect(await productStatus(A, id)).toBe(ProductStatus.Ready);

    const [listing] = await publish([id]);
    expect(listing.status, JSON.stringify(listing)).toBe(ListingStatus.Active);
    expect(await productStatus(A, id)).toBe(ProductStatus.Published);
    expect(await listedWith(ProductStatus.Published)).toContain(id);
    expect(await listedWith(ProductStatus.Ready)).not.toContain(id);

    const del = await stat("DeleteMarket", { id: listing.id });
    expect(del.body.result, del.raw).toMatchObject({ outcome: "done", listing: { status: ListingStatus.Closed } });
    expect(await productStatus(A, id)).toBe(ProductStatus.Ready);
    expect(await listedWith(ProductStatus.Published)).not.toContain(id);
  });

  it("with two listings it stays 已发布 until the last live one goes (RemoveStat removes the record)", async () => {
    const id = await createProductAs(s, A, lamp(2));
    const [first] = await publish([id]);
    // A second live copy on the same shop and site only when asked for (issue 29).
    const [second] = await publish([id], { isAllowDuplicate: true });
    expect([first.status, second.status]).toEqual([ListingStatus.Active, ListingStatus.Active]);
    expect(await productStatus(A, id)).toBe(ProductStatus.Published);

    expect((await stat("RemoveStat", { id: first.id })).body.result).toEqual({ removed: 1 });
    expect(await productStatus(A, id)).toBe(ProductStatus.Published);
    expect((await stat("RemoveStat", { id: second.id })).body.result).toEqual({ removed: 1 });
    expect(await productStatus(A, id)).toBe(ProductStatus.Ready);
  });

  it("closed on Mercado Libre and read by a sync: back to 待发布; reactivated there: 已发布 again", async () => {
    const id = await createProductAs(s, A, lamp(5));
    const [listing] = await publish([id]);
    expect(await productStatus(A, id)).toBe(ProductStatus.Published);
    const item = s.deps.sandbox!.store.state.items.get(listing.itemId)!;

    item.status = "closed";
    const closed = await stat("SyncMelistat", { id: listing.id });
    expect(closed.body.result, closed.raw).toMatchObject({ status: ListingStatus.Closed });
    expect(await productStatus(A, id)).toBe(ProductStatus.Ready);

    item.status = "active";
    const active = await stat("SyncMelistat", { id: listing.id });
    expect(active.body.result, active.raw).toMatchObject({ status: ListingStatus.Active });
    expect(await productStatus(A, id)).toBe(ProductStatus.Published);
  });

  it("an archived product stays archived; the update is scoped to the tenant", async () => {
    const archived = await createProductAs(s, A, lamp(3));
    await chooseStatus(A, archived, ProductStatus.Archived);
    await publish([archived]);
    expect(await productStatus(A, archived)).toBe(ProductStatus.Archived);

    // B's product, named with A's tenant, is not A's row: nothing changes for B.
    const other = await createProductAs(s, B, lamp(4));
    await chooseStatus(B, other, ProductStatus.Published);
    await inScope(s.database.db, { tenantId: A.tenantId }, (tx) => productsFollowListings(tx, A.tenantId, [other]));
    expect(await productStatus(B, other)).toBe(ProductStatus.Published);
    // In B's own scope, with no live listing, it follows: back to 待发布.
    await inScope(s.database.db, { tenantId: B.tenantId }, (tx) => productsFollowListings(tx, B.tenantId, [other]));
    expect(await productStatus(B, other)).toBe(ProductStatus.Ready);
  });
});
