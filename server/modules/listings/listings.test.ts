// The listing centre's reads through the real HTTP stack, over listings inserted straight into the table with known
// values: every filter of GetMeliStatsByPage narrows as it should, sorting and paging, the capped count, the tabs'
// counts of GetMeliStatGroupInfo (each without its own filter), MeliStat (local shops) against MeliStatNew
// (cross-border shops), who sees what (a sub-account its shops' listings, another tenant nothing, not even with this
// tenant's shop group id), and bad input answered 400 with the error envelope.
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listings, meliAccountGroups, meliAccounts, meliCategories, products } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { LISTING_COUNT_CAP, type ListingGroupInfo, type ListingRowPage } from "#shared/contract/listings.ts";
import { rowView, SMALL_BASE } from "./list.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;
let sub: { id: string; token: string };

type Listing = typeof listings.$inferInsert;
const day = (d: number) => new Date(Date.UTC(2026, 0, 1 + d));

/** A shop group with one shop account per given site (owner per site), inserted directly. */
async function shop(t: TestTenant, opts: { cbt: boolean; name: string; sites: { site: number; owner: string }[] }) {
  const groupId = randomUUID();
  const accounts: Record<number, string> = {};
  await inScope(s.database.db, { tenantId: t.tenantId }, async (tx) => {
    await tx.insert(meliAccountGroups).values({
      tenantId: t.tenantId,
      id: groupId,
      ownerId: t.userId,
      custId: `cust-${randomUUID().slice(0, 8)}`,
      siteCode: opts.cbt ? "CBT" : "MLM",
      isCbt: opts.cbt,
      name: opts.name,
      sites: opts.sites.map((x) => x.site),
      accessToken: "x",
      refreshToken: "x",
      tokenExpiresAt: new Date(Date.now() + 3600_000),
    });
    for (const x of opts.sites) {
      accounts[x.site] = randomUUID();
      await tx.insert(meliAccounts).values({
        tenantId: t.tenantId,
        id: accounts[x.site],
        groupId,
        ownerId: x.owner,
        site: x.site,
        siteCode: ["", "MLM", "MLB", "MLC", "MCO", "CBT"][x.site],
        custId: `site-${randomUUID().slice(0, 8)}`,
        isCbt: opts.cbt,
        name: `${opts.name}-${x.site}`,
        currency: "MXN",
      });
    }
  });
  return { groupId, accounts };
}

async function insertListings(t: TestTenant, rows: Listing[]): Promise<string[]> {
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.insert(listings).values(rows));
  return rows.map((r) => r.id);
}

