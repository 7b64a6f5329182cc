// Product PredictWightByTitle through the real HTTP stack: the weight comes from the caller's own similar products
// with a known weight (phone cases for a phone case, coats for a coat), never from another tenant's, deleted, weightless
// or (for a sub-account) other users' products; the product itself is left out; no neighbour answers "no basis"; bad
// input is a 400. The neighbour query is served by the trigram index (EXPLAIN over a few thousand rows).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import type { PredictWeightByTitleResult } from "#shared/contract/product.ts";
import { NO_BASIS_MESSAGE, neighboursQuery, neighbourSettings, weightedMedian } from "./predict-weight.ts";

let s: TestServer;
let t: TestTenant;
let other: TestTenant;
let sub: { id: string; token: string };

type Row = { title: Record<string, string>; weight?: number | null; userId?: string; isDeleted?: boolean };

async function addProducts(tenant: TestTenant, rows: Row[]): Promise<string[]> {
  const values = rows.map((r) => ({
    tenantId: tenant.tenantId,
    id: randomUUID(),
    userId: r.userId ?? tenant.userId,
    title: r.title,
    weight: r.weight == null ? null : r.weight.toFixed(2),
    isDeleted: r.isDeleted ?? false,
  }));
  await inScope(s.database.db, { tenantId: tenant.tenantId }, (tx) => tx.insert(products).values(values));
  return values.map((v) => v.id);
}

const predict = (token: string, body: unknown) => s.api("POST", "/api/Product/PredictWightByTitle", { token, body });
async function prediction(token: string, body: unknown): Promise<PredictWeightByTitleResult> {
  const res = await predict(token, body);
  expect(res.status, res.raw).toBe(200);
  return res.body.result;
}

let cases: string[];
let coats: string[];
let distractors: Record<string, string>;

beforeAll(async () => {
  s = await startTestServer();
  t = await s.createTenant();
  other = await s.createTenant();
  sub = await s.createSubUser(t);
  cases = await addProducts(t, [
    { title: { zh: "iPhone 13 手机壳 透明 防摔" }, weight: 40 },
    { title: { zh: "iPhone 14 手机壳 磨砂 防摔" }, weight: 42 },
    {
      title: { zh: "苹果13 手机壳 硅胶 软壳", en: "iPhone 13 silicone phone case soft", es: "Funda de silicona para iPhone 13" },
      weight: 38,
    },
    { title: { en: "iPhone 13 Pro phone case clear shockproof" }, weight: 45 },
  ]);
  coats = await addProducts(t, [
    { title: { zh: "冬季 加厚 羽绒服 女 中长款" }, weight: 1200 },
    { title: { zh: "冬季 羽绒服 女 短款 加厚" }, weight: 900 },
    { title: { en: "Women winter down coat long thick", zh: "女士 冬季 羽绒服 长款" }, weight: 1500 },
  ]);
  distractors = {
    // Similar titles that must never count.
    deleted: (await addProducts(t, [{ title: { zh: "iPhone 13 手机壳 透明 防摔" }, weight: 99_000, isDeleted: true }]))[0],
    noWeight: (await addProducts(t, [{ title: { zh: "iPhone 13 手机壳 透明 防摔 新款" }, weight: null }]))[0],
    zeroWeight: (await addProducts(t, [{ title: { zh: "iPhone 13 手机壳 透明 防摔 款" }, weight: 0 }]))[0],
    otherTenant: (await addProducts(other, [{ title: { zh: "iPhone 13 手机壳 透明 防摔" }, weight: 77_000 }]))[0],
    // Unrelated products with a weight.
    cup: (await addProducts(t, [{ title: { zh: "不锈钢 保温杯 500ml" }, weight: 350 }]))[0],
  };
});
afterAll(() => s?.close());

