// Collected products through the real HTTP stack: the extension's collect (upsert by source item, limits, the
// infringement rule), the list and its filters, edits, batch calls, settings, screening, the move to products, who
// sees what (sub-account, main account, another tenant), bad input (400, nothing changed), and the areas it joins
// (ClearSubAccountInfo, the workbench).
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collections, infringementWords, products } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { CollectStatus, InfringementRuleType, PlatformType, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { collectListItem } from "#shared/contract/collect.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;
let sub1: { id: string; token: string; userName: string };
let sub2: { id: string; token: string; userName: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
  sub1 = await s.createSubUser(a);
  sub2 = await s.createSubUser(a);
});
afterAll(() => s?.close());

export function product(itemId: string, over: Record<string, unknown> = {}) {
  return {
    platform: "1688",
    itemId,
    sourceUrl: `https://detail.1688.com/offer/${itemId}.html`,
    title: { zh: `女装连衣裙 ${itemId}` },
    titleLanguage: "zh",
    currency: "CNY",
    price: 12.5,
    originalPrice: 15,
    images: ["https://img.example.com/a.jpg", "https://img.example.com/b.jpg", "https://img.example.com/c.jpg"],
    attributes: [{ name: "材质", value: "棉" }],
    options: [
      {
        name: "颜色",
        values: [
          { id: "r", name: "红" },
          { id: "b", name: "蓝" },
        ],
      },
    ],
    variants: [
      { sku: `${itemId}-r`, optionValues: ["r"], price: 12.5, originalPrice: 15, stock: 10, weightG: 300 },
      { sku: `${itemId}-b`, optionValues: ["b"], price: 13, originalPrice: 16, stock: 5 },
    ],
    ...over,
  };
}

const collect = (token: string, body: unknown) => s.api("POST", "/api/Collect/CrawlProductByPlugin", { token, body });
const list = (token: string, body: Record<string, unknown> = {}) => s.api("POST", "/api/Collect/GetCollect", { token, body });
const countRows = async (tenantId: string) =>
  (await inScope(s.database.db, hostAllScope, (tx) => tx.select().from(collections).where(eq(collections.tenantId, tenantId)))).length;