async function list(token: string, body: Record<string, unknown> = {}, group = "MeliStat") {
  const res = await s.api("POST", `/api/${group}/GetMeliStatsByPage`, { token, body: { maxResultCount: 1000, ...body } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as ListingRowPage;
}

async function groupInfo(token: string, body: Record<string, unknown> = {}, group = "MeliStat") {
  const res = await s.api("POST", `/api/${group}/GetMeliStatGroupInfo`, { token, body });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as ListingGroupInfo;
}

// Tenant a: a local shop (site 1 the boss's, site 2 given to the sub-account), a second local shop, a cbt shop.
let local: Awaited<ReturnType<typeof shop>>;
let local2: Awaited<ReturnType<typeof shop>>;
let cbt: Awaited<ReturnType<typeof shop>>;
let other: Awaited<ReturnType<typeof shop>>;
let productA: string;
let productB: string;
let labelId: string;
let L: string[]; // the local listings, in insertion order
let C: string[]; // the cbt listings

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
  sub = await s.createSubUser(a);
  local = await shop(a, {
    cbt: false,
    name: "本地店",
    sites: [
      { site: 1, owner: a.userId },
      { site: 2, owner: sub.id },
    ],
  });
  local2 = await shop(a, { cbt: false, name: "二号店", sites: [{ site: 3, owner: a.userId }] });
  cbt = await shop(a, {
    cbt: true,
    name: "跨境店",
    sites: [
      { site: 1, owner: a.userId },
      { site: 2, owner: a.userId },
    ],
  });
  other = await shop(b, { cbt: false, name: "别人的店", sites: [{ site: 1, owner: b.userId }] });
  productA = randomUUID();
  productB = randomUUID();
  labelId = randomUUID();
  await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
    tx.insert(products).values([
      { tenantId: a.tenantId, id: productA, userId: a.userId, title: { zh: "商品甲" }, sku: "SKU-A" },
      { tenantId: a.tenantId, id: productB, userId: sub.id, title: { zh: "商品乙" }, sku: "SKU-B" },
    ]),
  );
  const base = (i: number, over: Partial<Listing>): Listing => ({
    tenantId: a.tenantId,
    id: randomUUID(),
    accountGroupId: local.groupId,
    accountId: local.accounts[1],
    userId: a.userId,
    productId: productA,
    site: 1,
    status: 3,
    creationTime: day(i),
    ...over,
  });
  L = await insertListings(a, [
    // 0: active, site 1, sold and viewed, classic, label
    base(0, {
      itemId: "MLM100",
      title: "Zapatos Rojos",
      price: "10.00",
      stock: 5,
      orders: 3,
      views: 40,
      listingType: "gold_special",
      cateId: "MLM1055",
      productLabelId: labelId,
      lastModificationTime: day(10),
      variantInfos: [{ sku: "VAR-RED", stock: 5 }],
    }),
    // 1: paused, site 1, with a warning
    base(1, {
      itemId: "MLM101",
      title: "Camisa Azul",
      price: "25.50",
      stock: 0,
      status: 4,
      warningMessage: "库存为0",
      listingType: "gold_pro",
      cateId: "MLM2000",
      lastModificationTime: day(20),
    }),
    // 2: refused, site 2 (the sub-account's shop), product B (SKU-B, the sub-account's)
    base(2, {
      accountId: local.accounts[2],
      site: 2,
      userId: sub.id,
      productId: productB,
      status: 7,
      title: "Bolsa Verde",
      reason: "类目属性缺失: 品牌",
      price: "99.00",
      stock: 12,
      views: 2,
    }),
    // 3: skipped before it had an item id (pending publish records belong in the list too)
    base(3, { status: 9, reason: "缺少重量", title: null }),
    // 4: the second local shop, site 3
    base(4, {
      accountGroupId: local2.groupId,
      accountId: local2.accounts[3],
      site: 3,
      itemId: "MLC300",
      title: "Reloj Negro",
      price: "300.00",
      stock: 1,
      orders: 1,
    }),
  ]);
  const cbtRow = (i: number, over: Partial<Listing>): Listing =>
    base(i, { accountGroupId: cbt.groupId, accountId: cbt.accounts[1], cbtId: "CBT900", ...over });
  C = await insertListings(a, [
    cbtRow(5, { itemId: "MLM900", site: 1, status: 4, title: "Lampara" }),
    cbtRow(6, { itemId: "MLB900", site: 2, accountId: cbt.accounts[2], status: 3, title: "Lampada" }),
    cbtRow(7, { itemId: "MLM901", site: 1, status: 3, cbtId: "CBT901", title: "Mesa" }),
  ]);
  await insertListings(b, [
    {
      tenantId: b.tenantId,
      id: randomUUID(),
      accountGroupId: other.groupId,
      accountId: other.accounts[1],
      userId: b.userId,
      productId: randomUUID(),
      site: 1,
      status: 3,
      itemId: "MLM100",
      title: "Zapatos Rojos",
    },
  ]);
});
afterAll(() => s?.close());

const ids = (p: ListingRowPage) => p.items.map((i) => i.id).sort();
const pick = (arr: string[], ...i: number[]) => i.map((n) => arr[n]).sort();