describe("PredictWightByTitle", () => {
  it("takes the weight from similar phone cases for a phone case", async () => {
    const r = await prediction(t.token, { title: "iPhone 13 手机壳 透明 防摔 全包" });
    expect(r.hasBasis).toBe(true);
    expect(r.neighbours.length).toBeGreaterThan(0);
    expect(r.neighbours.length).toBeLessThanOrEqual(5);
    for (const n of r.neighbours) expect(cases).toContain(n.id);
    expect(r.weight).toBeGreaterThanOrEqual(38);
    expect(r.weight).toBeLessThanOrEqual(45);
    expect(Number.isInteger(r.weight)).toBe(true);
    // The nearest first, each with its evidence.
    expect(r.neighbours[0]).toEqual({ id: cases[0], title: "iPhone 13 手机壳 透明 防摔", weight: 40, similarity: expect.any(Number) });
    const sims = r.neighbours.map((n) => n.similarity);
    expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    for (const x of sims) expect(x).toBeGreaterThanOrEqual(0.3);
    expect(r.message).toContain(String(r.neighbours.length));
  });

  it("takes the weight from coats for a coat", async () => {
    const r = await prediction(t.token, { title: "2025 冬季 加厚 羽绒服 女 长款" });
    expect(r.hasBasis).toBe(true);
    for (const n of r.neighbours) expect(coats).toContain(n.id);
    expect(r.weight).toBeGreaterThanOrEqual(900);
    expect(r.weight).toBeLessThanOrEqual(1500);
  });

  it("finds a product by any language of its title (translations do not dilute the match)", async () => {
    const r = await prediction(t.token, { title: "funda de silicona para iphone 13" });
    expect(r.neighbours[0]).toMatchObject({ id: cases[2], weight: 38 });
    expect(r.neighbours[0].similarity).toBeGreaterThan(0.9);
    const en = await prediction(t.token, { title: "WOMEN WINTER DOWN COAT" });
    expect(en.neighbours[0]).toMatchObject({ id: coats[2], weight: 1500 });
  });

  it("never uses deleted, weightless or another tenant's products, nor the product itself", async () => {
    const r = await prediction(t.token, { title: "iPhone 13 手机壳 透明 防摔", productId: cases[0] });
    const ids = r.neighbours.map((n) => n.id);
    expect(ids).not.toContain(cases[0]);
    for (const d of Object.values(distractors)) expect(ids).not.toContain(d);
    expect(r.weight).toBeLessThan(100);
    // The other tenant sees only its own product.
    const theirs = await prediction(other.token, { title: "iPhone 13 手机壳 透明 防摔" });
    expect(theirs.neighbours.map((n) => n.id)).toEqual([distractors.otherTenant]);
    expect(theirs.weight).toBe(77_000);
  });

  it("uses only a sub-account's own products", async () => {
    expect(await prediction(sub.token, { title: "iPhone 13 手机壳 透明 防摔" })).toEqual({
      weight: null,
      hasBasis: false,
      message: NO_BASIS_MESSAGE,
      neighbours: [],
    });
    const [own] = await addProducts(t, [{ title: { zh: "iPhone 13 手机壳 卡通" }, weight: 55, userId: sub.id }]);
    const r = await prediction(sub.token, { title: "iPhone 13 手机壳 透明 防摔" });
    expect(r).toMatchObject({ weight: 55, hasBasis: true, neighbours: [{ id: own, weight: 55 }] });
    // The main account sees the sub-account's product among the tenant's.
    const main = await prediction(t.token, { title: "iPhone 13 手机壳 卡通" });
    expect(main.neighbours[0].id).toBe(own);
  });

  it("answers no basis when nothing similar has a weight", async () => {
    const none = { weight: null, hasBasis: false, message: "没有可参考的相似商品（需要先有填写了重量的商品）", neighbours: [] };
    const fresh = await s.createTenant();
    expect(await prediction(fresh.token, { title: "iPhone 13 手机壳" })).toEqual(none);
    expect(await prediction(t.token, { title: "汽车 轮胎 修补 工具" })).toEqual(none);
  });

  it("answers bad input with 400", async () => {
    for (const body of [
      {},
      { title: "" },
      { title: "   " },
      { title: 42 },
      { title: "x".repeat(1001) },
      { title: "ok", productId: "not-a-guid" },
      [{ title: "ok" }],
    ]) {
      const res = await predict(t.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await s.api("POST", "/api/Product/PredictWightByTitle", { body: { title: "x" } })).status).toBe(401);
  });
});

describe("weightedMedian", () => {
  it("lets a near-identical title outweigh several loose ones", () => {
    expect(
      weightedMedian([
        { weight: 40, similarity: 1 },
        { weight: 150, similarity: 0.35 },
        { weight: 150, similarity: 0.34 },
        { weight: 150, similarity: 0.33 },
      ]),
    ).toBe(40);
  });
  it("ignores a lone outlier and averages an exact tie", () => {
    expect(
      weightedMedian([
        { weight: 40, similarity: 0.6 },
        { weight: 42, similarity: 0.6 },
        { weight: 5000, similarity: 0.6 },
      ]),
    ).toBe(42);
    expect(
      weightedMedian([
        { weight: 100, similarity: 0.5 },
        { weight: 200, similarity: 0.5 },
      ]),
    ).toBe(150);
    expect(weightedMedian([{ weight: 7, similarity: 0.3 }])).toBe(7);
  });
});

describe("the neighbour query", () => {
  it("is served by the trigram index over a few thousand products", async () => {
    // Two tenants with 4,000 weighted products each; one statement per tenant (the trigger fills search_text).
    const big = await s.createTenant();
    const neighbour = await s.createTenant();
    for (const x of [big, neighbour]) {
      await inScope(s.database.db, { tenantId: x.tenantId }, (tx) =>
        tx.execute(sql`insert into products (tenant_id, id, user_id, title, weight)
          select ${x.tenantId}, gen_random_uuid(), ${x.userId},
            jsonb_build_object(
              'zh', (array['新款','加厚','透明','防摔','韩版','简约','大容量','便携','磨砂','高端'])[1 + (i / 10) % 10] || ' ' ||
                (array['手机壳','羽绒服','保温杯','数据线','蓝牙耳机','瑜伽垫','双肩包','台灯','运动鞋','儿童玩具'])[1 + i % 10] ||
                ' 型号' || i,
              'en', 'model ' || i || ' item'),
            10 + i % 500
          from generate_series(0, 3999) i`),
      );
    }
    // As autovacuum leaves it: statistics current and the GIN pending list merged into the index.
    await s.database.db.execute(sql`vacuum analyze products`);
    const title = "防摔 蓝牙耳机 型号1234";
    // As the call runs it: in the host-all scope with the tenant explicit (see predict-weight.ts).
    const plan = await inScope(s.database.db, hostAllScope, async (tx) => {
      await tx.execute(neighbourSettings);
      const ctx = { tenantId: big.tenantId, user: { id: big.userId, isMainAccount: true, isHost: false } };
      return rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql`explain ${neighboursQuery(ctx as never, title, null)}`))
        .map((r) => r["QUERY PLAN"])
        .join("\n");
    });
    expect(plan, plan).toContain("products_live_search_trgm_idx");
    const r = await prediction(big.token, { title });
    expect(r.neighbours[0]).toMatchObject({ title, weight: 10 + (1234 % 500), similarity: 1 });
    expect(r.neighbours).toHaveLength(5);
  });
});
