// A product's status follows what happened to it (docs/decisions.md): a change of its content, in the editor or by a
// bulk edit, moves it from 未编辑 (Unedited) to 待发布 (Ready); a status the user chose stays; undoing a bulk edit puts
// the previous status back. The translation's part is in translate.test.ts.
import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productLabels, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { ProductStatus } from "#shared/contract/enums.ts";

let s: TestServer;
let a: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
});
afterAll(() => s?.close());

const P = "/api/Product";
const { Unedited, Ready, Published, Archived } = ProductStatus;

async function insert(rows: Partial<typeof products.$inferInsert>[]) {
  const values = rows.map((r) => ({ tenantId: a.tenantId, id: randomUUID(), userId: a.userId, title: { zh: "商品" }, ...r }));
  await inScope(s.database.db, { tenantId: a.tenantId }, (tx) => tx.insert(products).values(values));
  return values.map((v) => v.id);
}
async function statuses(ids: string[]) {
  const rows = await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
    tx.select({ id: products.id, status: products.status }).from(products).where(inArray(products.id, ids)),
  );
  const byId = new Map(rows.map((r) => [r.id, r.status]));
  return ids.map((id) => byId.get(id));
}
async function call(path: string, body: unknown) {
  const res = await s.api("POST", path.startsWith("/") ? path : `${P}/${path}`, { token: a.token, body });
  expect(res.status, res.raw).toBe(200);
  return res.body.result;
}

describe("product status", () => {
  it("the editor: a new product is unedited, a save makes it edited unless the user sets a status", async () => {
    const created = await call("CreateOrUpdateProduct", { title: { zh: "杯子" } });
    expect(created.status).toBe(Unedited);
    expect((await call("CreateOrUpdateProduct", { id: created.id, title: { zh: "陶瓷杯子" } })).status).toBe(Ready);

    const [chosen, published] = await insert([{ status: Unedited }, { status: Published }]);
    expect((await call("CreateOrUpdateProduct", { id: chosen, title: { zh: "盘子" }, status: Archived })).status).toBe(Archived);
    expect((await call("CreateOrUpdateProduct", { id: published, title: { zh: "碗" } })).status).toBe(Published);
  });

  it("UpdateProductPrice and UpdateProductAttr make an unedited product edited and keep other statuses", async () => {
    const cate = { cateInfo: { cateId: "MLM1", site: 1, attrs: [] }, cateId: "MLM1", site: 1 };
    const [unedited, archived, withCate] = await insert([{ price: "5.00" }, { price: "5.00", status: Archived }, cate]);
    await call("UpdateProductPrice", { productId: unedited, price: 7 });
    await call("UpdateProductPrice", { productId: archived, price: 7 });
    await call("UpdateProductAttr", { productId: withCate, attrs: [{ nameId: "BRAND", name: "Marca", valueId: null, value: "X" }] });
    expect(await statuses([unedited, archived, withCate])).toEqual([Ready, Archived, Ready]);
  });

  it("a bulk price edit over a filter moves only unedited products to edited, and its undo restores every status", async () => {
    const sku = `status-${randomUUID()}`;
    const ids = await insert([Unedited, Ready, Published, Archived, Unedited].map((status) => ({ sku, status, price: "10.00" })));
    const other = await insert([{ sku: `${sku}-other`, price: "10.00" }]);
    const edit = await call("BatchUpdateProductPrice", { filter: { sku }, rate: 1.1, price: 0 });
    expect(edit.count).toBe(5);
    expect(await statuses(ids)).toEqual([Ready, Ready, Published, Archived, Ready]);
    expect(await statuses(other)).toEqual([Unedited]);

    expect((await call("UndoProductEdit", { id: edit.editId })).count).toBe(5);
    expect(await statuses(ids)).toEqual([Unedited, Ready, Published, Archived, Unedited]);
  });

  it("every content bulk edit marks edited; status and label edits do not", async () => {
    const sku = `status-${randomUUID()}`;
    const ids = await insert(Array.from({ length: 5 }, () => ({ sku, title: { zh: "红色杯子" }, price: "10.00" })));
    const cate = { cateId: "MLM2", site: 1, attrs: [], categoryName: "Tazas" };
    const edits: [string, Record<string, unknown>][] = [
      ["BatchUpdateProductSamePrice", { productIds: [ids[0]], fixPrice: 9 }],
      ["BatchUpdateProductWeight", { productIds: [ids[1]], weight: 300 }],
      ["BatchUpdateProductCategory", { productIds: [ids[2]], productCateInfo: cate }],
      ["ReplaceKeyword", { productIds: [ids[3]], keyword: "红色", replaceText: "蓝色", isReplaceTitle: true }],
    ];
    for (const [path, body] of edits) expect((await call(path, body)).count, path).toBe(1);
    expect(await statuses(ids)).toEqual([Ready, Ready, Ready, Ready, Unedited]);

    const label = randomUUID();
    await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.insert(productLabels).values({ tenantId: a.tenantId, id: label, name: label }),
    );
    await call("/api/ProductLabel/LinkProductLabel", { productIds: [ids[4]], labelId: label });
    expect(await statuses([ids[4]])).toEqual([Unedited]);
    await call("BatchUpdateProductStatus", { productIds: [ids[4]], status: Published });
    expect(await statuses([ids[4]])).toEqual([Published]);
  });
});
