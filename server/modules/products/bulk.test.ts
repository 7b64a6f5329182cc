// Product bulk edits and their undo through the real HTTP stack: every edit checked row by row over a few thousand
// products (selected by ids and by the list's filter), undo restoring the exact previous rows for each kind of edit,
// only the caller's latest edit undoable and only for 24 hours, visibility (a sub-account's own products, never
// another tenant's), bad input refused with nothing changed, and find-and-replace's literal, case and CJK cases.
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { productCounts, productEditBackups, productEdits, productLabels, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { sizedForDatabase } from "../../testing/templates.ts";
import { literalPattern, literalReplacement } from "./bulk.ts";

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

type Row = typeof products.$inferSelect;
type Variant = { sku?: string; price?: number | string | null; stock?: number };
/** A batch: 3,000 on PostgreSQL, 1,600 on PGlite (the same rules, row by row, at about half the CPU; sizedForDatabase). */
const N = sizedForDatabase(3000, 1600);

/** The i-th product of a batch: prices (some null, some tiny), variants (number, string, missing and null prices). */
function productRow(t: TestTenant, tag: string, i: number, userId = t.userId): typeof products.$inferInsert {
  const price = i % 7 === 0 ? null : i % 11 === 0 ? "0.50" : ((i * 3719) % 100000) / 100 + 1;
  const variants: Variant[] =
    i % 3 === 0
      ? []
      : i % 3 === 1
        ? [{ sku: `v${i}a`, price: ((i * 13) % 5000) / 100, stock: 3 }, { sku: `v${i}b`, price: "12.50" }, { sku: `v${i}c` }]
        : [
            { sku: `v${i}d`, price: 5.55 },
            { sku: `v${i}e`, price: null },
          ];
  return {
    tenantId: t.tenantId,
    id: randomUUID(),
    userId,
    sku: tag,
    title: i % 5 === 0 ? { zh: `商品${i}耐克`, en: `Nike shoe ${i}` } : { en: `Plain item ${i}`, es: `Artículo ${i}` },
    description: { en: `<p>Description ${i} nike</p>` },
    price: price === null ? null : typeof price === "string" ? price : price.toFixed(2),
    currency: "CNY",
    weight: i % 4 === 0 ? null : String(100 + (i % 50)),
    size: i % 2 ? "10x10x10" : null,
    variants,
    status: 1 + (i % 4),
    cateInfo: i % 6 === 0 ? { cateId: "MLM1", site: 1, attrs: [] } : null,
    cateId: i % 6 === 0 ? "MLM1" : null,
    site: i % 6 === 0 ? 1 : null,
  };
}

/** Inserts n products tagged by sku (the filter's exact sku picks the batch); answers their ids in insert order. */
async function seed(t: TestTenant, n: number, opts: { userId?: string; tag?: string } = {}) {
  const tag = opts.tag ?? `tag-${randomUUID()}`;
  const rows = Array.from({ length: n }, (_, i) => productRow(t, tag, i, opts.userId));
  await inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(products).values(rows.slice(i, i + 1000));
  });
  return { tag, ids: rows.map((r) => r.id!) };
}

async function insertOne(t: TestTenant, values: Partial<typeof products.$inferInsert>) {
  const id = randomUUID();
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.insert(products).values({ tenantId: t.tenantId, id, userId: t.userId, ...values }),
  );
  return id;
}

/** Every row of a batch (deleted ones too), by id. */
async function rowsOfTag(t: TestTenant, tag: string): Promise<Row[]> {
  return inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.select().from(products).where(eq(products.sku, tag)).orderBy(asc(products.id)),
  );
}
const byId = (rows: Row[]) => new Map(rows.map((r) => [r.id, r]));

/** A row without its audit stamp (which an edit and its undo both renew): what undo must restore exactly. */
const content = ({ lastModificationTime, lastModifierId, concurrencyStamp, ...rest }: Row) => {
  void lastModificationTime;
  void lastModifierId;
  void concurrencyStamp;
  return rest;
};
const snapshot = async (t: TestTenant, tag: string) => (await rowsOfTag(t, tag)).map(content);

const api = (token: string, path: string, body?: unknown) => s.api("POST", path, { token, body });
const P = "/api/Product";
async function edit(token: string, path: string, body: unknown) {
  const res = await api(token, path, body);
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { count: number; editId: string | null };
}
const undo = (token: string, id: string | null) => api(token, `${P}/UndoProductEdit`, { id });
const lastEdit = async (token: string) => {
  const res = await s.api("GET", `${P}/GetLastProductEdit`, { token });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as {
    id: string;
    kind: string;
    rowCount: number;
    canUndo: boolean;
    undoneTime: string | null;
    undoUntil: string;
    creationTime: string;
  } | null;
};

// Exact money in cents (integers), as PostgreSQL's numeric computes it: round half away from zero.
const cents = (v: number | string) => Math.round(Number(v) * 100);
const roundDiv = (n: number, d: number) => Math.sign(n) * Math.floor((Math.abs(n) + d / 2) / d);
const floorTo = (c: number) => Math.floor(c / 100) * 100;
/** round(old × rate + add, 2), ending on tiny, at least 0; rate and add with at most 2 decimals. */
function newPrice(old: number | string, rate: number, add: number, tiny?: number) {
  let c = roundDiv(cents(old) * Math.round(rate * 100) + Math.round(add * 100) * 100, 100);
  if (tiny !== undefined) c = floorTo(c) + Math.round(tiny * 100);
  return Math.max(0, c);
}
const money = (c: number) => (c / 100).toFixed(2);
const hasNumericPrice = (v: Variant) =>
  typeof v.price === "number" || (typeof v.price === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v.price));

