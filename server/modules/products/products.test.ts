// The product list, detail and editor through the real HTTP stack: every filter of the list against rows inserted
// with known values, paging and sorting, the capped count, the editor's save (create, edit, the variant grid, the
// concurrency stamp), price and attribute edits, copy, the productCount limit, bad input answered 400 with nothing
// changed, and who sees what (sub-accounts their own, other tenants nothing, the host a tenant's list on request).
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productCounts, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { PRODUCT_COUNT_CAP, productListItem } from "#shared/contract/product.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;
let sub: { id: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
  sub = await s.createSubUser(a);
});
afterAll(() => s?.close());

const P = "/api/Product";
type Row = Partial<typeof products.$inferInsert>;

/** Inserts products straight into the table (one statement), answering their ids in order. */
async function insertProducts(t: { tenantId: string }, owner: string, rows: Row[]): Promise<string[]> {
  const values = rows.map((r, i) => ({
    tenantId: t.tenantId,
    id: randomUUID(),
    userId: owner,
    title: { zh: `商品 ${i}` },
    creationTime: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    ...r,
  }));
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.insert(products).values(values));
  return values.map((v) => v.id);
}

async function list(token: string, body: Record<string, unknown> = {}) {
  const res = await s.api("POST", `${P}/GetProductsByPage`, { token, body: { maxResultCount: 1000, ...body } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { items: { id: string; [k: string]: unknown }[]; totalCount: number; totalCountCapped: boolean };
}

describe("GetProductsByPage filters", () => {
  let t: TestTenant;
  let ids: string[];
  let labelId: string;
  beforeAll(async () => {
    t = await s.createTenant();
    labelId = randomUUID();
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.execute(`insert into product_labels (tenant_id, id, name) values ('${t.tenantId}', '${labelId}', '爆款')`),
    );
    ids = await insertProducts(t, t.userId, [
      {
        title: { zh: "红色 手机壳", es: "Funda de teléfono roja" },
        price: "10.00",
        weight: "50.00",
        status: 1,
        platformType: 1,
        currency: "CNY",
      },
      { title: { en: "Winter Coat" }, price: "99.50", weight: "1200.00", status: 2, platformType: 2, currency: "USD", sku: "SKU-2" },
      { title: { zh: "蓝色 手机壳" }, price: "12.00", weight: "55.00", status: 2, labelId, country: "CN", itemId: "offer-3" },
      { title: { pt: "Sapato" }, price: null, weight: null, status: 4, infringementWord: "Nike", site: 1, cateId: "MLM1055" },
      { title: { zh: "已删除" }, isDeleted: true },
    ]);
  });

  const found = async (body: Record<string, unknown>) => (await list(t.token, body)).items.map((i) => i.id).sort();
  const pick = (...n: number[]) => n.map((i) => ids[i]).sort();

  it("lists the live products newest first with owner and label names", async () => {
    const r = await list(t.token);
    expect(r.totalCount).toBe(4);
    expect(r.totalCountCapped).toBe(false);
    expect(r.items.map((i) => i.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    const third = r.items.find((i) => i.id === ids[2])!;
    expect(third).toMatchObject({ labelId, labelName: "爆款", owner: t.userName, titleText: "蓝色 手机壳", price: "12.00", logs: [] });
    expect(r.items.find((i) => i.id === ids[0])!.titleText).toBe("红色 手机壳");
  });

  it("filters by each field", async () => {
    expect(await found({ title: "手机壳" })).toEqual(pick(0, 2));
    expect(await found({ title: "FUNDA" })).toEqual(pick(0));
    expect(await found({ title: "100%_" })).toEqual([]);
    expect(await found({ status: 2 })).toEqual(pick(1, 2));
    expect(await found({ platformType: 1 })).toEqual(pick(0));
    expect(await found({ labelId })).toEqual(pick(2));
    expect(await found({ currrency: "usd" })).toEqual(pick(1));
    expect(await found({ minPrice: 11, maxPrice: 99.5 })).toEqual(pick(1, 2));
    expect(await found({ minWeight: 52 })).toEqual(pick(1, 2));
    expect(await found({ maxWeight: 52 })).toEqual(pick(0));
    expect(await found({ sku: "SKU-2" })).toEqual(pick(1));
    expect(await found({ sourceIds: ["offer-3", "nope"] })).toEqual(pick(2));
    expect(await found({ country: "cn" })).toEqual(pick(2));
    expect(await found({ site: 1, cateId: "MLM1055" })).toEqual(pick(3));
    expect(await found({ hasInfringement: true })).toEqual(pick(3));
    expect(await found({ hasInfringement: false })).toEqual(pick(0, 1, 2));
    expect(await found({ ids: [ids[0], ids[4], randomUUID()] })).toEqual(pick(0));
    expect(await found({ userId: t.userId })).toEqual(pick(0, 1, 2, 3));
    expect(await found({ userId: randomUUID() })).toEqual([]);
    expect(await found({ startTime: "2026-01-01T00:01:00Z", endTime: "2026-01-01T00:03:00Z" })).toEqual(pick(1, 2));
  });

  it("sorts and pages without overlap", async () => {
    const byPrice = (await list(t.token, { sorting: "price desc" })).items.map((i) => i.price);
    expect(byPrice.slice(0, 3)).toEqual(["99.50", "12.00", "10.00"]);
    const pages = [];
    for (let skip = 0; skip < 4; skip += 3)
      pages.push(...(await list(t.token, { skipCount: skip, maxResultCount: 3 })).items.map((i) => i.id));
    expect(pages).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    const past = await list(t.token, { skipCount: 10 });
    expect(past).toEqual({ items: [], totalCount: 4, totalCountCapped: false });
  });

  it("sorts products without a value last in either direction", async () => {
    const order = async (sorting: string) => (await list(t.token, { sorting })).items.map((i) => i.id);
    expect(await order("price desc")).toEqual([ids[1], ids[2], ids[0], ids[3]]);
    expect(await order("price asc")).toEqual([ids[0], ids[2], ids[1], ids[3]]);
    expect(await order("weight desc")).toEqual([ids[1], ids[2], ids[0], ids[3]]);
    expect(await order("creationTime asc")).toEqual([ids[0], ids[1], ids[2], ids[3]]);
    // Equal values in the id's order, the sort's direction.
    const [first, second] = [ids[1], ids[2]].sort().reverse();
    expect(await order("STATUS desc")).toEqual([ids[3], first, second, ids[0]]);
  });

  it("answers each row as the detail shows the product (the row PostgreSQL builds is the list item)", async () => {
    const r = await list(t.token);
    const details = await s.api("POST", `${P}/GetProductByIds`, { token: t.token, body: r.items.map((i) => i.id) });
    const keys = Object.keys(productListItem.shape);
    const asListed = (details.body.result as Record<string, unknown>[]).map((d) => Object.fromEntries(keys.map((k) => [k, d[k]])));
    expect(r.items).toEqual(asListed);
    expect(r.items.find((i) => i.id === ids[3])).toMatchObject({ price: null, weight: null, labelName: null, site: 1 });
  });

  it("answers 400 for bad filters and sorting", async () => {
    for (const body of [
      { status: 99 },
      { sorting: "title; drop table products" },
      { minPrice: -1 },
      { labelId: "x" },
      { maxResultCount: 5000 },
      { startTime: "yesterday" },
      { site: 9 },
    ]) {
      const res = await s.api("POST", `${P}/GetProductsByPage`, { token: t.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
  });
});

describe("the count", () => {
  it("caps a broad filter's count and keeps the unfiltered total exact", async () => {
    const t = await s.createTenant();
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.execute(`insert into products (tenant_id, id, user_id, status, title)
        select '${t.tenantId}', gen_random_uuid(), '${t.userId}', 1, jsonb_build_object('es', 'x' || g)
        from generate_series(1, ${PRODUCT_COUNT_CAP + 5}) g`),
    );
    const all = await list(t.token, { maxResultCount: 1 });
    expect(all.totalCount).toBe(PRODUCT_COUNT_CAP + 5);
    expect(all.totalCountCapped).toBe(false);
    const broad = await list(t.token, { maxResultCount: 1, status: 1 });
    expect(broad).toMatchObject({ totalCount: PRODUCT_COUNT_CAP, totalCountCapped: true });
    expect(broad.items).toHaveLength(1);
    const deep = await list(t.token, { maxResultCount: 2, status: 1, skipCount: PRODUCT_COUNT_CAP + 3 });
    expect(deep.items).toHaveLength(2);
    // A title word in more products than the cap: the page walks the order (the same as without the word), the
    // count is capped; one in a few: only those, sorted, counted exactly, paged without overlap.
    const common = await list(t.token, { maxResultCount: 5, title: "X" });
    expect(common).toMatchObject({ totalCount: PRODUCT_COUNT_CAP, totalCountCapped: true });
    expect(common.items.map((i) => i.id)).toEqual((await list(t.token, { maxResultCount: 5, status: 1 })).items.map((i) => i.id));
    const few = await list(t.token, { title: "x100" });
    expect(few.totalCount).toBe(7);
    expect(few.totalCountCapped).toBe(false);
    expect(few.items.map((i) => i.titleText).sort()).toEqual(["x100", "x1000", "x1001", "x1002", "x1003", "x1004", "x1005"]);
    const paged = [
      ...(await list(t.token, { title: "x100", maxResultCount: 4 })).items,
      ...(await list(t.token, { title: "x100", maxResultCount: 4, skipCount: 4 })).items,
    ];
    expect(paged.map((i) => i.id)).toEqual(few.items.map((i) => i.id));
    const cheapest = await list(t.token, { title: "x100", sorting: "price asc", maxResultCount: 3 });
    expect(cheapest.items).toHaveLength(3);
  });

  it("keeps per-owner counts through inserts, deletes and owner changes", async () => {
    const t = await s.createTenant();
    const other = await s.createSubUser(t);
    const mine = await insertProducts(t, t.userId, [{}, {}, {}]);
    const count = async (userId: string) =>
      (
        await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
          tx.select().from(productCounts).where(eq(productCounts.userId, userId)),
        )
      )[0]?.count ?? 0;
    expect(await count(t.userId)).toBe(3);
    await inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
      await tx.update(products).set({ isDeleted: true }).where(eq(products.id, mine[0]));
      await tx.update(products).set({ userId: other.id }).where(eq(products.id, mine[1]));
      await tx.delete(products).where(eq(products.id, mine[2]));
    });
    expect(await count(t.userId)).toBe(0);
    expect(await count(other.id)).toBe(1);
    expect((await list(other.token)).totalCount).toBe(1);
  });
});

describe("who sees which products", () => {
  let mine: string[];
  let subs: string[];
  let others: string[];
  beforeAll(async () => {
    mine = await insertProducts(a, a.userId, [{ title: { zh: "主账号商品" } }]);
    subs = await insertProducts(a, sub.id, [{ title: { zh: "子账号商品" } }]);
    others = await insertProducts(b, b.userId, [{ title: { zh: "别家的商品" } }]);
  });

  it("a sub-account sees only its own, whatever userId it asks for, and the total counts what is listed", async () => {
    expect(await list(sub.token)).toMatchObject({ items: subs.map((id) => expect.objectContaining({ id })), totalCount: 1 });
    // Another owner's id lists nothing and counts nothing (issue 29: it counted the sub-account's own product).
    expect(await list(sub.token, { userId: a.userId })).toMatchObject({ items: [], totalCount: 0 });
    expect(await list(sub.token, { userId: sub.id })).toMatchObject({ totalCount: 1 });
    const res = await s.api("GET", `${P}/GetProductById`, { token: sub.token, query: { id: mine[0] } });
    expect(res.status).toBe(404);
  });

  it("a sub-account's title search, sort and label filter stay within its own products", async () => {
    expect((await list(sub.token, { title: "商品" })).items.map((i) => i.id)).toEqual(subs);
    expect((await list(sub.token, { title: "商品", sorting: "price desc" })).totalCount).toBe(1);
    expect((await list(sub.token, { sorting: "stock asc" })).items.map((i) => i.id)).toEqual(subs);
    expect((await list(sub.token, { status: 1 })).items.map((i) => i.id)).toEqual(subs);
    expect(await list(sub.token, { title: "主账号" })).toMatchObject({ items: [], totalCount: 0 });
  });

  it("a main account sees its sub-accounts' products and filters by owner", async () => {
    const ids = (await list(a.token)).items.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining([...mine, ...subs]));
    expect((await list(a.token, { userId: sub.id })).items.map((i) => i.id)).toEqual(subs);
  });

  it("another tenant gets nothing: list, detail, ids, edits, copy", async () => {
    expect((await list(b.token)).items.map((i) => i.id)).toEqual(others);
    expect((await list(b.token, { ids: mine })).items).toEqual([]);
    expect((await s.api("GET", `${P}/GetProductById`, { token: b.token, query: { id: mine[0] } })).status).toBe(404);
    const many = await s.api("POST", `${P}/GetProductByIds`, { token: b.token, body: [mine[0], subs[0]] });
    expect(many.body.result).toEqual([]);
    const edit = await s.api("POST", `${P}/CreateOrUpdateProduct`, { token: b.token, body: { id: mine[0], title: { zh: "改" } } });
    expect(edit.status).toBe(404);
    expect((await s.api("POST", `${P}/UpdateProductPrice`, { token: b.token, body: { productId: mine[0], price: 1 } })).status).toBe(404);
    expect((await s.api("POST", `${P}/CopyProduct`, { token: b.token, body: { productIds: mine } })).status).toBe(404);
    expect(await list(b.token, { title: "主账号商品" })).toMatchObject({ items: [], totalCount: 0 });
    expect(await list(a.token, { title: "别家的商品", sorting: "price desc" })).toMatchObject({ items: [], totalCount: 0 });
    // A tenantId in the filter means nothing to a tenant user.
    expect((await list(b.token, { tenantId: a.tenantId })).items.map((i) => i.id)).toEqual(others);
    const detail = await s.api("GET", `${P}/GetProductById`, { token: a.token, query: { id: mine[0] } });
    expect(detail.body.result.title).toEqual({ zh: "主账号商品" });
  });

  it("the host reads a tenant's list by tenantId, and nothing without it", async () => {
    const host = await s.adminToken();
    expect((await list(host)).items).toEqual([]);
    expect((await list(host, { tenantId: b.tenantId })).items.map((i) => i.id)).toEqual(others);
    expect((await list(host, { tenantId: b.tenantId, title: "别家" })).items.map((i) => i.id)).toEqual(others);
    expect((await list(host, { tenantId: b.tenantId })).totalCount).toBe(1);
    const save = await s.api("POST", `${P}/CreateOrUpdateProduct`, { token: host, body: { title: { zh: "x" } } });
    expect(save.status).toBe(403);
  });
});

describe("CreateOrUpdateProduct", () => {
  const save = (token: string, body: unknown) => s.api("POST", `${P}/CreateOrUpdateProduct`, { token, body });

  it("creates a product with variants from the grid and answers it", async () => {
    const res = await save(a.token, {
      title: { zh: "连衣裙", es: "Vestido" },
      description: { es: "<p>Hermoso</p>" },
      sku: "DRESS",
      currency: "usd",
      weight: "350",
      size: "30 X 20 x 5",
      images: ["https://img.example.com/1.jpg", "https://img.example.com/2.jpg"],
      variantModel: {
        headers: [
          { vairantKey: "颜色", vairantValues: ["红", "蓝"] },
          { vairantKey: "尺码", vairantValues: ["S", "M"] },
        ],
        items: [
          { values: ["红", "S"], price: 20, stock: 5 },
          { kvId: "蓝;M", price: 18.5, stock: 2, sku: "DRESS-BM" },
        ],
      },
    });
    expect(res.status, res.raw).toBe(200);
    const p = res.body.result;
    expect(p).toMatchObject({
      titleText: "连衣裙",
      currency: "USD",
      weight: "350.00",
      size: "30x20x5",
      price: "18.50",
      stock: 7,
      status: 1,
      image: "https://img.example.com/1.jpg",
      owner: a.userName,
    });
    expect(p.variantModel.items).toEqual([
      { kvId: "红;S", values: ["红", "S"], price: "20.00", stock: 5, sku: "DRESS-1", images: [] },
      { kvId: "蓝;M", values: ["蓝", "M"], price: "18.50", stock: 2, sku: "DRESS-BM", images: [] },
    ]);
    expect(p.variants[1]).toEqual({
      sku: "DRESS-BM",
      price: "18.50",
      stock: 2,
      images: [],
      variant_Key: ["颜色", "尺码"],
      variant_Values: ["蓝", "M"],
    });
  });

  it("edits one variant's price, keeps the rest, marks the product ready and moves the stamp", async () => {
    const created = (
      await save(a.token, {
        title: { zh: "杯子" },
        variantModel: {
          headers: [{ vairantKey: "颜色", vairantValues: ["白", "黑"] }],
          items: [
            { values: ["白"], price: 5, stock: 1, sku: "W" },
            { values: ["黑"], price: 6, stock: 1, sku: "B" },
          ],
        },
      })
    ).body.result;
    const grid = created.variantModel;
    grid.items[1].price = 7.25;
    const res = await save(a.token, { id: created.id, concurrencyStamp: created.concurrencyStamp, variantModel: grid });
    expect(res.status, res.raw).toBe(200);
    const p = res.body.result;
    expect(p.variantModel.items.map((i: { sku: string; price: string }) => [i.sku, i.price])).toEqual([
      ["W", "5.00"],
      ["B", "7.25"],
    ]);
    expect(p.title).toEqual({ zh: "杯子" });
    expect(p.status).toBe(2);
    expect(p.concurrencyStamp).not.toBe(created.concurrencyStamp);
    // The stamp read before that save is stale now.
    const stale = await save(a.token, { id: created.id, concurrencyStamp: created.concurrencyStamp, title: { zh: "旧" } });
    expect(stale.status).toBe(409);
    expect((await s.api("GET", `${P}/GetProductById`, { token: a.token, query: { id: created.id } })).body.result.title).toEqual({
      zh: "杯子",
    });
  });

  it("keeps the collected option value ids when the grid comes back", async () => {
    const [id] = await insertProducts(a, a.userId, [
      {
        options: [{ name: "Color", values: [{ id: "1627207:28341", name: "Black", image: "https://img.example.com/b.jpg" }] }],
        variants: [{ sku: "5012", optionValues: ["1627207:28341"], price: 12.3, stock: 4, image: "https://img.example.com/b.jpg" }],
      },
    ]);
    const detail = (await s.api("GET", `${P}/GetProductById`, { token: a.token, query: { id } })).body.result;
    expect(detail.variants[0]).toMatchObject({
      sku: "5012",
      price: "12.30",
      variant_Values: ["Black"],
      images: ["https://img.example.com/b.jpg"],
    });
    detail.variantModel.items[0].stock = 9;
    expect((await save(a.token, { id, variantModel: detail.variantModel })).status).toBe(200);
    const [row] = await inScope(s.database.db, { tenantId: a.tenantId }, (tx) => tx.select().from(products).where(eq(products.id, id)));
    expect(row.options).toEqual([
      { name: "Color", values: [{ id: "1627207:28341", name: "Black", image: "https://img.example.com/b.jpg" }] },
    ]);
    expect(row.variants).toEqual([
      { sku: "5012", optionValues: ["1627207:28341"], price: 12.3, stock: 9, images: ["https://img.example.com/b.jpg"] },
    ]);
  });

  it("answers 400 for bad input and changes nothing", async () => {
    const [id] = await insertProducts(a, a.userId, [{ title: { zh: "不变" }, price: "3.00" }]);
    const bad = [
      {},
      { title: { zh: "" } },
      { id, price: -5 },
      { id, weight: "heavy" },
      { id, size: "10x10" },
      { id, currency: "dollars" },
      { id, images: ["javascript:alert(1)"] },
      { id, title: { "not a language": "x" } },
      { id, variantModel: { headers: [{ vairantKey: "色", vairantValues: ["红"] }], items: [{ values: ["绿"] }] } },
      { id, variantModel: { headers: [{ vairantKey: "色", vairantValues: ["红"] }], items: [{ values: ["红"] }, { values: ["红"] }] } },
      { id, cateInfo: { cateId: "MLM1", site: 42 } },
      { id, labelId: randomUUID() },
    ];
    for (const body of bad) {
      const res = await save(a.token, body);
      expect([400, 404], JSON.stringify(body) + res.raw).toContain(res.status);
    }
    const after = (await s.api("GET", `${P}/GetProductById`, { token: a.token, query: { id } })).body.result;
    expect(after).toMatchObject({ title: { zh: "不变" }, price: "3.00", status: 1 });
  });

  it("enforces the owner's productCount limit on create and copy", async () => {
    const t = await s.createTenant();
    const limited = await s.createSubUser(t, undefined, { productCount: 2 });
    const first = await save(limited.token, { title: { zh: "一" } });
    expect(first.status).toBe(200);
    expect((await save(limited.token, { title: { zh: "二" } })).status).toBe(200);
    const third = await save(limited.token, { title: { zh: "三" } });
    expect(third.status).toBe(403);
    expect(third.body.error.message).toContain("上限");
    const copy = await s.api("POST", `${P}/CopyProduct`, { token: limited.token, body: { productIds: [first.body.result.id] } });
    expect(copy.status).toBe(403);
    expect((await list(limited.token)).totalCount).toBe(2);
  });
});

describe("price, attributes and copy", () => {
  it("UpdateProductPrice scales the variants with the product price", async () => {
    const [id] = await insertProducts(a, a.userId, [
      {
        price: "10.00",
        currency: "CNY",
        variants: [
          { sku: "a", optionValues: [], price: 10 },
          { sku: "b", optionValues: [], price: 15 },
          { sku: "c", optionValues: [] },
        ],
      },
    ]);
    const res = await s.api("POST", `${P}/UpdateProductPrice`, { token: a.token, body: { productId: id, price: 20, cur: "usd" } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ price: "20.00", currency: "USD" });
    expect(res.body.result.variants.map((v: { price: string | null }) => v.price)).toEqual(["20.00", "30.00", null]);
    expect((await s.api("POST", `${P}/UpdateProductPrice`, { token: a.token, body: { productId: id, price: "abc" } })).status).toBe(400);
  });

  it("UpdateProductAttr sets the category attributes, and needs a category", async () => {
    const [withCate, without] = await insertProducts(a, a.userId, [
      { cateInfo: { cateId: "MLM1", site: 1, attrs: [] }, cateId: "MLM1", site: 1 },
      {},
    ]);
    const attrs = [{ nameId: "BRAND", name: "Marca", valueId: null, value: "Genérica" }];
    const res = await s.api("POST", `${P}/UpdateProductAttr`, { token: a.token, body: { productId: withCate, attrs } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.cateInfo).toEqual({ cateId: "MLM1", site: 1, attrs });
    expect((await s.api("POST", `${P}/UpdateProductAttr`, { token: a.token, body: { productId: without, attrs } })).status).toBe(400);
  });

  it("CopyProduct makes unedited copies owned by the caller", async () => {
    const [id] = await insertProducts(a, sub.id, [
      { title: { es: "Original" }, price: "8.00", status: 3, variants: [{ sku: "v", optionValues: [], price: 8 }] },
    ]);
    const res = await s.api("POST", `${P}/CopyProduct`, { token: a.token, body: { productIds: [id, id] } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.count).toBe(1);
    const copy = (await s.api("GET", `${P}/GetProductById`, { token: a.token, query: { id: res.body.result.productIds[0] } })).body.result;
    expect(copy).toMatchObject({ title: { es: "Original" }, price: "8.00", status: 1, userId: a.userId });
    expect(copy.variants).toHaveLength(1);
    expect(copy.id).not.toBe(id);
  });
});