describe("CrawlProductByPlugin", () => {
  it("stores a partial product; the list marks what the page showed but did not come out", async () => {
    const partial = product("p150", { incompleteFields: ["price", "variants"], options: [], variants: [] });
    const r = await collect(a.token, partial);
    expect(r.status, r.raw).toBe(200);
    const row = (await list(a.token, { ids: [r.body.result.id] })).body.result.items[0];
    expect(row).toMatchObject({ id: r.body.result.id, incompleteFields: ["price", "variants"] });
    const whole = await collect(a.token, product("p151"));
    expect((await list(a.token, { ids: [whole.body.result.id] })).body.result.items[0].incompleteFields).toEqual([]);
    expect((await collect(a.token, product("p152", { incompleteFields: ["colour"] }))).status).toBe(400);
  });

  it("stores a new collection and answers its id; the same source item again is the same collection", async () => {
    const first = await collect(a.token, product("p100"));
    expect(first.status, first.raw).toBe(200);
    expect(first.body.result).toEqual({ id: expect.any(String), isNew: true, infringementWord: null });
    const again = await collect(a.token, product("p100", { title: { zh: "新标题 p100" } }));
    expect(again.body.result).toEqual({ id: first.body.result.id, isNew: false, infringementWord: null });
    const detail = await s.api("GET", "/api/Collect/GetCollectById", { token: a.token, query: { id: first.body.result.id } });
    expect(detail.status).toBe(200);
    expect(detail.body.result).toMatchObject({
      id: first.body.result.id,
      platformType: PlatformType.Alibaba1688,
      status: CollectStatus.Collected,
      sku: "p100",
      itemId: "p100",
      title: { zh: "新标题 p100" },
      currency: "CNY",
      // Original prices by default (the tenant's isDiscountPrice is off): 15 and 16.
      price: "15.00",
      priceMax: "16.00",
      stock: 15,
      weight: "300.00",
      image: "https://img.example.com/a.jpg",
      owner: "boss",
      userId: a.userId,
      infringementWord: null,
    });
    expect(detail.body.result.variants[1]).toEqual({
      sku: "p100-b",
      price: "16.00",
      originalPrice: "16.00",
      discountPrice: "13.00",
      stock: 5,
      images: [],
      variant_Key: ["颜色"],
      variant_Values: ["蓝"],
      weight: null,
    });
    // Another user collecting the same item gets a collection of its own.
    const bySub = await collect(sub1.token, product("p100"));
    expect(bySub.body.result.isNew).toBe(true);
    expect(bySub.body.result.id).not.toBe(first.body.result.id);
  });

  it("keeps a 19-digit item id exact", async () => {
    const big = "9223372036854775807123";
    const res = await collect(
      a.token,
      product(big, { platform: "pinduoduo", sourceUrl: `https://mobile.yangkeduo.com/goods.html?goods_id=${big}` }),
    );
    expect(res.status).toBe(200);
    const detail = await s.api("GET", "/api/Collect/GetCollectById", { token: a.token, query: { id: res.body.result.id } });
    expect(detail.body.result).toMatchObject({ sku: big, platformType: PlatformType.Pinduoduo });
  });

  it.each([
    ["no item id", { itemId: undefined }, "itemId"],
    ["an unknown platform", { platform: "ebay" }, "platform"],
    ["a javascript: source URL", { sourceUrl: "javascript:alert(1)" }, "sourceUrl"],
    ["a price as text", { price: "12.5" }, "price"],
    ["a negative price", { price: -1 }, "price"],
    ["no title in its language", { title: { en: "dress" } }, "title"],
    ["a variant naming an unknown option value", { variants: [{ sku: "x", optionValues: ["green"] }] }, "variants"],
    [
      "two variants with one sku",
      {
        variants: [
          { sku: "x", optionValues: ["r"] },
          { sku: "x", optionValues: ["b"] },
        ],
      },
      "variants",
    ],
    ["a 2,000-character title", { title: { zh: "长".repeat(2000) } }, "title"],
  ])("refuses %s with 400 and stores nothing", async (_what, over, member) => {
    const before = await countRows(b.tenantId);
    const res = await collect(b.token, product("bad1", over));
    expect(res.status, res.raw).toBe(400);
    expect(res.headers["_abperrorformat"]).toBe("true");
    expect(JSON.stringify(res.body.error.validationErrors)).toContain(member);
    expect(await countRows(b.tenantId)).toBe(before);
  });

  it("holds a sub-account to its collect limit with a clear message; re-collecting a collected item still works", async () => {
    const limited = await s.createSubUser(a, undefined, { collectCount: 2 });
    expect((await collect(limited.token, product("lim1"))).status).toBe(200);
    expect((await collect(limited.token, product("lim2"))).status).toBe(200);
    const over = await collect(limited.token, product("lim3"));
    expect(over.status).toBe(403);
    expect(over.body.error.message).toBe("已达到采集数量上限（2 个），请删除不需要的采集商品或联系主账号提高上限");
    expect(over.body.error.code).toBe("Collect.LimitReached");
    const refresh = await collect(limited.token, product("lim1", { price: 20 }));
    expect(refresh.body.result.isNew).toBe(false);
    // The crawler refuses up front too.
    const tool = await s.api("POST", "/api/Collect/CrawlProductByTool", {
      token: limited.token,
      body: { urls: [{ url: "https://detail.1688.com/offer/9.html" }] },
    });
    expect(tool.status).toBe(403);
    const zero = await s.createSubUser(a, undefined, { collectCount: 0 });
    expect((await collect(zero.token, product("z1"))).status).toBe(403);
  });

  it("needs a login", async () => {
    expect((await collect("", product("x"))).status).toBe(401);
  });
});