describe("BatchUpdateProductPrice / BatchUpdateProductSamePrice", () => {
  it("changes each price and variant price by the filter, exactly, never below 0, and undo restores every row", async () => {
    const { tag } = await seed(a, N);
    const other = await seed(a, 50);
    const before = await rowsOfTag(a, tag);
    const res = await edit(a.token, `${P}/BatchUpdateProductPrice`, { filter: { sku: tag }, rate: 1.15, price: -2.5, tinyPrice: 0.99 });
    expect(res.count).toBe(N);
    expect(res.editId).toMatch(/^[0-9a-f-]{36}$/);
    const after = byId(await rowsOfTag(a, tag));
    let clamped = 0;
    for (const old of before) {
      const now = after.get(old.id)!;
      if (old.price === null) expect(now.price).toBeNull();
      else {
        const c = newPrice(old.price, 1.15, -2.5, 0.99);
        if (c === 0) clamped++;
        expect(now.price, `${old.price}`).toBe(money(c));
      }
      const ov = old.variants as Variant[];
      const nv = now.variants as Variant[];
      expect(nv.length).toBe(ov.length);
      ov.forEach((v, k) => {
        if (hasNumericPrice(v)) expect(nv[k]).toEqual({ ...v, price: newPrice(v.price!, 1.15, -2.5, 0.99) / 100 });
        else expect(nv[k]).toEqual(v);
      });
      expect(now.lastModifierId).toBe(a.userId);
      expect(now.lastModificationTime).not.toBeNull();
      expect(now.concurrencyStamp).not.toBe(old.concurrencyStamp);
    }
    expect(clamped).toBeGreaterThan(0);
    // Products outside the filter are not touched.
    expect((await rowsOfTag(a, other.tag)).every((r) => r.lastModificationTime === null)).toBe(true);

    const info = await lastEdit(a.token);
    expect(info).toMatchObject({ id: res.editId, kind: "BatchUpdateProductPrice", rowCount: N, canUndo: true, undoneTime: null });
    const u = await undo(a.token, res.editId);
    expect(u.status, u.raw).toBe(200);
    expect(u.body.result).toEqual({ count: N });
    expect(await snapshot(a, tag)).toEqual(before.map(content));
    expect(await lastEdit(a.token)).toMatchObject({ id: res.editId, canUndo: false, undoneTime: expect.any(String) });
  });

  it("sets one price, ending on tinyPrice, on the selected ids and all their variants", async () => {
    const { tag, ids } = await seed(a, 1500);
    const chosen = ids.slice(0, 1000);
    const before = byId(await rowsOfTag(a, tag));
    const res = await edit(a.token, `${P}/BatchUpdateProductSamePrice`, { productIds: chosen, fixPrice: 10, rate: 1.5, tinyPrice: 0.9 });
    expect(res.count).toBe(1000);
    const chosenSet = new Set(chosen);
    for (const now of await rowsOfTag(a, tag)) {
      const old = before.get(now.id)!;
      if (!chosenSet.has(now.id)) {
        expect(content(now)).toEqual(content(old));
        continue;
      }
      expect(now.price).toBe("15.90");
      expect(now.variants).toEqual((old.variants as Variant[]).map((v) => ({ ...v, price: 15.9 })));
    }
    // No rate, no tinyPrice: exactly that price.
    const res2 = await edit(a.token, `${P}/BatchUpdateProductSamePrice`, { ids: chosen.slice(0, 3), fixPrice: 19.99 });
    expect(res2.count).toBe(3);
    expect((await rowsOfTag(a, tag)).filter((r) => r.price === "19.99").length).toBe(3);
  });
});

