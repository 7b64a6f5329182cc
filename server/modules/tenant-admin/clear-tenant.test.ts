// ClearTenantInfo: the host clears one tenant's data after typing its name; another tenant keeps every row, and the
// cleared tenant keeps its accounts and money records. Every tenant-owned table is either cleared or kept on purpose.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { collections, productLabels } from "../../db/schema.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { seedMoney } from "../../testing/money-kit.ts";
import { settleTasks, tenantTables } from "../../testing/security-kit.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { CLEARED_TABLES, KEPT_TABLES } from "./tenant-tables.ts";
import { countRows, host, hostCall, seedCallLogs, seedListings, seedOrder, seedProducts, seedShop, waitForTask } from "./test-kit.ts";

let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
});
afterAll(() => s?.close());

/** A tenant with rows in most of its tables: products (some deleted), a label, a collection, a shop with listings, an
 *  order, call logs, a sub-account, a task and money. */
async function busyTenant(prefix: string): Promise<TestTenant> {
  const t = await s.createTenant(uniqueName(prefix));
  await s.createSubUser(t);
  const [productId] = await seedProducts(s, t, 3, { creationTime: new Date("2026-01-03T00:00:00Z") });
  await seedProducts(s, t, 2, { deletionTime: new Date("2026-01-04T00:00:00Z") });
  const shop = await seedShop(s, t);
  await seedListings(s, t, shop, 1, { creationTime: new Date("2026-01-05T00:00:00Z"), published: true, productId });
  await seedListings(s, t, shop, 1, { creationTime: new Date("2026-01-05T00:00:00Z"), published: false });
  await seedOrder(s, t, shop, { userId: t.userId, orderTime: new Date("2026-01-06T00:00:00Z"), total: "100.00" });
  await seedCallLogs(s, t, 2, { status: 200, creationTime: new Date("2026-01-06T00:00:00Z") });
  await host(s, async (tx) => {
    await tx.insert(productLabels).values({ tenantId: t.tenantId, id: randomUUID(), name: "热卖" });
    await tx.insert(collections).values({
      tenantId: t.tenantId,
      id: randomUUID(),
      userId: t.userId,
      platformType: 1,
      itemId: "1",
      sourceUrl: "https://detail.1688.com/offer/1.html",
    });
  });
  const tasks = await s.api("POST", "/api/Product/ExportProduct", { token: t.token, body: { productIds: [productId] } });
  expect(tasks.status, tasks.raw).toBe(200);
  await seedMoney(s, t, admin);
  return t;
}

async function rowCounts(tenantId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of await tenantTables(s.database.db)) out[table] = await countRows(s, table, tenantId);
  return out;
}

describe("ClearTenantInfo", () => {
  it("holds every tenant-owned table to a decision: cleared or kept", async () => {
    const tables = await tenantTables(s.database.db);
    const decided = new Set([...CLEARED_TABLES.map((c) => c.table), ...KEPT_TABLES]);
    expect(
      tables.filter((t) => !decided.has(t)),
      "a tenant-owned table ClearTenantInfo neither clears nor keeps: add it to tenant-admin/tenant-tables.ts",
    ).toEqual([]);
    expect([...decided].filter((t) => !tables.includes(t))).toEqual([]);
  });

  it("clears the tenant's data, keeps its accounts and money, and leaves another tenant's rows untouched", async () => {
    const c = await busyTenant("cc");
    const d = await busyTenant("cd");
    await settleTasks(s.database.db, [c.tenantId, d.tenantId]);
    const beforeC = await rowCounts(c.tenantId);
    const beforeD = await rowCounts(d.tenantId);
    for (const table of [
      "products",
      "listings",
      "orders",
      "meli_accounts",
      "collections",
      "product_labels",
      "tenant_product_days",
      "wallet_logs",
    ]) {
      expect(beforeC[table], table).toBeGreaterThan(0);
    }

    const res = await hostCall(s, admin, "DELETE", "/api/Hosted/ClearTenantInfo", {
      tenantId: c.tenantId,
      confirmTenantName: ` ${c.tenantName} `,
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.total).toBe(CLEARED_TABLES.length);
    const task = await waitForTask(s, admin, res.body.result.taskId);
    expect(task).toMatchObject({ taskStatus: TaskStatus.Succeeded, progress: 100 });
    expect(task.taskRemark).toContain(`商品 ${beforeC.products}`);
    expect(task.taskRemark).toContain("店铺 1");

    const afterC = await rowCounts(c.tenantId);
    for (const { table } of CLEARED_TABLES) expect(afterC[table], table).toBe(0);
    for (const table of KEPT_TABLES) expect(afterC[table], table).toBe(beforeC[table]);
    expect(await rowCounts(d.tenantId)).toEqual(beforeD);

    // The seller logs in again to an empty tenant.
    const login = await s.login(c.userName, c.password, c.tenantName);
    const list = await s.api("POST", "/api/Product/GetProductsByPage", {
      token: login.access_token,
      body: { skipCount: 0, maxResultCount: 10 },
    });
    expect(list.status, list.raw).toBe(200);
    expect(list.body.result.totalCount).toBe(0);
    const [tenant] = await host(s, async (tx) =>
      rowsOf<{ active: boolean }>(await tx.execute(sql`select is_active as active from tenants where id = ${c.tenantId}::uuid`)),
    );
    expect(tenant.active).toBe(true);
  });

  it("goes on from the step its task recorded as done, never doing a done step again", async () => {
    const e = await s.createTenant(uniqueName("ce"));
    await seedProducts(s, e, 4);
    const shop = await seedShop(s, e);
    await seedListings(s, e, shop, 2, { creationTime: new Date("2026-01-05T00:00:00Z"), published: false });
    const release = s.holdJobs("tenantAdmin.task");
    const res = await hostCall(s, admin, "DELETE", "/api/Hosted/ClearTenantInfo", {
      tenantId: e.tenantId,
      confirmTenantName: e.tenantName,
    });
    expect(res.status, res.raw).toBe(200);
    // As if an earlier attempt had committed every step up to the products and then died.
    const productsStep = CLEARED_TABLES.findIndex((c) => c.table === "products");
    await host(s, (tx) =>
      tx.execute(sql`update task_infos set state = jsonb_set(jsonb_set(state, '{step}', ${String(productsStep + 1)}::jsonb), '{counts}',
        ${JSON.stringify(Array.from({ length: productsStep + 1 }, () => 0))}::jsonb) where id = ${res.body.result.taskId}::uuid`),
    );
    release();
    const task = await waitForTask(s, admin, res.body.result.taskId);
    expect(task.taskStatus).toBe(TaskStatus.Succeeded);
    expect(await countRows(s, "products", e.tenantId)).toBe(4);
    expect(await countRows(s, "listings", e.tenantId)).toBe(0);
    expect(await countRows(s, "meli_accounts", e.tenantId)).toBe(0);
  });
});
