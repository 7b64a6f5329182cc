// Category mapping through HTTP: a collected item keeps its source category into the product; the seller's pick of a
// category when saving the product is remembered per site and suggested for the next product of that source category;
// the list, change and delete calls; another tenant sees and changes nothing.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { collectedItem } from "../../testing/product-kit.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;

const DRESSES = { id: "MLMTEST1", name: "Vestidos", full: "Ropa > Ropa para Mujer > Vestidos" };
const BLOUSES = { id: "MLMTEST2", name: "Blusas", full: "Ropa > Ropa para Mujer > Blusas" };

/** A 1688 item as the extension sends it, with its source category when given. */
const item = (itemId: string, sourceCategory: Record<string, string> | null) => ({
  ...collectedItem(itemId, `女装连衣裙 ${itemId}`),
  ...(sourceCategory ? { sourceCategory } : {}),
});

/** Collects an item and moves it into products; answers the product id. */
async function collectedProduct(t: TestTenant, itemId: string, sourceCategory: Record<string, string> | null) {
  const body = item(itemId, sourceCategory);
  const c = await s.api("POST", "/api/Collect/CrawlProductByPlugin", { token: t.token, body });
  expect(c.status, c.raw).toBe(200);
  const m = await s.api("POST", "/api/Collect/MigratToProduct", { token: t.token, body: { ids: [c.body.result.id] } });
  expect(m.status, m.raw).toBe(200);
  return m.body.result.productIds[0] as string;
}

const save = (t: TestTenant, id: string, cateId: string) =>
  s.api("POST", "/api/Product/CreateOrUpdateProduct", { token: t.token, body: { id, cateInfo: { cateId, site: 1, attrs: [] } } });
const suggested = (t: TestTenant, productId: string, site = 1) =>
  s.api("GET", "/api/CategoryMapping/GetSuggestedCategory", { token: t.token, query: { site, productId } });
const list = (t: TestTenant, query: Record<string, string | number> = {}) =>
  s.api("GET", "/api/CategoryMapping/GetCategoryMappings", { token: t.token, query });

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  // Two choosable leaves of Mexico (platform data, written as the host's sync would).
  await inScope(s.database.db, hostAllScope, async (tx) => {
    for (const [i, c] of [DRESSES, BLOUSES].entries()) {
      await tx.execute(sql`insert into meli_categories (site, cate_id, level, name, is_leaf, full_name, path_name, sort,
          listing_allowed, meli_status, zh, full_zh)
        values (1, ${c.id}, 3, ${c.name}, true, ${c.full}, ${c.full}, ${i}, true, 'enabled', ${i ? "女士衬衫" : "连衣裙"},
          ${i ? "服装 > 女装 > 女士衬衫" : "服装 > 女装 > 连衣裙"})`);
    }
  });
}, 120_000);
afterAll(() => s?.close());

describe("category mapping", () => {
  it("remembers the pick for the source category and suggests it for the next product of that category", async () => {
    const first = await collectedProduct(A, "cm1", { id: "1031910", path: "女装 > 连衣裙" });
    const next = await collectedProduct(A, "cm2", { id: "1031910" });
    const other = await collectedProduct(A, "cm3", null);
    expect((await suggested(A, next)).body.result).toBeNull();

    expect((await save(A, first, DRESSES.id)).status).toBe(200);
    const hint = await suggested(A, next);
    expect(hint.status, hint.raw).toBe(200);
    expect(hint.body.result).toMatchObject({
      platformType: 1,
      sourceKey: "1031910",
      sourcePath: "女装 > 连衣裙",
      site: 1,
      cateId: DRESSES.id,
      categoryName: DRESSES.full,
      fullZh: "服装 > 女装 > 连衣裙",
      useCount: 1,
    });
    // Per site; a product without a source category has no suggestion.
    expect((await suggested(A, next, 2)).body.result).toBeNull();
    expect((await suggested(A, other)).body.result).toBeNull();

    // Taking the suggestion counts; a different pick replaces it.
    await save(A, next, DRESSES.id);
    expect((await suggested(A, first)).body.result).toMatchObject({ cateId: DRESSES.id, useCount: 2 });
    await save(A, first, BLOUSES.id);
    expect((await suggested(A, next)).body.result).toMatchObject({ cateId: BLOUSES.id, useCount: 1 });
    // Saving a product without a source category remembers nothing.
    await save(A, other, DRESSES.id);
    expect((await list(A)).body.result.totalCount).toBe(1);
  });

  it("lists, searches, changes and deletes the mappings", async () => {
    const page = await list(A, { Filter: "连衣裙" });
    expect(page.status, page.raw).toBe(200);
    expect(page.body.result.items).toHaveLength(1);
    const m = page.body.result.items[0];
    expect((await list(A, { Filter: "没有这个" })).body.result.totalCount).toBe(0);
    expect((await list(A, { Site: 2 })).body.result.totalCount).toBe(0);

    const changed = await s.api("PUT", "/api/CategoryMapping/UpdateCategoryMapping", {
      token: A.token,
      body: { id: m.id, cateId: DRESSES.id },
    });
    expect(changed.status, changed.raw).toBe(200);
    expect(changed.body.result).toMatchObject({ cateId: DRESSES.id, categoryName: DRESSES.full, useCount: 1 });
    const unknown = await s.api("PUT", "/api/CategoryMapping/UpdateCategoryMapping", {
      token: A.token,
      body: { id: m.id, cateId: "MLM999999" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe("该站点没有这个类目");

    const gone = await s.api("DELETE", "/api/CategoryMapping/DeleteCategoryMapping", { token: A.token, query: { id: m.id } });
    expect(gone.status, gone.raw).toBe(200);
    expect((await list(A)).body.result.totalCount).toBe(0);
    const again = await s.api("DELETE", "/api/CategoryMapping/DeleteCategoryMapping", { token: A.token, query: { id: m.id } });
    expect(again.status).toBe(404);
  });

  it("gives another tenant nothing", async () => {
    const p = await collectedProduct(A, "cm4", { id: "777" });
    await save(A, p, DRESSES.id);
    const [m] = (await list(A)).body.result.items;
    expect((await list(B)).body.result).toEqual({ items: [], totalCount: 0 });
    expect((await suggested(B, p)).status).toBe(404);
    const change = await s.api("PUT", "/api/CategoryMapping/UpdateCategoryMapping", {
      token: B.token,
      body: { id: m.id, cateId: BLOUSES.id },
    });
    expect(change.status).toBe(404);
    const del = await s.api("DELETE", "/api/CategoryMapping/DeleteCategoryMapping", { token: B.token, query: { id: m.id } });
    expect(del.status).toBe(404);
    // B's product of the same source category gets no suggestion from A's pick.
    const mine = await collectedProduct(B, "cm5", { id: "777" });
    expect((await suggested(B, mine)).body.result).toBeNull();
    expect((await list(A)).body.result.items[0]).toMatchObject({ id: m.id, cateId: DRESSES.id });
  });
});