describe("weight, size, status, category, labels", () => {
  it("sets weight and size by filter, and random weights per product between min and max", async () => {
    const { tag, ids } = await seed(a, N);
    const before = await snapshot(a, tag);
    const fixed = await edit(a.token, `${P}/BatchUpdateProductWeight`, { filter: { sku: tag }, weight: 250.5, size: "30 x 20 X 10" });
    expect(fixed.count).toBe(N);
    for (const r of await rowsOfTag(a, tag)) {
      expect(r.weight).toBe("250.50");
      expect(r.size).toBe("30x20x10");
    }
    const random = await edit(a.token, `${P}/WebBatchUpdateProductWeight`, {
      productIds: ids.slice(0, 1000),
      weight: null,
      isRandom: true,
      minRandomWeight: 100,
      maxRandomWeight: 200,
    });
    expect(random.count).toBe(1000);
    const rows = byId(await rowsOfTag(a, tag));
    const weights = ids.slice(0, 1000).map((id) => rows.get(id)!.weight!);
    for (const w of weights) {
      expect(w).toMatch(/^\d+\.\d{2}$/);
      expect(Number(w)).toBeGreaterThanOrEqual(100);
      expect(Number(w)).toBeLessThanOrEqual(200);
    }
    expect(new Set(weights).size).toBeGreaterThan(100);
    expect(rows.get(ids[1500])!.weight).toBe("250.50");
    expect(rows.get(ids[0])!.size).toBe("30x20x10"); // size not given: kept
    expect((await lastEdit(a.token))!.kind).toBe("WebBatchUpdateProductWeight");
    // Undo restores the previous edit's values (the weights of 250.50), then the first edit can't be undone.
    expect((await undo(a.token, random.editId)).status).toBe(200);
    expect((await rowsOfTag(a, tag)).every((r) => r.weight === "250.50")).toBe(true);
    const older = await undo(a.token, fixed.editId);
    expect(older.status).toBe(403);
    expect(older.body.error.message).toBe("只能撤销最近一次批量修改");
    expect(before).not.toEqual(await snapshot(a, tag));
  });

  it("sets status and category; only rows that change are counted", async () => {
    const { tag } = await seed(a, N);
    const before = byId(await rowsOfTag(a, tag));
    const st = await edit(a.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: tag }, status: 3 });
    expect(st.count).toBe([...before.values()].filter((r) => r.status !== 3).length);
    for (const r of await rowsOfTag(a, tag)) {
      expect(r.status).toBe(3);
      expect(r.lastModificationTime === null).toBe(before.get(r.id)!.status === 3);
    }
    const cateInfo = {
      cateId: "MLB42",
      site: 2,
      attrs: [{ nameId: "BRAND", name: "Marca", valueId: null, value: "X" }],
      categoryName: "Sapatos",
    };
    const cat = await edit(a.token, `${P}/BatchUpdateProductCategory`, { filter: { sku: tag, status: 3 }, productCateInfo: cateInfo });
    expect(cat.count).toBe(N);
    for (const r of await rowsOfTag(a, tag)) {
      expect(r.cateInfo).toEqual({ cateId: "MLB42", site: 2, attrs: [{ nameId: "BRAND", name: "Marca", valueId: null, value: "X" }] });
      expect([r.cateId, r.site, r.categoryName]).toEqual(["MLB42", 2, "Sapatos"]);
    }
    // The filter now finds them by the new category.
    const c = await api(a.token, `${P}/CountProducts`, { sku: tag, site: 2, cateId: "MLB42" });
    expect(c.body.result).toEqual({ count: N });
  });

  it("links and unlinks a label of the tenant; an unknown label is 404 and changes nothing", async () => {
    const { tag, ids } = await seed(a, N);
    const label = randomUUID();
    const label2 = randomUUID();
    await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.insert(productLabels).values([
        { tenantId: a.tenantId, id: label, name: `L-${label}` },
        { tenantId: a.tenantId, id: label2, name: `L-${label2}` },
      ]),
    );
    const before = await snapshot(a, tag);
    const missing = await api(a.token, "/api/ProductLabel/LinkProductLabel", { filter: { sku: tag }, labelId: randomUUID() });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("标签不存在");
    // A label of another tenant is unknown here.
    const foreign = randomUUID();
    await inScope(s.database.db, { tenantId: b.tenantId }, (tx) =>
      tx.insert(productLabels).values({ tenantId: b.tenantId, id: foreign, name: "theirs" }),
    );
    expect((await api(a.token, "/api/ProductLabel/LinkProductLabel", { filter: { sku: tag }, labelId: foreign })).status).toBe(404);
    expect(await snapshot(a, tag)).toEqual(before);

    const linked = await edit(a.token, "/api/ProductLabel/LinkProductLabel", { filter: { sku: tag }, labelId: label });
    expect(linked.count).toBe(N);
    expect((await rowsOfTag(a, tag)).every((r) => r.labelId === label)).toBe(true);
    const some = await edit(a.token, "/api/ProductLabel/LinkProductLabel", { productIds: ids.slice(0, 10), labelId: label2 });
    expect(some.count).toBe(10);
    expect((await api(a.token, `${P}/CountProducts`, { sku: tag, labelId: label })).body.result).toEqual({ count: N - 10 });
    // Cancel only label2 among all: 10 rows; then any label on the first 20 ids: 10 more.
    expect((await edit(a.token, "/api/ProductLabel/CancelLinkProductLabel", { filter: { sku: tag }, labelId: label2 })).count).toBe(10);
    expect((await edit(a.token, "/api/ProductLabel/CancelLinkProductLabel", { ids: ids.slice(0, 20) })).count).toBe(10);
    const rows = byId(await rowsOfTag(a, tag));
    ids.forEach((id, i) => expect(rows.get(id)!.labelId).toBe(i < 20 ? null : label));
  });
});

