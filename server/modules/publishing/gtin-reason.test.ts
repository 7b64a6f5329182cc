// A seller without GTIN codes publishes to a category whose GTIN is conditional_required (the sandbox's local leaves)
// by saying why the product has none (EMPTY_GTIN_REASON, identificadores-de-productos.md): through the real HTTP stack
// and the sandbox, with an empty pool the pre-flight skips the product and names both fixes; with a reason the item is
// created without GTIN, carries the reason, and no code is taken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plainLeaf } from "../../testing/sandbox-kit.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectPublishingShop, createProductAs, requestAttrs, syncCategories, until } from "../../testing/publish-kit.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";

let s: TestServer;
let A: TestTenant;
let group: string;

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  await syncCategories(s, [1]);
  group = await connectPublishingShop(s, A, { nickname: "GTINREASONSELLER", site: "MLM", sites: [1] }, []);
}, 180_000);
afterAll(() => s?.close());

const leaf = () => plainLeaf(s.deps.sandbox!, "MLM");

/** Publishes one new product with the leaf's required attributes and `extra`; answers its listing once the batch ends. */
async function publishWith(extra: { id: string; valueId: string | null; valueName: string | null }[]) {
  const product = await createProductAs(s, A, {
    title: { es: "Lámpara de escritorio LED recargable" },
    price: 100,
    currency: "CNY",
    stock: 3,
    weight: 450,
    size: "20x15x10",
    images: ["https://img.example.com/lamp-1.jpg"],
  });
  const res = await s.api("POST", "/api/MeliStatNew/Publish", {
    token: A.token,
    body: {
      accountGroupId: group,
      sites: [1],
      productIds: [product],
      cateInfo: [{ site: 1, cateId: leaf().id, attrs: [...requestAttrs(leaf()), ...extra] }],
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
  const rows = (await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", { token: A.token, body: { batchId } })).body.result.items;
  return rows[0];
}

describe("publishing without GTIN codes", () => {
  it("the sandbox leaf asks GTIN only conditionally, and takes the documented reason", () => {
    const gtin = leaf().attributes.find((a) => a.id === "GTIN")!;
    expect(gtin.tags.conditional_required).toBe(true);
    expect(
      leaf()
        .attributes.find((a) => a.id === "EMPTY_GTIN_REASON")
        ?.values?.map((v) => v.id),
    ).toContain("17055160");
  });

  it("skips the product with an empty pool and no reason, naming the pool and the reason", async () => {
    const listing = await publishWith([]);
    expect(listing).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    expect(listing.problems).toContainEqual(
      expect.objectContaining({ code: "gtin.shortage", field: "attributes.EMPTY_GTIN_REASON", fix: "gtin", severity: "error" }),
    );
    expect(listing.reason).toContain("GTIN码池已空");
  });

  it("publishes with EMPTY_GTIN_REASON: the item has no GTIN, carries the reason, and the pool is untouched", async () => {
    const listing = await publishWith([{ id: "EMPTY_GTIN_REASON", valueId: "17055160", valueName: null }]);
    expect(listing, JSON.stringify(listing)).toMatchObject({ status: ListingStatus.Active });
    const item = s.deps.sandbox!.store.state.items.get(listing.itemId)!;
    expect(item.attributes.find((a: { id: string }) => a.id === "GTIN")).toBeUndefined();
    expect(item.attributes.find((a: { id: string }) => a.id === "EMPTY_GTIN_REASON")).toMatchObject({ value_id: "17055160" });
    expect((await s.api("GET", "/api/MeliCode/GetCodeCnt", { token: A.token })).body.result).toEqual({ unused: 0, used: 0, total: 0 });
  });
});