describe("GetCollect and GetCollectById visibility", () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    ids = {};
    const t = await s.createTenant();
    const m = await s.createSubUser(t);
    const n = await s.createSubUser(t);
    ids.tenant = t.tenantId;
    ids.main = (await collect(t.token, product("v-main"))).body.result.id;
    ids.m = (await collect(m.token, product("v-m"))).body.result.id;
    ids.n = (await collect(n.token, product("v-n"))).body.result.id;
    Object.assign(visibility, { t, m, n });
  });
  const visibility: { t?: TestTenant; m?: { token: string; id: string }; n?: { token: string } } = {};

  it("shows a main account every collection of its tenant and a sub-account only its own", async () => {
    const { t, m, n } = visibility;
    const all = await list(t!.token);
    expect(all.body.result.totalCount).toBe(3);
    const mine = await list(m!.token);
    expect(mine.body.result.items.map((i: { id: string }) => i.id)).toEqual([ids.m]);
    expect(mine.body.result.items[0].owner).toBe((await s.api("GET", "/api/User/GetUserInfo", { token: m!.token })).body.result.userName);
    expect((await s.api("GET", "/api/Collect/GetCollectById", { token: n!.token, query: { id: ids.m } })).status).toBe(404);
    expect((await s.api("GET", "/api/Collect/GetCollectById", { token: t!.token, query: { id: ids.m } })).status).toBe(200);
    // A sub-account cannot change or delete another's collection.
    expect((await s.api("POST", "/api/Collect/UpdateCollect", { token: n!.token, body: { id: ids.m, price: 1 } })).status).toBe(404);
    expect((await s.api("POST", "/api/Collect/DeleteCollect", { token: n!.token, body: { id: ids.m } })).status).toBe(404);
    const batch = await s.api("POST", "/api/Collect/BatchDeleteCollects", { token: n!.token, body: { ids: [ids.m, ids.main] } });
    expect(batch.body.result).toEqual({ count: 0 });
  });

  it("keeps a sub-account's filters, title search and sorts within its own collections", async () => {
    const { t, m } = visibility;
    const own = (r: { body: { result: { items: { id: string }[]; totalCount: number } } }) => [
      r.body.result.items.map((i) => i.id),
      r.body.result.totalCount,
    ];
    expect(own(await list(m!.token, { title: "连衣裙" }))).toEqual([[ids.m], 1]);
    expect(own(await list(m!.token, { sorting: "price desc", status: CollectStatus.Collected }))).toEqual([[ids.m], 1]);
    expect(own(await list(m!.token, { ids: [ids.main, ids.n, ids.m] }))).toEqual([[ids.m], 1]);
    expect(own(await list(m!.token, { userId: t!.userId }))).toEqual([[], 0]);
    expect(own(await list(t!.token, { userId: m!.id }))).toEqual([[ids.m], 1]);
  });

  it("shows another tenant nothing, even by id", async () => {
    expect((await list(b.token, { title: "v-main", sorting: "price desc" })).body.result).toEqual({
      items: [],
      totalCount: 0,
      totalCountCapped: false,
    });
    expect((await list(b.token, { ids: [ids.m, ids.main] })).body.result).toEqual({ items: [], totalCount: 0, totalCountCapped: false });
    expect((await s.api("GET", "/api/Collect/GetCollectById", { token: b.token, query: { id: ids.main } })).status).toBe(404);
    const status = await s.api("POST", "/api/Collect/BatchUpdateCollectStatus", { token: b.token, body: { ids: [ids.main], status: 3 } });
    expect(status.body.result).toEqual({ count: 0 });
    const forged = await s.api("POST", "/api/Collect/GetCollect", { token: b.token, tenant: ids.tenant, body: {} });
    expect(forged.status).toBe(403);
  });
});