describe("ReplaceKeyword", () => {
  const replace = (body: Record<string, unknown>, token = a.token) => edit(token, `${P}/ReplaceKeyword`, body);
  const one = async (id: string) =>
    (await inScope(s.database.db, { tenantId: a.tenantId }, (tx) => tx.select().from(products).where(eq(products.id, id))))[0];

  it("replaces in every title language, case-insensitively, touching only products holding the keyword", async () => {
    const { tag } = await seed(a, N);
    const before = byId(await rowsOfTag(a, tag));
    const res = await replace({ filter: { sku: tag }, keyword: "NIKE", replaceText: "Adidas" });
    const holding = [...before.values()].filter((r) => Object.values(r.title as Record<string, string>).some((t) => /nike/i.test(t)));
    expect(res.count).toBe(holding.length);
    expect(holding.length).toBe(N / 5);
    for (const r of await rowsOfTag(a, tag)) {
      const old = before.get(r.id)!;
      const expected = Object.fromEntries(
        Object.entries(old.title as Record<string, string>).map(([k, v]) => [k, v.replace(/nike/gi, "Adidas")]),
      );
      expect(r.title).toEqual(expected);
      expect(r.description).toEqual(old.description); // titles only by default
      expect(r.lastModificationTime === null).toBe(!holding.some((h) => h.id === r.id));
    }
    const u = await undo(a.token, res.editId);
    expect(u.body.result).toEqual({ count: holding.length });
    expect(await snapshot(a, tag)).toEqual([...before.values()].map(content));
  });

  it("takes the keyword and the replacement literally (regex characters, backslashes, &)", async () => {
    const tag = `kw-${randomUUID()}`;
    const hit = await insertOne(a, { sku: tag, title: { en: "x a.b*(c) y A.B*(C)", es: "no" } });
    const regexOnly = await insertOne(a, { sku: tag, title: { en: "aXbbbc aXbc (c)" } });
    const res = await replace({ filter: { sku: tag }, keyword: "a.b*(c)", replaceText: "\\1 & $1 \\&" });
    expect(res.count).toBe(1);
    expect((await one(hit)).title).toEqual({ en: "x \\1 & $1 \\& y \\1 & $1 \\&", es: "no" });
    expect((await one(regexOnly)).title).toEqual({ en: "aXbbbc aXbc (c)" });
    expect((await one(regexOnly)).lastModificationTime).toBeNull();
    // Case-sensitive: only the exact spelling; replace() with the same literal text.
    const res2 = await replace({ filter: { sku: tag }, keyword: "(c)", replaceText: "[d]", isIgnoreCase: false });
    expect(res2.count).toBe(1);
    expect((await one(regexOnly)).title).toEqual({ en: "aXbbbc aXbc [d]" });
    expect(literalPattern("a.b*(c)[x]{1}^$|+?\\")).toBe("a\\.b\\*\\(c\\)\\[x\\]\\{1\\}\\^\\$\\|\\+\\?\\\\");
    expect(literalReplacement("\\1&")).toBe("\\\\1&");
  });

  it("is case-sensitive when asked, handles CJK, keeps title_text and search_text, and replaces in descriptions", async () => {
    const tag = `kw-${randomUUID()}`;
    const mixed = await insertOne(a, { sku: tag, title: { en: "Nike nike NIKE" }, description: { en: "<b>Nike</b>", zh: "耐克 nike" } });
    const cjk = await insertOne(a, { sku: tag, title: { zh: "正品耐克运动鞋耐克", en: "Shoes" } });
    const none = await insertOne(a, { sku: tag, title: { en: "Puma" }, description: { en: "nothing" } });
    expect((await one(cjk)).titleText).toBe("正品耐克运动鞋耐克");

    expect((await replace({ filter: { sku: tag }, keyword: "nike", replaceText: "Puma", isIgnoreCase: false })).count).toBe(1);
    expect((await one(mixed)).title).toEqual({ en: "Nike Puma NIKE" });
    expect((await one(mixed)).searchText).toBe("nike puma nike");

    expect((await replace({ filter: { sku: tag }, keyword: "耐克", replaceText: "阿迪" })).count).toBe(1);
    const c = await one(cjk);
    expect(c.title).toEqual({ zh: "正品阿迪运动鞋阿迪", en: "Shoes" });
    expect(c.titleText).toBe("正品阿迪运动鞋阿迪");
    expect(c.searchText).toBe("shoes\n正品阿迪运动鞋阿迪");
    expect((await api(a.token, `${P}/CountProducts`, { sku: tag, title: "阿迪运动" })).body.result).toEqual({ count: 1 });

    const desc = await replace({
      filter: { sku: tag },
      keyword: "NIKE",
      replaceText: "X",
      isReplaceTitle: false,
      isReplaceDescription: true,
    });
    expect(desc.count).toBe(1);
    const m = await one(mixed);
    expect(m.description).toEqual({ en: "<b>X</b>", zh: "耐克 X" });
    expect(m.title).toEqual({ en: "Nike Puma NIKE" });
    const both = await replace({ ids: [mixed, cjk, none], keyword: "puma", replaceText: "Reebok", isReplaceDescription: true });
    expect(both.count).toBe(2);
    expect((await one(none)).title).toEqual({ en: "Reebok" });
    expect((await one(mixed)).titleText).toBe("Nike Reebok NIKE");
    // Undo puts the titles back and the trigger follows.
    expect((await undo(a.token, both.editId)).body.result).toEqual({ count: 2 });
    expect((await one(none)).searchText).toBe("puma");
    expect((await one(mixed)).title).toEqual({ en: "Nike Puma NIKE" });
  });

  it("changes nothing when no product holds the keyword", async () => {
    const { tag } = await seed(a, 30);
    const last = await lastEdit(a.token);
    expect(await replace({ filter: { sku: tag }, keyword: "zzz-absent", replaceText: "y" })).toEqual({ count: 0, editId: null });
    expect(await lastEdit(a.token)).toEqual(last);
  });
});