describe("GetMeliStatsByPage (MeliStat: local shops)", () => {
  const found = async (body: Record<string, unknown>) => ids(await list(a.token, body));

  it("lists the tenant's local listings, newest first, with what the list shows", async () => {
    const all = await list(a.token);
    expect(all.items.map((i) => i.id)).toEqual([L[4], L[3], L[2], L[1], L[0]]);
    expect(all).toMatchObject({ totalCount: 5, totalCountCapped: false });
    const first = all.items.find((i) => i.id === L[0])!;
    expect(first).toMatchObject({
      itemId: "MLM100",
      price: 10,
      stock: 5,
      orders: 3,
      views: 40,
      productTitle: "商品甲",
      status: 3,
      listingType: "gold_special",
      variantInfos: [{ sku: "VAR-RED", stock: 5 }],
    });
    expect(all.items.find((i) => i.id === L[3])).toMatchObject({ itemId: null, status: 9, reason: "缺少重量" });
  });

  it("answers each row exactly as the listing's row view, though PostgreSQL builds the page's JSON", async () => {
    // Every column set, a timestamp with microseconds, numerics with trailing zeros and JSON columns.
    await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx
        .update(listings)
        .set({
          health: "87.50",
          weight: "1.20",
          size: "10x20x30",
          cateName: "Zapatos",
          image: "https://img.example/1.jpg",
          permalink: "https://articulo.example/MLM100",
          currency: "MXN",
          priceContent: { cost: 3.5, fee: 1.25, note: "价格" },
          problems: [{ code: "weight", field: "weight", message: "缺少重量", severity: "error" }],
          syncTime: sql`'2026-01-05 10:11:12.345678+00'::timestamptz`,
        })
        .where(and(eq(listings.tenantId, a.tenantId), eq(listings.id, L[0]))),
    );
    const listed = (await list(a.token)).items;
    const views = await inScope(s.database.db, { tenantId: a.tenantId }, async (tx) => {
      const rows = await tx
        .select({ listing: listings, productTitle: products.titleText })
        .from(listings)
        .leftJoin(products, and(eq(products.tenantId, listings.tenantId), eq(products.id, listings.productId)))
        .where(inArray(listings.id, L));
      return rows.map((r) => rowView(r.listing, r.productTitle));
    });
    expect(listed).toHaveLength(L.length);
    for (const row of listed) expect(row).toStrictEqual(views.find((v) => v.id === row.id));
    expect(listed.find((r) => r.id === L[0])).toMatchObject({ health: 87.5, weight: 1.2, syncTime: "2026-01-05T10:11:12.345Z" });
  });

  it("narrows by every filter", async () => {
    expect(await found({ itemIds: ["mlm100", "MLC300", "nope"] })).toEqual(pick(L, 0, 4));
    expect(await found({ startTime: "2026-01-02", endTime: "2026-01-04" })).toEqual(pick(L, 1, 2));
    expect(await found({ sku: "SKU-B" })).toEqual(pick(L, 2)); // the product's SKU
    expect(await found({ sku: "VAR-RED" })).toEqual([]); // variant SKUs are not searched (no index under the tenant policy)
    expect(await found({ sku: "NONE" })).toEqual([]);
    expect(await found({ productIds: [productB] })).toEqual(pick(L, 2));
    expect(await found({ minPrice: 20, maxPrice: 100 })).toEqual(pick(L, 1, 2));
    expect(await found({ minStock: 1, maxStock: 5 })).toEqual(pick(L, 0, 4));
    expect(await found({ maxStock: 0 })).toEqual(pick(L, 1));
    expect(await found({ site: 2 })).toEqual(pick(L, 2));
    expect(await found({ accountGroupId: local2.groupId })).toEqual(pick(L, 4));
    expect(await found({ status: 7 })).toEqual(pick(L, 2));
    expect(await found({ status: 9 })).toEqual(pick(L, 3));
    expect(await found({ userId: sub.id })).toEqual(pick(L, 2));
    expect(await found({ reason: "属性缺失" })).toEqual(pick(L, 2));
    expect(await found({ title: "zapatos" })).toEqual(pick(L, 0));
    expect(await found({ title: "%" })).toEqual([]); // taken literally
    expect(await found({ warning: true })).toEqual(pick(L, 1));
    expect(await found({ warning: false })).toEqual(pick(L, 0, 2, 3, 4));
    expect(await found({ lastUpdateStartTime: "2026-01-05", lastUpdateEndTime: "2026-01-15" })).toEqual(pick(L, 0));
    expect(await found({ listingType: "gold_pro" })).toEqual(pick(L, 1));
    expect(await found({ cateId: "mlm1055" })).toEqual(pick(L, 0));
    expect(await found({ productLabelId: labelId })).toEqual(pick(L, 0));
    expect(await found({ hasSold: true })).toEqual(pick(L, 0, 4));
    expect(await found({ hasSold: false })).toEqual(pick(L, 1, 2, 3));
    expect(await found({ hasView: true })).toEqual(pick(L, 0, 2));
    expect(await found({ hasView: false })).toEqual(pick(L, 1, 3, 4));
    expect(await found({ cbtId: "CBT900" })).toEqual([]); // cross-border listings are MeliStatNew's
    // Filters combine.
    expect(await found({ site: 1, hasSold: true, minPrice: 5 })).toEqual(pick(L, 0));
  });

  it("sorts either way and pages without overlap", async () => {
    const byPrice = (await list(a.token, { sorting: "price desc", status: 3 })).items.map((i) => i.price);
    expect(byPrice).toEqual([300, 10]);
    expect((await list(a.token, { sorting: "orders asc" })).items.map((i) => i.orders)).toEqual([0, 0, 0, 1, 3]);
    expect((await list(a.token, { sorting: "views DESC" })).items.map((i) => i.views)).toEqual([40, 2, 0, 0, 0]);
    expect((await list(a.token, { sorting: "stock asc" })).items.map((i) => i.stock)).toEqual([0, 1, 5, 12, null]);
    expect((await list(a.token, { sorting: "creationTime asc" })).items.map((i) => i.id)).toEqual(L);
    const pages: string[] = [];
    for (let skip = 0; skip < 5; skip += 2)
      pages.push(
        ...(await list(a.token, { skipCount: skip, maxResultCount: 2, sorting: "lastModificationTime desc" })).items.map((i) => i.id),
      );
    expect(new Set(pages).size).toBe(5);
    expect(await list(a.token, { skipCount: 10 })).toEqual({ items: [], totalCount: 5, totalCountCapped: false });
  });

  it("names a listing's category by its stored Chinese name, keeping the stored name where there is none", async () => {
    const category = {
      site: 1,
      cateId: "MLM1055",
      level: 1,
      name: "Zapatos",
      zh: "鞋",
      isLeaf: true,
      fullName: "Zapatos",
      pathName: "MLM1055",
    };
    await inScope(s.database.db, hostAllScope, (tx) => tx.insert(meliCategories).values(category));
    try {
      const rows = (await list(a.token, {})).items;
      expect(rows.find((r) => r.id === L[0])!.cateName).toBe("鞋"); // stored as "Zapatos"
      expect(rows.find((r) => r.id === L[1])!.cateName).toBeNull(); // MLM2000: no category row, its own (none)
      // The single-row view (a listing's sync answers it) names it the same way.
      const [row] = await inScope(s.database.db, { tenantId: a.tenantId }, (tx) => tx.select().from(listings).where(eq(listings.id, L[0])));
      expect(rowView(row, "商品甲", "鞋").cateName).toBe("鞋");
    } finally {
      await inScope(s.database.db, hostAllScope, (tx) =>
        tx.delete(meliCategories).where(and(eq(meliCategories.site, 1), eq(meliCategories.cateId, "MLM1055"))),
      );
    }
  });
});

