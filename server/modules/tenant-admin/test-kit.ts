// Rows the tenant-admin tests start from, written straight in the database (the calls under test only read or change
// them), and the host's view of a task until it ends.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { listings, meliAccountGroups, meliAccounts, meliCallLogs, orders, products } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus } from "#shared/contract/enums.ts";

export const MISSING_GUID = "0b6c3f2e-9d7a-4c1e-8f00-123456789abc";

/** A server with the host's token and two tenants, the first with a sub-account. */
export async function adminWorld(prefix: string) {
  const s = await startTestServer();
  const admin = await s.adminToken();
  const a = await s.createTenant(uniqueName(`${prefix}a`));
  const b = await s.createTenant(uniqueName(`${prefix}b`));
  const aSub = await s.createSubUser(a);
  return { s, admin, a, b, aSub };
}

export const host = <T>(s: TestServer, fn: Parameters<typeof inScope<T>>[2]) => inScope(s.database.db, hostAllScope, fn);

/** Products of `userId` (the main account by default), created and maybe deleted at the given times; answers ids. */
export async function seedProducts(
  s: TestServer,
  t: TestTenant,
  n: number,
  o: { userId?: string; creationTime?: Date; deletionTime?: Date | null; sku?: string } = {},
): Promise<string[]> {
  const rows = Array.from({ length: n }, () => ({
    tenantId: t.tenantId,
    id: randomUUID(),
    userId: o.userId ?? t.userId,
    sku: o.sku ?? "seed",
    title: { zh: "测试商品" },
    ...(o.creationTime ? { creationTime: o.creationTime } : {}),
    ...(o.deletionTime ? { isDeleted: true, deletionTime: o.deletionTime, deleterId: o.userId ?? t.userId } : {}),
  }));
  await host(s, (tx) => tx.insert(products).values(rows));
  return rows.map((r) => r.id);
}

/** A shop group with one enabled shop account (site 1) held by `ownerId`; answers both ids. */
export async function seedShop(s: TestServer, t: TestTenant, ownerId = t.userId, enabled = true) {
  const groupId = randomUUID();
  const accountId = randomUUID();
  const custId = String(Math.floor(Math.random() * 1e9));
  await host(s, async (tx) => {
    await tx.insert(meliAccountGroups).values({
      tenantId: t.tenantId,
      id: groupId,
      ownerId,
      custId,
      siteCode: "MLM",
      name: "seller" + custId,
      accessToken: "x",
      refreshToken: "x",
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    await tx.insert(meliAccounts).values({
      tenantId: t.tenantId,
      id: accountId,
      groupId,
      ownerId,
      site: 1,
      siteCode: "MLM",
      custId,
      name: "shop" + custId,
      currency: "MXN",
      isEnabled: enabled,
    });
  });
  return { groupId, accountId };
}

/** Listings of a shop account created at `creationTime`; with `itemId` they were published by a batch. */
export async function seedListings(
  s: TestServer,
  t: TestTenant,
  shop: { groupId: string; accountId: string },
  n: number,
  o: { creationTime: Date; published: boolean; productId?: string | null },
): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    tenantId: t.tenantId,
    id: randomUUID(),
    batchId: randomUUID(),
    accountGroupId: shop.groupId,
    accountId: shop.accountId,
    userId: t.userId,
    productId: o.productId === undefined ? randomUUID() : o.productId,
    site: 1,
    itemId: o.published ? `MLM${Date.now()}${i}${Math.floor(Math.random() * 1e6)}` : null,
    status: o.published ? 3 : 1,
    creationTime: o.creationTime,
  }));
  await host(s, (tx) => tx.insert(listings).values(rows));
  return rows.map((r) => r.id);
}

/** An order of the shop at `orderTime` for `total` in `currency`, with the given status (2: paid). */
export async function seedOrder(
  s: TestServer,
  t: TestTenant,
  shop: { groupId: string; accountId: string },
  o: { userId: string; orderTime: Date; total: string; currency?: string; status?: number },
) {
  await host(s, (tx) =>
    tx.insert(orders).values({
      tenantId: t.tenantId,
      id: randomUUID(),
      meliOrderId: String(Math.floor(Math.random() * 1e12)),
      accountGroupId: shop.groupId,
      accountId: shop.accountId,
      userId: o.userId,
      site: 1,
      currency: o.currency ?? "MXN",
      status: o.status ?? 2,
      meliStatus: "paid",
      totalAmount: o.total,
      saleFee: "0",
      freightFee: "0",
      cost: "0",
      profit: "0",
      orderTime: o.orderTime,
    }),
  );
}

/** Marketplace call-log rows answered `status` at `creationTime`. */
export async function seedCallLogs(s: TestServer, t: TestTenant, n: number, o: { status: number | null; creationTime: Date }) {
  const rows = Array.from({ length: n }, () => ({
    tenantId: t.tenantId,
    id: randomUUID(),
    method: "GET",
    path: "/items/MLM1",
    status: o.status,
    creationTime: o.creationTime,
  }));
  await host(s, (tx) => tx.insert(meliCallLogs).values(rows));
}

/** Rows of a tenant in a table, counted as the host. */
export async function countRows(s: TestServer, table: string, tenantId: string, where = sql`true`): Promise<number> {
  const [r] = await host(s, async (tx) =>
    rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenantId}::uuid and ${where}`),
    ),
  );
  return Number(r.n);
}

export type HostTask = { id: string; taskType: number; taskStatus: number; taskRemark: string | null; progress: number; content: string };

/** The host's task once it has ended (the task centre's list, as the console polls it). */
export async function waitForTask(s: TestServer, token: string, taskId: string, timeoutMs = 30_000): Promise<HostTask> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token, query: { MaxResultCount: 100 } });
    expect(res.status, res.raw).toBe(200);
    const task = (res.body.result.items as HostTask[]).find((t) => t.id === taskId);
    if (task && (task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} not finished in ${timeoutMs} ms: ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Calls the host's call with a fresh Idempotency-Key (or the given one). */
export function hostCall(
  s: TestServer,
  token: string,
  method: string,
  url: string,
  query?: Record<string, string>,
  opts: { key?: string; body?: unknown } = {},
) {
  return s.api(method, url, { token, query, body: opts.body, headers: { "idempotency-key": opts.key ?? randomUUID() } });
}