describe("AssignProduct, DeleteProducts, BatchDeleteProducts", () => {
  const countOf = async (t: TestTenant, userId: string) =>
    (
      await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
        tx
          .select({ n: productCounts.count })
          .from(productCounts)
          .where(and(eq(productCounts.tenantId, t.tenantId), eq(productCounts.userId, userId))),
      )
    )[0]?.n ?? 0;

  it("gives products to a user of the tenant, keeps the counts, and undo gives them back", async () => {
    const target = await s.createSubUser(a);
    const { tag } = await seed(a, N);
    const before = await snapshot(a, tag);
    const mainCount = await countOf(a, a.userId);
    const res = await edit(a.token, `${P}/AssignProduct`, { filter: { sku: tag }, userId: target.id });
    expect(res.count).toBe(N);
    expect((await rowsOfTag(a, tag)).every((r) => r.userId === target.id)).toBe(true);
    expect(await countOf(a, target.id)).toBe(N);
    expect(await countOf(a, a.userId)).toBe(mainCount - N);
    // The sub-account now sees them.
    expect((await api(target.token, `${P}/CountProducts`, { sku: tag })).body.result).toEqual({ count: N });
    expect((await undo(a.token, res.editId)).body.result).toEqual({ count: N });
    expect(await snapshot(a, tag)).toEqual(before);
    expect(await countOf(a, target.id)).toBe(0);
    expect(await countOf(a, a.userId)).toBe(mainCount);
  });

  it("refuses past the user's productCount limit, an unknown or other tenant's user, and a sub-account caller", async () => {
    const limited = await s.createSubUser(a, undefined, { productCount: 100 });
    const { tag, ids } = await seed(a, 200);
    const before = await snapshot(a, tag);
    const over = await api(a.token, `${P}/AssignProduct`, { filter: { sku: tag }, userId: limited.id });
    expect(over.status).toBe(403);
    expect(over.body.error.message).toContain("的产品数量将超过上限");
    expect(await snapshot(a, tag)).toEqual(before);
    expect(await countOf(a, limited.id)).toBe(0);
    expect((await api(a.token, `${P}/AssignProduct`, { filter: { sku: tag }, userId: randomUUID() })).status).toBe(404);
    expect((await api(a.token, `${P}/AssignProduct`, { filter: { sku: tag }, userId: b.userId })).status).toBe(404);
    expect((await api(sub.token, `${P}/AssignProduct`, { filter: { sku: tag }, userId: sub.id })).status).toBe(403);
    expect(await snapshot(a, tag)).toEqual(before);
    // Within the limit it goes through.
    expect((await edit(a.token, `${P}/AssignProduct`, { productIds: ids.slice(0, 100), userId: limited.id })).count).toBe(100);
    expect(await countOf(a, limited.id)).toBe(100);
    expect((await api(a.token, `${P}/AssignProduct`, { productIds: ids.slice(100, 101), userId: limited.id })).status).toBe(403);
  });

  it("soft-deletes by ids and by filter; undo brings them back", async () => {
    const { tag, ids } = await seed(a, N);
    const before = await snapshot(a, tag);
    const d1 = await edit(a.token, `${P}/DeleteProducts`, { ids: ids.slice(0, 500) });
    expect(d1.count).toBe(500);
    const rows = byId(await rowsOfTag(a, tag));
    for (const id of ids.slice(0, 500)) {
      const r = rows.get(id)!;
      expect([r.isDeleted, r.deleterId, r.deletionTime instanceof Date]).toEqual([true, a.userId, true]);
    }
    expect(rows.get(ids[500])!.isDeleted).toBe(false);
    expect((await api(a.token, `${P}/CountProducts`, { sku: tag })).body.result).toEqual({ count: N - 500 });
    // Deleted ones are no longer selected.
    expect((await edit(a.token, `${P}/DeleteProducts`, { ids: ids.slice(0, 500) })).count).toBe(0);
    const d2 = await edit(a.token, `${P}/BatchDeleteProducts`, { filter: { sku: tag } });
    expect(d2.count).toBe(N - 500);
    expect((await api(a.token, `${P}/CountProducts`, { sku: tag })).body.result).toEqual({ count: 0 });
    expect((await undo(a.token, d2.editId)).body.result).toEqual({ count: N - 500 });
    expect((await api(a.token, `${P}/CountProducts`, { sku: tag })).body.result).toEqual({ count: N - 500 });
    expect((await undo(a.token, d1.editId)).status).toBe(403);
    const restored = byId((await rowsOfTag(a, tag)).map((r) => ({ ...r })));
    expect(content(restored.get(ids[600])!)).toEqual(before.find((r) => r.id === ids[600]));
  });
});