describe("GetMeliStatsByPage (MeliStatNew: cross-border shops)", () => {
  it("lists only cross-border listings, one row per site, and filters by the global item's status", async () => {
    expect(ids(await list(a.token, {}, "MeliStatNew"))).toEqual([...C].sort());
    expect(ids(await list(a.token, { cbtId: "cbt900" }, "MeliStatNew"))).toEqual(pick(C, 0, 1));
    // CBT900 has a paused site (MLM900): both its rows; CBT901 has none.
    expect(ids(await list(a.token, { cbtStatus: 4 }, "MeliStatNew"))).toEqual(pick(C, 0, 1));
    expect(ids(await list(a.token, { cbtStatus: 3, status: 4 }, "MeliStatNew"))).toEqual(pick(C, 0));
    expect(ids(await list(a.token, { accountGroupId: local.groupId }, "MeliStatNew"))).toEqual([]);
    expect(ids(await list(a.token, { cbtStatus: 4 }))).toEqual([]);
  });
});

describe("GetMeliStatGroupInfo", () => {
  const statusCount = (g: ListingGroupInfo, st: number) => g.statuses.find((x) => x.status === st)!.count;
  const siteCount = (g: ListingGroupInfo, site: number) => g.sites.find((x) => x.site === site)!.count;

  it("counts per status, site and shop group, each without its own filter", async () => {
    const g = await groupInfo(a.token);
    expect(g.total).toEqual({ count: 5, capped: false });
    expect(g.statuses.map((x) => [x.status, x.count])).toEqual([
      [1, 0],
      [2, 0],
      [3, 2],
      [4, 1],
      [5, 0],
      [6, 0],
      [7, 1],
      [8, 0],
      [9, 1],
    ]);
    expect(g.sites.map((x) => x.count)).toEqual([3, 1, 1, 0, 0]);
    expect(g.accountGroups.map((x) => [x.name, x.count])).toEqual([
      ["二号店", 1],
      ["本地店", 4],
    ]);
    // With status 3: the status tabs still count every status; sites and groups count status 3 only.
    const active = await groupInfo(a.token, { status: 3 });
    expect(active.total.count).toBe(2);
    expect(statusCount(active, 4)).toBe(1);
    expect(siteCount(active, 1)).toBe(1);
    expect(siteCount(active, 3)).toBe(1);
    expect(siteCount(active, 2)).toBe(0);
    // With site 1 and a title: statuses narrowed by both, the site tabs by the title only.
    const narrowed = await groupInfo(a.token, { site: 1, title: "a" });
    expect(statusCount(narrowed, 3)).toBe(1);
    expect(statusCount(narrowed, 4)).toBe(1);
    expect(siteCount(narrowed, 2)).toBe(1);
    expect(siteCount(narrowed, 3)).toBe(0);
    // The shop group tabs ignore the accountGroupId filter.
    const one = await groupInfo(a.token, { accountGroupId: local2.groupId });
    expect(one.total.count).toBe(1);
    expect(one.accountGroups.map((x) => x.count)).toEqual([1, 4]);
  });

  it("counts cross-border listings under MeliStatNew with its shop groups", async () => {
    const g = await groupInfo(a.token, {}, "MeliStatNew");
    expect(g.total.count).toBe(3);
    expect(g.accountGroups.map((x) => [x.name, x.count])).toEqual([["跨境店", 3]]);
    expect(g.sites.map((x) => x.count)).toEqual([2, 1, 0, 0, 0]);
  });
});

