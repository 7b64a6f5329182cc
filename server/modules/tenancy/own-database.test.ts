// Issue 31: a tenant moved to its own PostgreSQL database keeps working and moves back. PostgreSQL only (vitest.config.ts
// leaves it out of the PGlite run, where the calls answer 400: tenancy.test.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus } from "#shared/contract/enums.ts";

let s: TestServer;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  b = await s.createTenant();
});
afterAll(() => s?.close());

const path = (id: string) => `/api/multi-tenancy/tenants/${id}/default-connection-string`;
const hostCall = async (method: string, id: string, query?: Record<string, string>) =>
  s.api(method, path(id), { token: await s.adminToken(), query, headers: { "idempotency-key": randomUUID() } });

function sharedUrl(): string {
  const o = s.database.pool!.options as { connectionString: string };
  return o.connectionString;
}

it("moves a tenant to its own database: it keeps working (login, list, edit, jobs), its rows leave the shared one, then it moves back", async () => {
  const t = await s.createTenant();
  const sub = await s.createSubUser(t);
  const ids = [randomUUID(), randomUUID()];
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.insert(products).values(ids.map((id) => ({ tenantId: t.tenantId, id, userId: t.userId, title: { zh: "独立库商品" } }))),
  );
  const own = await createDatabase();
  try {
    const put = await hostCall("PUT", t.tenantId, { defaultConnectionString: own.url.replace("//", "//root:secret@") });
    expect(put.status, put.raw).toBe(200);
    expect((await waitForHostTask(put.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
    const got = (await hostCall("GET", t.tenantId)).body.result;
    expect(got).toMatchObject({ state: "active", connectionString: expect.stringContaining(":***@") });
    expect(got.connectionString).not.toContain("secret");

    // Gone from the shared database, all there.
    expect(await countIn(s.database.pool!, "products", t.tenantId)).toBe(0);
    expect(await countIn(s.database.pool!, "users", t.tenantId)).toBe(0);
    expect(await countIn(own.pool, "products", t.tenantId)).toBe(2);
    expect(await countIn(own.pool, "users", t.tenantId)).toBe(2);
    // Another tenant still lives in the shared database.
    expect(await countIn(s.database.pool!, "users", b.tenantId)).toBe(1);

    // Login, list, edit and a job on the tenant's own database.
    const token = (await s.login(t.userName, t.password, t.tenantName)).access_token;
    const list = await s.api("POST", "/api/Product/GetProductsByPage", { token, body: { maxResultCount: 10 } });
    expect(list.status, list.raw).toBe(200);
    expect(list.body.result.totalCount).toBe(2);
    const edit = await s.api("POST", "/api/Product/UpdateProductPrice", { token, body: { productId: ids[0], price: 9.5 } });
    expect(edit.status, edit.raw).toBe(200);
    const subList = await s.api("POST", "/api/Product/GetProductsByPage", { token: sub.token, body: {} });
    expect(subList.status, subList.raw).toBe(200);
    const exp = await s.api("POST", "/api/Product/ExportProduct", { token, body: { filter: {} } });
    expect(exp.status, exp.raw).toBe(200);
    const task = await waitForTask(token, exp.body.result.taskId);
    expect(task.taskStatus, task.taskRemark).toBe(TaskStatus.Succeeded);
    expect(await countIn(own.pool, "task_infos", t.tenantId)).toBe(1);
    expect(await countIn(s.database.pool!, "task_infos", t.tenantId)).toBe(0);

    // A second move while on its own database is refused; then back.
    expect((await hostCall("PUT", t.tenantId, { defaultConnectionString: own.url })).status).toBe(409);
    const del = await hostCall("DELETE", t.tenantId);
    expect(del.status, del.raw).toBe(200);
    expect((await waitForHostTask(del.body.result.taskId)).taskStatus).toBe(TaskStatus.Succeeded);
    expect((await hostCall("GET", t.tenantId)).body.result.state).toBe("shared");
    expect(await countIn(s.database.pool!, "products", t.tenantId)).toBe(2);
    expect(await countIn(s.database.pool!, "task_infos", t.tenantId)).toBe(1);
    expect(await countIn(own.pool, "products", t.tenantId)).toBe(0);
    const back = await s.api("POST", "/api/Product/GetProductsByPage", { token, body: {} });
    expect(back.body.result.totalCount).toBe(2);
    const [price] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.select({ price: products.price }).from(products).where(eq(products.id, ids[0])),
    );
    expect(Number(price.price)).toBe(9.5);
  } finally {
    await own.drop();
  }
});
/** An empty database beside the test's (no migrations: the PUT applies them), dropped after. */
async function createDatabase() {
  const name = `erp_t_${process.pid}_own_${randomBytes(4).toString("hex")}`;
  const url = new URL(sharedUrl());
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      const a2 = new pg.Client({ connectionString: sharedUrl() });
      await a2.connect();
      await a2.query(`drop database if exists ${name} with (force)`);
      await a2.end();
    },
  };
}

async function countIn(pool: pg.Pool, table: string, tenantId: string): Promise<number> {
  const c = await pool.connect();
  try {
    await c.query("begin; select set_config('role', 'erp_host', true)");
    const { rows } = await c.query<{ n: number }>(`select count(*)::int as n from ${table} where tenant_id = $1`, [tenantId]);
    await c.query("rollback");
    return rows[0].n;
  } finally {
    c.release();
  }
}

async function waitForTask(token: string, taskId: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token, query: { MaxResultCount: 100 } });
    expect(res.status, res.raw).toBe(200);
    const task = res.body.result.items.find((x: { id: string }) => x.id === taskId);
    if (task && (task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} not finished: ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const waitForHostTask = async (taskId: string) => waitForTask(await s.adminToken(), taskId);