describe("GetCollect filters, sorting and paging", () => {
  let t: TestTenant;
  const id: Record<string, string> = {};
  beforeAll(async () => {
    t = await s.createTenant();
    id.cheap = (await collect(t.token, product("f1", { price: 5, originalPrice: undefined, variants: [], options: [] }))).body.result.id;
    id.mid = (
      await collect(t.token, product("f2", { price: 50, originalPrice: undefined, variants: [], options: [], platform: "taobao" }))
    ).body.result.id;
    id.dear = (
      await collect(t.token, product("f3", { price: 500, originalPrice: undefined, variants: [], options: [], currency: "USD" }))
    ).body.result.id;
  });
  const names = (r: { body: { result: { items: { id: string }[] } } }) =>
    r.body.result.items.map((i) => Object.keys(id).find((k) => id[k] === i.id));

  it("filters by price range, platform, currency, sku, title and status", async () => {
    expect(names(await list(t.token, { minPrice: 10, maxPrice: 100 }))).toEqual(["mid"]);
    expect(names(await list(t.token, { platformType: PlatformType.Taobao }))).toEqual(["mid"]);
    expect(names(await list(t.token, { currrency: "usd" }))).toEqual(["dear"]);
    expect(names(await list(t.token, { sku: "f1" }))).toEqual(["cheap"]);
    expect(names(await list(t.token, { title: "连衣裙 F3" }))).toEqual(["dear"]);
    expect(names(await list(t.token, { title: "%" }))).toEqual([]);
    const st = await s.api("POST", "/api/Collect/BatchUpdateCollectStatus", {
      token: t.token,
      body: { ids: [id.cheap], status: CollectStatus.Ignored },
    });
    expect(st.body.result).toEqual({ count: 1 });
    expect(names(await list(t.token, { status: CollectStatus.Ignored }))).toEqual(["cheap"]);
    expect(names(await list(t.token, { startDate: "2000-01-01", endDate: new Date(Date.now() + 60_000).toISOString() }))).toHaveLength(3);
    expect(names(await list(t.token, { endDate: "2000-01-01" }))).toEqual([]);
  });

  it("sorts on the whitelist and pages with the total", async () => {
    expect(names(await list(t.token, { sorting: "price desc" }))).toEqual(["dear", "mid", "cheap"]);
    expect(names(await list(t.token, { sorting: "price" }))).toEqual(["cheap", "mid", "dear"]);
    const p = await list(t.token, { sorting: "price", skipCount: 1, maxResultCount: 1 });
    expect(p.body.result.totalCount).toBe(3);
    expect(names(p)).toEqual(["mid"]);
  });

  it("sorts by a field, then newest first", async () => {
    const u = await s.createTenant();
    const first = (await collect(u.token, product("s1"))).body.result.id;
    const second = (await collect(u.token, product("s2"))).body.result.id;
    const third = (await collect(u.token, product("s3"))).body.result.id;
    const order = async (sorting: string) => (await list(u.token, { sorting })).body.result.items.map((i: { id: string }) => i.id);
    expect(await order("status")).toEqual([third, second, first]);
    await s.api("POST", "/api/Collect/BatchUpdateCollectStatus", {
      token: u.token,
      body: { ids: [second], status: CollectStatus.Ignored },
    });
    expect(await order("status")).toEqual([third, first, second]);
    expect(await order("status desc")).toEqual([second, third, first]);
    expect(await order("creationTime")).toEqual([first, second, third]);
    expect(await order("platformType desc")).toEqual([third, second, first]);
  });

  it("answers each row as the detail shows the collection (the row PostgreSQL builds is the list item)", async () => {
    const partial = await collect(t.token, product("f4", { incompleteFields: ["price"], options: [], variants: [] }));
    expect(partial.status, partial.raw).toBe(200);
    const noPrice = await s.api("POST", "/api/Collect/UpdateCollect", {
      token: t.token,
      body: { id: partial.body.result.id, price: null },
    });
    expect(noPrice.status, noPrice.raw).toBe(200);
    const items = (await list(t.token)).body.result.items as { id: string }[];
    expect(items.length).toBeGreaterThanOrEqual(4);
    const keys = Object.keys(collectListItem.shape);
    for (const item of items) {
      const detail = (await s.api("GET", "/api/Collect/GetCollectById", { token: t.token, query: { id: item.id } })).body.result;
      expect(item).toEqual(Object.fromEntries(keys.map((k) => [k, detail[k]])));
    }
    expect(items.find((i) => i.id === partial.body.result.id)).toMatchObject({ price: null, incompleteFields: ["price"] });
  });

  it.each([
    [{ sorting: "titleText; drop table collections" }],
    [{ maxResultCount: 1001 }],
    [{ status: 9 }],
    [{ platformType: 11 }],
    [{ startDate: "yesterday" }],
    [{ ids: ["not-a-guid"] }],
    [{ minPrice: 10, maxPrice: 1 }],
    [{ startDate: "2024-02-01", endDate: "2024-01-01" }],
  ])("refuses %j with 400", async (body) => {
    const res = await list(t.token, body);
    expect(res.status, res.raw).toBe(400);
  });
});