describe("who sees what", () => {
  it("another tenant sees only its own, even with this tenant's shop group, item or product ids", async () => {
    const theirs = await list(b.token);
    expect(theirs.totalCount).toBe(1);
    expect(theirs.items[0].accountGroupId).toBe(other.groupId);
    expect((await list(b.token, { accountGroupId: local.groupId })).items).toEqual([]);
    expect((await list(b.token, { productIds: [productA] })).items).toEqual([]);
    expect((await list(a.token, { accountGroupId: other.groupId })).items).toEqual([]);
    expect((await list(b.token, {}, "MeliStatNew")).items).toEqual([]);
    const g = await groupInfo(b.token, { accountGroupId: local.groupId });
    expect(g.total.count).toBe(0);
    expect(g.accountGroups.map((x) => x.accountGroupId)).toEqual([other.groupId]);
  });

  it("a sub-account sees only the listings of the shops given to it", async () => {
    expect(ids(await list(sub.token))).toEqual(pick(L, 2));
    expect(ids(await list(sub.token, { userId: a.userId }))).toEqual([]);
    expect((await list(sub.token, {}, "MeliStatNew")).items).toEqual([]);
    const g = await groupInfo(sub.token);
    expect(g.total.count).toBe(1);
    expect(g.accountGroups.map((x) => [x.accountGroupId, x.count])).toEqual([[local.groupId, 1]]);
    expect(g.sites.map((x) => x.count)).toEqual([0, 1, 0, 0, 0]);
    expect((await groupInfo(sub.token, {}, "MeliStatNew")).accountGroups).toEqual([]);
  });
});

