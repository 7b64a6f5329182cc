// GetTenantStatisticsInfo against rows the test made: per tenant, per day and per user, over a period of UTC days,
// kept by the rollup triggers as products and listings are written.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { OrderStatus } from "#shared/contract/enums.ts";
import { host, seedListings, seedOrder, seedProducts, seedShop } from "./test-kit.ts";

let s: TestServer;
let admin: string;
let prefix: string;
let e: TestTenant;
let f: TestTenant;
let eSub: { id: string; token: string };

const day = (d: string, h = 10) => new Date(`${d}T${String(h).padStart(2, "0")}:00:00Z`);

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  prefix = uniqueName("stat");
  e = await s.createTenant(`${prefix}e`);
  f = await s.createTenant(`${prefix}f`);
  await s.createTenant(uniqueName("other"));
  eSub = await s.createSubUser(e);

  // e: 3 + 2 products by the main account (one deleted since: still collected), 4 by the sub-account, 5 the day before.
  await seedProducts(s, e, 3, { creationTime: day("2025-04-01") });
  await seedProducts(s, e, 1, { creationTime: day("2025-04-02") });
  await seedProducts(s, e, 1, { creationTime: day("2025-04-02"), deletionTime: day("2025-04-10") });
  await seedProducts(s, e, 4, { userId: eSub.id, creationTime: day("2025-04-03", 23) });
  await seedProducts(s, e, 5, { creationTime: day("2025-03-31", 23) });
  const eMain = await seedShop(s, e);
  const eSubShop = await seedShop(s, e, eSub.id);
  await seedListings(s, e, eMain, 2, { creationTime: day("2025-04-01"), published: true });
  await seedListings(s, e, eSubShop, 1, { creationTime: day("2025-04-03"), published: true });
  await seedListings(s, e, eMain, 1, { creationTime: day("2025-04-02"), published: false });
  await seedListings(s, e, eMain, 4, { creationTime: day("2025-03-31"), published: true });
  await seedOrder(s, e, eMain, { userId: e.userId, orderTime: day("2025-04-02"), total: "100.00", currency: "MXN" });
  await seedOrder(s, e, eMain, { userId: e.userId, orderTime: day("2025-04-02"), total: "50.00", status: OrderStatus.Unpaid });
  await seedOrder(s, e, eSubShop, { userId: eSub.id, orderTime: day("2025-04-03", 23), total: "20.00", currency: "CNY" });
  await seedOrder(s, e, eSubShop, { userId: eSub.id, orderTime: day("2025-04-04", 0), total: "999.00", currency: "CNY" });

  // f: 7 products and 3 published listings on one day; a disabled shop.
  await seedProducts(s, f, 7, { creationTime: day("2025-04-02") });
  const fShop = await seedShop(s, f);
  await seedShop(s, f, f.userId, false);
  await seedListings(s, f, fShop, 3, { creationTime: day("2025-04-02"), published: true });
});
afterAll(() => s?.close());

async function statistics(query: Record<string, string>) {
  const res = await s.api("GET", "/api/Hosted/GetTenantStatisticsInfo", { token: admin, query });
  expect(res.status, res.raw).toBe(200);
  return res.body.result;
}

const period = { StartDate: "2025-04-01", EndDate: "2025-04-03" };

describe("GetTenantStatisticsInfo", () => {
  it("answers each tenant's figures over the period, the totals and a point per day", async () => {
    const r = await statistics({ ...period, TenantName: prefix });
    expect(r.startDate).toBe("2025-04-01");
    expect(r.endDate).toBe("2025-04-03");
    expect(r.tenants).toEqual({
      items: [
        {
          tenantId: e.tenantId,
          tenantName: e.tenantName,
          productAckCount: 9,
          uploadStatCount: 3,
          activeAccountCount: 2,
          productCount: 13,
          shopCount: 2,
        },
        {
          tenantId: f.tenantId,
          tenantName: f.tenantName,
          productAckCount: 7,
          uploadStatCount: 3,
          activeAccountCount: 1,
          productCount: 7,
          shopCount: 1,
        },
      ],
      totalCount: 2,
    });
    expect(r.totals).toEqual({ productAckCount: 16, uploadStatCount: 6, activeAccountCount: 3 });
    expect(r.days).toEqual([
      { date: "2025-04-01", productAckCount: 3, uploadStatCount: 2, activeAccountCount: 1 },
      { date: "2025-04-02", productAckCount: 9, uploadStatCount: 3, activeAccountCount: 1 },
      { date: "2025-04-03", productAckCount: 4, uploadStatCount: 1, activeAccountCount: 1 },
    ]);
    expect(r.users).toEqual([]);
  });

  it("answers one tenant with each user's products and sales (paid orders, in CNY)", async () => {
    const r = await statistics({ ...period, TenantId: e.tenantId, TenantName: "ignored" });
    expect(r.tenants.items.map((t: { tenantId: string }) => t.tenantId)).toEqual([e.tenantId]);
    expect(r.totals).toEqual({ productAckCount: 9, uploadStatCount: 3, activeAccountCount: 2 });
    expect(r.days.map((d: { productAckCount: number }) => d.productAckCount)).toEqual([3, 2, 4]);
    expect(r.users).toEqual([
      { userId: e.userId, userName: e.userName, isMainAccount: true, productCount: 5, totalAmount: "39.00" },
      { userId: eSub.id, userName: expect.any(String), isMainAccount: false, productCount: 4, totalAmount: "20.00" },
    ]);
  });

  it("sorts and pages the tenants, keeping the totals of the whole selection", async () => {
    const byName = await statistics({ ...period, TenantName: prefix, Sorting: "tenantName desc", MaxResultCount: "1", SkipCount: "0" });
    expect(byName.tenants.items.map((t: { tenantId: string }) => t.tenantId)).toEqual([f.tenantId]);
    expect(byName.tenants.totalCount).toBe(2);
    expect(byName.totals.productAckCount).toBe(16);
    const second = await statistics({ ...period, TenantName: prefix, MaxResultCount: "1", SkipCount: "1" });
    expect(second.tenants.items.map((t: { tenantId: string }) => t.tenantId)).toEqual([f.tenantId]);
    const beyond = await statistics({ ...period, TenantName: prefix, SkipCount: "5" });
    expect(beyond.tenants).toEqual({ items: [], totalCount: 2 });
  });

  it("counts a listing on the day its publish set the item id, and a product collected today, in the default period", async () => {
    const shop = await seedShop(s, f);
    const [listingId] = await seedListings(s, f, shop, 1, { creationTime: day("2025-04-02"), published: false });
    await host(s, (tx) => tx.execute(sql`update listings set item_id = 'MLM999', status = 3 where id = ${listingId}::uuid`));
    // An update that does not set the item id again counts nothing more.
    await host(s, (tx) => tx.execute(sql`update listings set item_id = 'MLM999', price = 5 where id = ${listingId}::uuid`));
    await seedProducts(s, f, 2);
    const r = await statistics({ TenantId: f.tenantId });
    expect(r.days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(r.endDate).toBe(today);
    expect(r.days.at(-1)).toEqual({ date: today, productAckCount: 2, uploadStatCount: 1, activeAccountCount: 1 });
    expect(r.totals).toEqual({ productAckCount: 2, uploadStatCount: 1, activeAccountCount: 1 });
  });
});