describe("UpdateCollect, DeleteCollect, BatchDeleteCollects", () => {
  it("edits fields, answers 409 on a stale stamp and 400 on bad input without changing anything", async () => {
    const created = (await collect(a.token, product("u1"))).body.result.id;
    const before = (await s.api("GET", "/api/Collect/GetCollectById", { token: a.token, query: { id: created } })).body.result;
    const res = await s.api("POST", "/api/Collect/UpdateCollect", {
      token: a.token,
      body: {
        id: created,
        title: { zh: "改过的标题", es: "Vestido" },
        price: 88.8,
        weight: 250,
        concurrencyStamp: before.concurrencyStamp,
      },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ title: { zh: "改过的标题", es: "Vestido" }, price: "88.80", weight: "250.00" });
    const stale = await s.api("POST", "/api/Collect/UpdateCollect", {
      token: a.token,
      body: { id: created, price: 1, concurrencyStamp: before.concurrencyStamp },
    });
    expect(stale.status).toBe(409);
    for (const bad of [
      { price: -5 },
      { images: ["ftp://x/y.jpg"] },
      { status: 7 },
      { title: { "bad key!": "x" } },
      { title: { zh: "  " } },
    ]) {
      const r = await s.api("POST", "/api/Collect/UpdateCollect", { token: a.token, body: { id: created, ...bad } });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const after = (await s.api("GET", "/api/Collect/GetCollectById", { token: a.token, query: { id: created } })).body.result;
    expect(after.price).toBe("88.80");
    expect(after.title).toEqual({ zh: "改过的标题", es: "Vestido" });
  });

  it("deletes one (404 when it is gone) and many (counting what it deleted)", async () => {
    const one = (await collect(a.token, product("d1"))).body.result.id;
    const two = (await collect(a.token, product("d2"))).body.result.id;
    const three = (await collect(a.token, product("d3"))).body.result.id;
    expect((await s.api("POST", "/api/Collect/DeleteCollect", { token: a.token, body: { id: one } })).status).toBe(204);
    expect((await s.api("POST", "/api/Collect/DeleteCollect", { token: a.token, body: { id: one } })).status).toBe(404);
    const many = await s.api("POST", "/api/Collect/BatchDeleteCollects", { token: a.token, body: { ids: [two, three, randomUUID()] } });
    expect(many.body.result).toEqual({ count: 2 });
    expect((await s.api("POST", "/api/Collect/BatchDeleteCollects", { token: a.token, body: { ids: [] } })).status).toBe(400);
  });
});

describe("GetCrawledSkus", () => {
  it("answers which of the given item ids the caller has collected", async () => {
    await collect(sub2.token, product("s1"));
    await collect(sub2.token, product("s2", { platform: "taobao" }));
    const res = await s.api("POST", "/api/Collect/GetCrawledSkus", { token: sub2.token, body: { skus: ["s1", "s2", "s3", "s1"] } });
    expect(res.body.result).toEqual(["s1", "s2"]);
    const only1688 = await s.api("POST", "/api/Collect/GetCrawledSkus", {
      token: sub2.token,
      body: { skus: ["s1", "s2"], platform: "1688" },
    });
    expect(only1688.body.result).toEqual(["s1"]);
    // Another user of the tenant has not collected them.
    expect((await s.api("POST", "/api/Collect/GetCrawledSkus", { token: sub1.token, body: { skus: ["s1", "s2"] } })).body.result).toEqual(
      [],
    );
  });
});

describe("collect settings", () => {
  it("answers defaults, lets the main account change them (not a sub-account), and applies them to the next collect", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    expect((await s.api("GET", "/api/Collect/GetCollectConfig", { token: sub.token })).body.result).toEqual({
      isDiscountPrice: false,
      maxImageCount: 20,
      maxVariantCount: 200,
      isCollectDescription: true,
      isCollectVideo: true,
      lastModificationTime: null,
    });
    expect((await s.api("POST", "/api/Collect/UpdateCollcetConfig", { token: sub.token, body: { maxImageCount: 1 } })).status).toBe(403);
    expect((await s.api("POST", "/api/Collect/UpdateCollcetConfig", { token: t.token, body: { maxImageCount: 0 } })).status).toBe(400);
    const res = await s.api("POST", "/api/Collect/UpdateCollcetConfig", {
      token: t.token,
      body: { maxImageCount: 1, isDiscountPrice: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ maxImageCount: 1, isDiscountPrice: true, maxVariantCount: 200 });
    const id = (await collect(sub.token, product("cfg1"))).body.result.id;
    const detail = (await s.api("GET", "/api/Collect/GetCollectById", { token: sub.token, query: { id } })).body.result;
    expect(detail.images).toEqual(["https://img.example.com/a.jpg"]);
    expect(detail.price).toBe("12.50"); // the discounted price
    // The extension may choose per collect.
    const own = (await collect(sub.token, product("cfg2", { isDiscountPrice: false }))).body.result.id;
    expect((await s.api("GET", "/api/Collect/GetCollectById", { token: sub.token, query: { id: own } })).body.result.price).toBe("15.00");
  });
});

describe("infringement rule and screening", () => {
  let t: TestTenant;
  beforeAll(async () => {
    t = await s.createTenant();
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx
        .insert(infringementWords)
        .values(
          ["Nike", "迪士尼", "cat"].map((word) => ({ tenantId: t.tenantId, id: randomUUID(), word, normalizedWord: word.toLowerCase() })),
        ),
    );
  });

  it("flags a product with an infringement word while collecting is allowed (the default)", async () => {
    const setting = await s.api("GET", "/api/InfringementWord/GetInfringementRuleSetting", { token: t.token });
    expect(setting.body.result).toEqual({ id: null, isAllowCollected: true, infringementRuleType: InfringementRuleType.Contains });
    const res = await collect(t.token, product("i1", { title: { zh: "迪士尼公主裙", en: "NIKE style dress" } }));
    expect(res.status).toBe(200);
    expect(res.body.result.infringementWord).toBe("Nike");
    expect((await list(t.token, { hasInfringement: true })).body.result.totalCount).toBe(1);
  });

  it("refuses it once the rule says so, and matches whole words when asked", async () => {
    const sub = await s.createSubUser(t);
    expect(
      (
        await s.api("POST", "/api/InfringementWord/UpdateInfringementRuleSetting", {
          token: sub.token,
          body: { isAllowCollected: false, infringementRuleType: 1 },
        })
      ).status,
    ).toBe(403);
    const set = await s.api("POST", "/api/InfringementWord/UpdateInfringementRuleSetting", {
      token: t.token,
      body: { isAllowCollected: false, infringementRuleType: InfringementRuleType.WholeWord },
    });
    expect(set.body.result).toMatchObject({ id: expect.any(String), isAllowCollected: false, infringementRuleType: 2 });
    const refused = await collect(t.token, product("i2", { title: { en: "Nike air shoes" }, titleLanguage: "en" }));
    expect(refused.status, refused.raw).toBe(403);
    expect(refused.body.error.message).toContain("Nike");
    // "cat" inside "category" is not a whole word.
    const ok = await collect(t.token, product("i3", { title: { en: "category dress (c.a.t)" }, titleLanguage: "en" }));
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.result.infringementWord).toBeNull();
    const bad = await s.api("POST", "/api/InfringementWord/UpdateInfringementRuleSetting", {
      token: t.token,
      body: { isAllowCollected: true, infringementRuleType: 3 },
    });
    expect(bad.status).toBe(400);
  });

  it("screens existing collections in one call with the tenant's rule", async () => {
    await s.api("POST", "/api/InfringementWord/UpdateInfringementRuleSetting", {
      token: t.token,
      body: { isAllowCollected: true, infringementRuleType: InfringementRuleType.Contains },
    });
    const plain = (await collect(t.token, product("i4", { title: { en: "a cat dress" }, titleLanguage: "en" }))).body.result.id;
    const clean = (await collect(t.token, product("i5", { title: { zh: "普通连衣裙" } }))).body.result.id;
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.update(collections).set({ infringementWord: null }).where(eq(collections.tenantId, t.tenantId)),
    );
    const res = await s.api("POST", "/api/Collect/ScreeningforInfringement", { token: t.token, body: { ids: [plain, clean] } });
    expect(res.body.result).toEqual({ count: 2, flagged: 1 });
    expect((await s.api("GET", "/api/Collect/GetCollectById", { token: t.token, query: { id: plain } })).body.result.infringementWord).toBe(
      "cat",
    );
    // Another tenant's ids are not screened.
    expect((await s.api("POST", "/api/Collect/ScreeningforInfringement", { token: b.token, body: { ids: [plain] } })).body.result).toEqual({
      count: 0,
      flagged: 0,
    });
  });
});