describe("the count", () => {
  it("stops at the cap for a broad filter, in the list and in the tabs", async () => {
    const t = await s.createTenant();
    const g = await shop(t, { cbt: false, name: "大店", sites: [{ site: 1, owner: t.userId }] });
    const n = SMALL_BASE + 1000; // past the one-GROUP-BY path: the tabs are capped counts
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.execute(`insert into listings (tenant_id, id, account_group_id, account_id, user_id, product_id, site, status, creation_time)
        select '${t.tenantId}', gen_random_uuid(), '${g.groupId}', '${g.accounts[1]}', '${t.userId}', gen_random_uuid(), 1,
          case when x % 100 = 0 then 4 else 3 end, now() - x * interval '1 minute'
        from generate_series(1, ${n}) x`),
    );
    const all = await list(t.token, { maxResultCount: 10 });
    expect(all).toMatchObject({ totalCount: LISTING_COUNT_CAP, totalCountCapped: true });
    expect(all.items).toHaveLength(10);
    const paused = await list(t.token, { maxResultCount: 1, status: 4 });
    expect(paused).toMatchObject({ totalCount: n / 100, totalCountCapped: false });
    const info = await groupInfo(t.token);
    expect(info.total).toEqual({ count: LISTING_COUNT_CAP, capped: true });
    expect(info.statuses.find((x) => x.status === 3)).toEqual({ status: 3, count: LISTING_COUNT_CAP, capped: true });
    expect(info.statuses.find((x) => x.status === 4)).toEqual({ status: 4, count: n / 100, capped: false });
    expect(info.statuses.find((x) => x.status === 7)).toEqual({ status: 7, count: 0, capped: false });
    expect(info.sites.map((x) => x.count)).toEqual([LISTING_COUNT_CAP, 0, 0, 0, 0]);
    // With status 4: the status tabs ignore it, the site and shop tabs count status 4 only.
    const p = await groupInfo(t.token, { status: 4 });
    expect(p.total).toEqual({ count: n / 100, capped: false });
    expect(p.statuses.find((x) => x.status === 3)!.capped).toBe(true);
    expect(p.sites.map((x) => x.count)).toEqual([n / 100, 0, 0, 0, 0]);
    expect(p.accountGroups).toEqual([{ accountGroupId: g.groupId, name: "大店", count: n / 100, capped: false }]);
  });
});

describe("bad input", () => {
  it("answers 400 with the error envelope", async () => {
    for (const [group, body] of [
      ["GetMeliStatsByPage", { maxResultCount: 5000 }],
      ["GetMeliStatsByPage", { skipCount: -1 }],
      ["GetMeliStatsByPage", { startTime: "yesterday" }],
      ["GetMeliStatsByPage", { startTime: "2026-02-31" }],
      ["GetMeliStatsByPage", { startTime: "2026-03-01", endTime: "2026-02-01" }],
      ["GetMeliStatsByPage", { lastUpdateStartTime: "2026-03-01", lastUpdateEndTime: "2026-03-01" }],
      ["GetMeliStatsByPage", { status: 99 }],
      ["GetMeliStatsByPage", { site: 9 }],
      ["GetMeliStatsByPage", { sorting: "title; drop table listings" }],
      ["GetMeliStatsByPage", { accountGroupId: "x" }],
      ["GetMeliStatsByPage", { minPrice: -1 }],
      ["GetMeliStatsByPage", { minPrice: 10, maxPrice: 5 }],
      ["GetMeliStatsByPage", { minStock: 1.5 }],
      ["GetMeliStatsByPage", { hasSold: "yes" }],
      ["GetMeliStatGroupInfo", { startTime: "tomorrow" }],
      ["GetMeliStatGroupInfo", { cbtStatus: 0 }],
    ] as const) {
      const res = await s.api("POST", `/api/MeliStat/${group}`, { token: a.token, body });
      expect(res.status, `${group} ${JSON.stringify(body)}: ${res.raw}`).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
    const anon = await s.api("POST", `/api/MeliStat/GetMeliStatsByPage`, { body: {} });
    expect(anon.status).toBe(401);
  });
});
