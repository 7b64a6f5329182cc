// Test helpers for transfers between tenants: products and labels seeded set-based, a task waited for through the
// host's task centre, and every uuid a tenant's rows hold (to prove a destination points at nothing of its source).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { TestServer, TestTenant } from "../../testing/harness.ts";
import { tenantTables } from "../../testing/security-kit.ts";

export const MISSING_GUID = "0b6c3f2e-9d7a-4c1e-8f00-123456789abc";

/** Runs statements as the host (outside the tenant policy) and answers the last one's rows. */
export async function hostRows<T>(s: TestServer, ...statements: ReturnType<typeof sql>[]): Promise<T[]> {
  return inScope(s.database.db, hostAllScope, async (tx) => {
    let last: T[] = [];
    for (const st of statements) last = rowsOf<T>(await tx.execute(st));
    return last;
  });
}

/** Labels by name in a label group (created when missing); answers name → id. */
export async function seedLabels(s: TestServer, t: Pick<TestTenant, "tenantId" | "userId">, group: string, names: string[]) {
  const groupId = randomUUID();
  await hostRows(
    s,
    sql`insert into product_label_groups (tenant_id, id, name, creator_id) values (${t.tenantId}, ${groupId}, ${group}, ${t.userId})`,
  );
  const out: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    out[name] = randomUUID();
    await hostRows(
      s,
      sql`insert into product_labels (tenant_id, id, group_id, name, sort, creator_id)
        values (${t.tenantId}, ${out[name]}, ${groupId}, ${name}, ${i}, ${t.userId})`,
    );
  }
  return out;
}

/**
 * `count` live products of `userId`, titled "<tag> n", the n-th carrying labelIds[n % labels] (none when no labels),
 * in one statement; answers their ids in the order of n.
 */
export async function seedProducts(
  s: TestServer,
  t: Pick<TestTenant, "tenantId">,
  userId: string,
  tag: string,
  count: number,
  labelIds: string[] = [],
): Promise<string[]> {
  const labels = labelIds.length ? sql`(string_to_array(${labelIds.join(",")}::text, ','))[1 + g % ${labelIds.length}]::uuid` : sql`null`;
  const rows = await hostRows<{ id: string }>(
    s,
    sql`insert into products (tenant_id, id, user_id, title, price, weight, sku, label_id, creator_id, creation_time)
      select ${t.tenantId}::uuid, gen_random_uuid(), ${userId}::uuid, jsonb_build_object('zh', ${tag} || ' ' || g), (1 + g % 50)::numeric,
        100, ${tag} || '-' || g, ${labels}, ${userId}::uuid, now() - make_interval(secs => ${count} - g)
      from generate_series(1, ${count}) g returning id`,
  );
  return rows.map((r) => r.id);
}

type Task = { id: string; taskStatus: number; taskRemark: string | null; progress: number; content: string };

/** The task as the host's task centre lists it, once it has ended. */
export async function taskEnd(s: TestServer, admin: string, taskId: string, ms = 120_000): Promise<Task> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: admin, query: { MaxResultCount: 50 } });
    const t = (res.body.result.items as Task[]).find((x) => x.id === taskId);
    if (t && (t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed)) return t;
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not end: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A call answered with a task, and the task's end, which must be a success. */
export async function runTask(s: TestServer, admin: string, method: string, url: string, o: { query?: any; body?: unknown }) {
  const res = await s.api(method, url, { token: admin, ...o, headers: { "idempotency-key": randomUUID() } });
  expect(res.status, res.raw).toBe(200);
  const task = await taskEnd(s, admin, res.body.result.taskId);
  expect(task.taskStatus, task.taskRemark ?? "").toBe(TaskStatus.Succeeded);
  return { answer: res.body.result as { taskId: string; total: number }, task };
}

/** The host's task records (a refused call must leave none). */
export async function hostTaskCount(s: TestServer): Promise<number> {
  const [r] = await hostRows<{ n: number }>(
    s,
    sql`select count(*)::int as n from task_infos where tenant_id = '00000000-0000-0000-0000-000000000000'`,
  );
  return r.n;
}

/** Uuid columns (other than tenant_id) of the tenant tables, and whether each table has an id. */
async function uuidColumns(s: TestServer) {
  const tables = await tenantTables(s.database.db);
  const cols = await hostRows<{ t: string; c: string }>(
    s,
    sql`select table_name as t, column_name as c from information_schema.columns where table_schema = 'public'
      and data_type = 'uuid' and column_name <> 'tenant_id'`,
  );
  return cols.filter(({ t }) => tables.includes(t));
}

/** Every uuid value (other than tenant_id) in the tenant's rows, with where it is ("table.column"): one query. */
export async function uuidsIn(s: TestServer, tenantId: string, onlyIds = false): Promise<Map<string, string>> {
  const parts = (await uuidColumns(s))
    .filter(({ c }) => !onlyIds || c === "id")
    .map(
      ({ t, c }) =>
        sql`select ${sql.identifier(c)}::text as v, ${`${t}.${c}`}::text as at from ${sql.identifier(t)}
          where tenant_id = ${tenantId}::uuid and ${sql.identifier(c)} is not null`,
    );
  const rows = await hostRows<{ v: string; at: string }>(
    s,
    sql`select distinct on (v) v, at from (${sql.join(parts, sql` union all `)}) x`,
  );
  return new Map(rows.map((r) => [r.v, r.at]));
}

/**
 * What of `dest`'s rows points at a row of `src` (a uuid in any of its columns that is the id of a row of src), each
 * as "uuid: src's table ~ dest's table.column": a copy or a move must leave none.
 */
export async function pointersInto(s: TestServer, src: string, dest: string): Promise<string[]> {
  const ids = await uuidsIn(s, src, true);
  const values = await uuidsIn(s, dest);
  return [...values].filter(([v]) => ids.has(v)).map(([v, at]) => `${v}: ${ids.get(v)} ~ ${at}`);
}

/** Rows of a table for one tenant, counted as the host. */
export async function countOf(s: TestServer, table: string, tenantId: string, where = sql``): Promise<number> {
  const [r] = await hostRows<{ n: number }>(
    s,
    sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenantId}::uuid ${where}`,
  );
  return r.n;
}