describe("undo", () => {
  it("restores exactly, for every kind of edit, one after another", async () => {
    const { tag } = await seed(a, sizedForDatabase(1500, 500));
    const label = randomUUID();
    await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.insert(productLabels).values({ tenantId: a.tenantId, id: label, name: `U-${label}` }),
    );
    const target = await s.createSubUser(a);
    const f = { filter: { sku: tag } };
    const edits: [string, Record<string, unknown>][] = [
      [`${P}/BatchUpdateProductPrice`, { ...f, rate: 0.5, price: 3 }],
      [`${P}/BatchUpdateProductSamePrice`, { ...f, fixPrice: 7, tinyPrice: 0.5 }],
      [`${P}/BatchUpdateProductWeight`, { ...f, weight: null, isRandom: true, minRandomWeight: 1, maxRandomWeight: 9, size: "1x2x3" }],
      [`${P}/BatchUpdateProductStatus`, { ...f, status: 4 }],
      [`${P}/BatchUpdateProductCategory`, { ...f, productCateInfo: { cateId: "C9", site: 3 } }],
      ["/api/ProductLabel/LinkProductLabel", { ...f, labelId: label }],
      [`${P}/ReplaceKeyword`, { ...f, keyword: "item", replaceText: "thing", isReplaceDescription: true }],
      [`${P}/AssignProduct`, { ...f, userId: target.id }],
      [`${P}/BatchDeleteProducts`, f],
    ];
    const undone: string[] = [];
    for (const [path, body] of edits) {
      const before = await snapshot(a, tag);
      const res = await edit(a.token, path, body);
      expect(res.count, path).toBeGreaterThan(0);
      expect(await snapshot(a, tag), path).not.toEqual(before);
      const u = await undo(a.token, res.editId);
      undone.push(res.editId!);
      expect(u.status, u.raw).toBe(200);
      expect(u.body.result, path).toEqual({ count: res.count });
      expect(await snapshot(a, tag), path).toEqual(before);
      // Keep the edit applied for the next round (so a label edit restores onto labelled rows, and so on).
      if (path.endsWith("LinkProductLabel")) await edit(a.token, path, body);
    }
    // The backups of an undone edit are gone.
    const left = await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.select().from(productEditBackups).where(inArray(productEditBackups.editId, undone)),
    );
    expect(left).toEqual([]);
  });

  it("restores the recorded values even on rows changed again since", async () => {
    const { tag, ids } = await seed(a, 100);
    const before = await snapshot(a, tag);
    const res = await edit(a.token, `${P}/BatchUpdateProductPrice`, { filter: { sku: tag }, rate: 2 });
    await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.update(products).set({ price: "999.00", stock: 5 }).where(eq(products.id, ids[1])),
    );
    expect((await undo(a.token, res.editId)).body.result).toEqual({ count: 100 });
    const now = await snapshot(a, tag);
    expect(now.map((r) => (r.id === ids[1] ? { ...r, stock: null } : r))).toEqual(before);
    expect(now.find((r) => r.id === ids[1])!.stock).toBe(5); // a column the edit did not record keeps its value
  });

  it("backs up exactly the rows an edit changed, only its columns; updates outside a bulk edit record nothing", async () => {
    const { tag, ids } = await seed(a, 30);
    // Only the rows whose status differs are changed, so only they are backed up.
    await inScope(s.database.db, { tenantId: a.tenantId }, async (tx) => {
      await tx.update(products).set({ status: 1 }).where(inArray(products.id, ids));
      await tx
        .update(products)
        .set({ status: 3 })
        .where(inArray(products.id, ids.slice(0, 10)));
    });
    const res = await edit(a.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: tag }, status: 3 });
    expect(res.count).toBe(20);
    const backups = await inScope(s.database.db, { tenantId: a.tenantId }, async (tx) => {
      const rows = await tx.select().from(productEditBackups).where(eq(productEditBackups.editId, res.editId!));
      // A later update in the same transaction as another statement is not an edit's.
      await tx.update(products).set({ stock: 7 }).where(inArray(products.id, ids));
      return rows;
    });
    expect(backups.map((b) => b.productId).sort()).toEqual(ids.slice(10).sort());
    for (const b of backups) expect(b.before).toEqual({ status: 1 });
    const single = await api(a.token, `${P}/UpdateProductPrice`, { productId: ids[0], price: 12.5, cur: "USD" });
    expect(single.status, single.raw).toBe(200);
    const all = await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.select({ productId: productEditBackups.productId }).from(productEditBackups).where(inArray(productEditBackups.productId, ids)),
    );
    expect(all.length).toBe(20);
  });

  it("only the latest edit, once, within 24 hours; another user or tenant cannot undo it", async () => {
    const { tag } = await seed(a, 20);
    const e1 = await edit(a.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: tag }, status: 2 });
    const e2 = await edit(a.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: tag }, status: 4 });
    const notLatest = await undo(a.token, e1.editId);
    expect([notLatest.status, notLatest.body.error.message]).toEqual([403, "只能撤销最近一次批量修改"]);
    const otherTenant = await undo(b.token, e2.editId);
    expect(otherTenant.status).toBe(404);
    const otherUser = await undo(sub.token, e2.editId);
    expect(otherUser.status).toBe(404);
    expect((await undo(a.token, e2.editId)).status).toBe(200);
    const again = await undo(a.token, e2.editId);
    expect([again.status, again.body.error.message]).toEqual([403, "该批量修改已撤销"]);
    expect((await undo(a.token, e1.editId)).status).toBe(403);
    expect((await rowsOfTag(a, tag)).every((r) => r.status === 2)).toBe(true);
    expect((await undo(a.token, randomUUID())).status).toBe(404);

    // Past the window: refused, shown as not undoable; the next edit drops the old backups.
    const e3 = await edit(a.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: tag }, status: 1 });
    const backupsOf = async (editId: string) =>
      (
        await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
          tx.select().from(productEditBackups).where(eq(productEditBackups.editId, editId)),
        )
      ).length;
    expect(await backupsOf(e3.editId!)).toBe(20);
    await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx
        .update(productEdits)
        .set({ creationTime: sql`${productEdits.creationTime} - interval '25 hours'` })
        .where(eq(productEdits.userId, a.userId)),
    );
    const late = await undo(a.token, e3.editId);
    expect([late.status, late.body.error.message]).toEqual([403, "批量修改已超过 24 小时，无法撤销"]);
    expect(await lastEdit(a.token)).toMatchObject({ id: e3.editId, canUndo: false, undoneTime: null });
    expect((await rowsOfTag(a, tag)).every((r) => r.status === 1)).toBe(true);
    const { tag: tag2 } = await seed(a, 5);
    const e4 = await edit(a.token, `${P}/BatchUpdateProductWeight`, { filter: { sku: tag2 }, weight: 1 });
    expect(await backupsOf(e3.editId!)).toBe(0);
    expect(await backupsOf(e4.editId!)).toBe(5);
    expect(await lastEdit(a.token)).toMatchObject({ id: e4.editId, canUndo: true });
  });

  it("answers null when the caller has no edit, and keeps each user's last edit apart", async () => {
    const fresh = await s.createTenant();
    expect(await lastEdit(fresh.token)).toBeNull();
    const mine = await seed(a, 10, { userId: sub.id });
    const subEdit = await edit(sub.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: mine.tag }, status: 4 });
    const mainEdit = await edit(a.token, `${P}/BatchUpdateProductStatus`, { filter: { sku: mine.tag }, status: 3 });
    expect((await lastEdit(sub.token))!.id).toBe(subEdit.editId);
    expect((await lastEdit(a.token))!.id).toBe(mainEdit.editId);
    expect((await undo(a.token, mainEdit.editId)).status).toBe(200);
    expect((await undo(sub.token, subEdit.editId)).status).toBe(200);
    expect((await rowsOfTag(a, mine.tag)).map((r) => r.status).sort()).toEqual(Array.from({ length: 10 }, (_, i) => 1 + (i % 4)).sort());
  });
});