describe("MigratToProduct", () => {
  it("creates one product per collection, marks them migrated, and ignores ones already moved", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t, undefined, { productCount: 1 });
    const c1 = (await collect(t.token, product("m1"))).body.result.id;
    const c2 = (await collect(t.token, product("m2"))).body.result.id;
    const res = await s.api("POST", "/api/Collect/MigratToProduct", { token: t.token, body: { ids: [c1, c2] } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ successCount: 2, ignoreCount: 0 });
    const rows = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.select().from(products).where(eq(products.tenantId, t.tenantId)),
    );
    expect(rows.map((r) => r.sourceCollectionId).sort()).toEqual([c1, c2].sort());
    expect(rows.find((r) => r.sourceCollectionId === c1)).toMatchObject({
      userId: t.userId,
      titleText: "女装连衣裙 m1",
      price: "15.00",
      itemId: "m1",
    });
    expect((await s.api("GET", "/api/Collect/GetCollectById", { token: t.token, query: { id: c1 } })).body.result.status).toBe(
      CollectStatus.Migrated,
    );
    const again = await s.api("POST", "/api/Collect/MigratToProduct", { token: t.token, body: { ids: [c1] } });
    expect(again.body.result).toEqual({ successCount: 0, ignoreCount: 1, productIds: [] });
    // The owner's product limit.
    const s1 = (await collect(sub.token, product("m3"))).body.result.id;
    const s2 = (await collect(sub.token, product("m4"))).body.result.id;
    const over = await s.api("POST", "/api/Collect/MigratToProduct", { token: sub.token, body: { ids: [s1, s2] } });
    expect(over.status).toBe(403);
    expect(over.body.error.message).toContain("产品数量将超过上限");
    expect((await s.api("POST", "/api/Collect/MigratToProduct", { token: sub.token, body: { ids: [s1] } })).body.result.successCount).toBe(
      1,
    );
    // Nothing of another tenant's.
    expect((await s.api("POST", "/api/Collect/MigratToProduct", { token: b.token, body: { ids: [c2] } })).status).toBe(404);
  });
});

describe("what the collection centre adds to other areas", () => {
  it("ClearSubAccountInfo removes the sub-account's collections", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    await collect(sub.token, product("c1"));
    await collect(t.token, product("c2"));
    const res = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: t.token, query: { id: sub.id } });
    expect(res.status).toBe(200);
    const deadline = Date.now() + 20_000;
    let left = -1;
    while (Date.now() < deadline) {
      left = (
        await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
          tx
            .select()
            .from(collections)
            .where(and(eq(collections.tenantId, t.tenantId), eq(collections.userId, sub.id))),
        )
      ).length;
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(left).toBe(0);
    expect(await countRows(t.tenantId)).toBe(1);
    const tasks = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", {
      token: t.token,
      query: { TaskType: TaskType.ClearSubAccountInfo },
    });
    expect(tasks.body.result.items[0].taskStatus).toBe(TaskStatus.Succeeded);
  });

  it("the workbench shows a collections card and a daily trend", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    const one = (await collect(t.token, product("w1", { title: { zh: "Nike 裙" } }))).body.result.id;
    await collect(sub.token, product("w2"));
    await s.api("POST", "/api/Collect/BatchUpdateCollectStatus", { token: t.token, body: { ids: [one], status: CollectStatus.Migrated } });
    const main = (await s.api("GET", "/api/Workbench/GetWorkbenchInfo", { token: t.token })).body.result;
    expect(main.cards.find((c: { key: string }) => c.key === "collections")).toEqual({
      key: "collections",
      title: "采集商品",
      value: 2,
      hint: "已移入产品 1 · 侵权标记 0",
    });
    const trend = main.trends.find((x: { key: string }) => x.key === "collections.created");
    expect(trend.points.at(-1).value).toBe(2);
    const mine = (await s.api("GET", "/api/Workbench/GetWorkbenchInfo", { token: sub.token })).body.result;
    expect(mine.cards.find((c: { key: string }) => c.key === "collections")).toMatchObject({ title: "我的采集", value: 1 });
  });
});