describe("who is touched", () => {
  it("never touches another tenant's products, even by their ids or the same filter", async () => {
    const theirs = await seed(b, 200);
    const tag = theirs.tag;
    const mine = await seed(a, 100, { tag });
    const before = await snapshot(b, tag);
    expect((await edit(a.token, `${P}/BatchUpdateProductStatus`, { productIds: theirs.ids.slice(0, 10), status: 4 })).count).toBe(0);
    expect((await edit(a.token, `${P}/BatchUpdateProductPrice`, { filter: { sku: tag }, rate: 2 })).count).toBe(100);
    expect((await edit(a.token, `${P}/BatchDeleteProducts`, { filter: { sku: tag } })).count).toBe(100);
    expect((await edit(a.token, `${P}/DeleteProducts`, { ids: theirs.ids.slice(0, 5) })).count).toBe(0);
    expect(await snapshot(b, tag)).toEqual(before);
    expect((await api(a.token, `${P}/CountProducts`, { sku: tag })).body.result).toEqual({ count: 0 });
    expect((await api(b.token, `${P}/CountProducts`, { sku: tag })).body.result).toEqual({ count: 200 });
    expect(mine.ids.length).toBe(100);
  });

  it("lets a sub-account change only its own products", async () => {
    const { tag } = await seed(a, 60);
    const own = await seed(a, 40, { userId: sub.id, tag });
    const before = byId(await rowsOfTag(a, tag));
    expect((await api(sub.token, `${P}/CountProducts`, { sku: tag })).body.result).toEqual({ count: 40 });
    const res = await edit(sub.token, `${P}/BatchUpdateProductSamePrice`, { filter: { sku: tag }, fixPrice: 1 });
    expect(res.count).toBe(40);
    const ownSet = new Set(own.ids);
    for (const r of await rowsOfTag(a, tag)) {
      if (ownSet.has(r.id)) expect(r.price).toBe("1.00");
      else expect(content(r)).toEqual(content(before.get(r.id)!));
    }
    const others = [...before.values()].filter((r) => !ownSet.has(r.id)).map((r) => r.id);
    expect((await edit(sub.token, `${P}/BatchUpdateProductStatus`, { productIds: others.slice(0, 20), status: 4 })).count).toBe(0);
    expect((await edit(sub.token, `${P}/DeleteProducts`, { ids: others.slice(0, 20) })).count).toBe(0);
    expect((await lastEdit(sub.token))!.id).toBe(res.editId);
  });
});

describe("selection", () => {
  it("ids and a filter given together narrow each other", async () => {
    const one = await seed(a, 10);
    const two = await seed(a, 10);
    const picked = [...one.ids.slice(0, 4), ...two.ids.slice(0, 4)];
    const statuses = async () =>
      new Map(
        (
          await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
            tx
              .select({ id: products.id, status: products.status })
              .from(products)
              .where(inArray(products.id, [...one.ids, ...two.ids])),
          )
        ).map((r) => [r.id, r.status]),
      );
    const before = await statuses();
    const res = await edit(a.token, `${P}/BatchUpdateProductStatus`, { productIds: picked, filter: { sku: one.tag }, status: 4 });
    // Seeded statuses run 1, 2, 3, 4: the fourth of the picked ones already had status 4.
    expect(res.count).toBe(3);
    const after = await statuses();
    for (const [id, status] of after) expect(status, id).toBe(one.ids.slice(0, 4).includes(id) ? 4 : before.get(id));
  });
});

describe("bad input", () => {
  it("answers 400 and changes nothing", async () => {
    const { tag, ids } = await seed(a, 50);
    const before = await snapshot(a, tag);
    const last = await lastEdit(a.token);
    const f = { filter: { sku: tag } };
    const cases: [string, unknown][] = [
      [`${P}/BatchUpdateProductPrice`, { productIds: [], rate: 2 }],
      [`${P}/BatchUpdateProductPrice`, { productIds: ids, ids: [], rate: 2 }],
      [`${P}/BatchUpdateProductPrice`, { rate: 2 }],
      [`${P}/BatchUpdateProductPrice`, { ...f, rate: 0 }],
      [`${P}/BatchUpdateProductPrice`, { ...f, rate: 2, tinyPrice: 1 }],
      [`${P}/BatchUpdateProductPrice`, { productIds: ["not-a-guid"], rate: 2 }],
      [`${P}/BatchUpdateProductSamePrice`, { ...f, rate: 2 }],
      [`${P}/BatchUpdateProductSamePrice`, { ...f, fixPrice: -1 }],
      [`${P}/BatchUpdateProductWeight`, { ...f, isRandom: true, minRandomWeight: 300, maxRandomWeight: 200 }],
      [`${P}/BatchUpdateProductWeight`, { ...f, isRandom: true, minRandomWeight: 300 }],
      [`${P}/BatchUpdateProductWeight`, { ...f }],
      [`${P}/WebBatchUpdateProductWeight`, { ...f, size: "10x10" }],
      [`${P}/BatchUpdateProductStatus`, { ...f, status: 99 }],
      [`${P}/BatchUpdateProductStatus`, { ...f }],
      [`${P}/BatchUpdateProductCategory`, { ...f, productCateInfo: { cateId: "", site: 1 } }],
      [`${P}/BatchUpdateProductCategory`, { ...f, productCateInfo: { cateId: "X", site: 9 } }],
      [`${P}/ReplaceKeyword`, { ...f, keyword: "", replaceText: "x" }],
      [`${P}/ReplaceKeyword`, { ...f, keyword: "a", isReplaceTitle: false }],
      [`${P}/AssignProduct`, { ...f }],
      [`${P}/DeleteProducts`, { ids: [] }],
      [`${P}/BatchDeleteProducts`, {}],
      [`${P}/UndoProductEdit`, { id: "nope" }],
      [`${P}/CountProducts`, { status: 99 }],
      ["/api/ProductLabel/LinkProductLabel", { ...f }],
      ["/api/ProductLabel/CancelLinkProductLabel", { productIds: [] }],
    ];
    for (const [path, body] of cases) {
      const res = await api(a.token, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)} ${res.raw}`).toBe(400);
    }
    expect(await snapshot(a, tag)).toEqual(before);
    expect(await lastEdit(a.token)).toEqual(last);
    expect((await s.api("POST", `${P}/BatchUpdateProductStatus`, { body: { ...f, status: 2 } })).status).toBe(401);
  });

  it("answers {count: 0, editId: null} and records nothing when nothing matches", async () => {
    const last = await lastEdit(a.token);
    expect(await edit(a.token, `${P}/BatchUpdateProductPrice`, { filter: { sku: `none-${randomUUID()}` }, rate: 2 })).toEqual({
      count: 0,
      editId: null,
    });
    expect(await edit(a.token, `${P}/DeleteProducts`, { ids: [randomUUID()] })).toEqual({ count: 0, editId: null });
    expect(await lastEdit(a.token)).toEqual(last);
  });
});

describe("CountProducts", () => {
  it("counts the visible products matching the filter, exactly", async () => {
    const { tag } = await seed(a, N);
    const rows = await rowsOfTag(a, tag);
    const count = async (body: unknown) => (await api(a.token, `${P}/CountProducts`, body)).body.result.count as number;
    expect(await count({ sku: tag })).toBe(N);
    expect(await count({ sku: tag, status: 2 })).toBe(rows.filter((r) => r.status === 2).length);
    expect(await count({ sku: tag, minPrice: 100, maxPrice: 200 })).toBe(
      rows.filter((r) => r.price !== null && Number(r.price) >= 100 && Number(r.price) <= 200).length,
    );
    expect(await count({ sku: tag, title: "nike" })).toBe(N / 5);
    const all = rowsOf<{ n: number }>(
      await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
        tx.execute(sql`select count(*)::int as n from products where tenant_id = ${a.tenantId} and not is_deleted`),
      ),
    )[0].n;
    expect(await count({})).toBe(Number(all));
  });
});
