// A tenant on its own PostgreSQL database (issue 31; decisions.md "A tenant on its own database"). PUT checks the
// database (reachable, not the shared one, migrations applied now), records it (the connection string encrypted, state
// moving: the tenant's calls and jobs wait) and starts the host's task, whose job copies the tenant's rows there in one
// transaction, then switches the tenant (active) and deletes its rows from the shared database in another. DELETE does
// the reverse in one transaction on the shared database. The router (db/tenant-databases.ts) sends the tenant's
// transactions where the row says. The copying itself is database-moves.ts.
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { migratePostgres, rowsOf, type Database, type Tx } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { findTenant } from "../../db/tenants.ts";
import {
  connectTo,
  createTenantDatabases,
  maskConnectionString,
  type TenantDatabaseRow,
  type TenantDatabases,
} from "../../db/tenant-databases.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, badRequest, conflict, notFound } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, saveTaskState } from "../../jobs/tasks.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { createDatabaseMoves, reportMoveTask, secretContext } from "./database-moves.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { TenantConnection } from "#shared/contract/tenancy.ts";

type MoveState = { kind: "toOwn" | "toShared"; tenantId: string };
type MoveJob = { taskId: string };
const MOVE_JOB = "tenancy.moveDatabase";

const PGLITE_REFUSAL = "当前使用内置数据库（PGlite），只有一个数据库，不能为公司设置独立数据库；请改用 PostgreSQL（DATABASE_URL）后再设置";

async function rowOf(tx: Tx, tenantId: string): Promise<TenantDatabaseRow | null> {
  const [row] = rowsOf<TenantDatabaseRow>(
    await tx.execute(sql`select tenant::text as tenant, connection, masked, state, task_id::text as "taskId"
      from tenant_databases where tenant = ${tenantId}::uuid for update`),
  );
  return row ?? null;
}

export function createOwnDatabases(deps: { database: Database; jobs: Jobs; log: FastifyBaseLogger; secrets: SecretBox }) {
  const { database, jobs, log, secrets } = deps;
  const router: TenantDatabases | null =
    database.kind === "postgres"
      ? createTenantDatabases(database, { decrypt: (r) => secrets.decrypt(r.connection, secretContext(r.tenant)) })
      : null;
  const report = reportMoveTask(database);
  const moves = router ? createDatabaseMoves({ database, router, secrets, log, report }) : null;

  async function tenantOf(ctx: CallContext, id: string) {
    if (id.toLowerCase() === HOST_TENANT_ID) throw badRequest("平台本身不能设置独立数据库");
    const tenant = await findTenant(ctx.tx, id);
    if (!tenant) throw notFound("公司未找到");
    return tenant;
  }

  async function get(ctx: CallContext, id: string): Promise<TenantConnection> {
    const tenant = await tenantOf(ctx, id);
    if (!router) return { state: "shared", connectionString: null, taskId: null };
    const row = await rowOf(ctx.tx, tenant.id);
    return row
      ? { state: row.state, connectionString: row.masked, taskId: row.taskId }
      : { state: "shared", connectionString: null, taskId: null };
  }

  async function startTask(ctx: CallContext, state: MoveState, content: string): Promise<string> {
    const taskId = await createTask(ctx.tx, { tenantId: HOST_TENANT_ID, taskType: TaskType.Maintenance, content, creatorId: ctx.user!.id });
    await saveTaskState(ctx.tx, HOST_TENANT_ID, taskId, state);
    await jobs.send<MoveJob>(MOVE_JOB, { taskId }, { tx: ctx.tx });
    return taskId;
  }

  /** Checks the database: it answers, it is not the shared one, and it has every migration (applied now if not). */
  async function check(ctx: CallContext, url: string) {
    let client;
    try {
      client = await connectTo(url);
    } catch (err) {
      throw badRequest("无法连接该数据库，请检查连接字符串", (err as Error).message);
    }
    try {
      // Advisory locks belong to one database: a lock held here that the other connection can take is another database.
      const key = Math.floor(Math.random() * 2 ** 31);
      await ctx.tx.execute(sql`select pg_advisory_xact_lock(${key}, 31)`);
      const { rows } = await client.query<{ free: boolean }>("select pg_try_advisory_lock($1, 31) as free", [key]);
      if (!rows[0]?.free) throw badRequest("该连接字符串指向平台的共享数据库，请使用另一个数据库");
    } finally {
      await client.end().catch(() => {});
    }
    try {
      await migratePostgres(url);
    } catch (err) {
      throw badRequest("该数据库无法完成迁移（需要建表和角色的权限）", (err as Error).message);
    }
  }

  async function put(ctx: CallContext, id: string, url: string): Promise<{ taskId: string }> {
    if (!router) throw badRequest(PGLITE_REFUSAL);
    const tenant = await tenantOf(ctx, id);
    await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"tenant-database:" + tenant.id}))`);
    const row = await rowOf(ctx.tx, tenant.id);
    if (row?.state === "active") throw conflict("该公司已在独立数据库上，请先移回共享数据库再更换");
    if (row) throw new AppError(409, "该公司的数据迁移正在进行中，请等待其完成", "Tenant.Moving");
    await check(ctx, url);
    const taskId = await startTask(ctx, { kind: "toOwn", tenantId: tenant.id }, `迁移公司 ${tenant.name} 到独立数据库`);
    await ctx.tx.execute(sql`insert into tenant_databases (tenant, connection, masked, state, task_id)
      values (${tenant.id}::uuid, ${secrets.encrypt(url, secretContext(tenant.id))}, ${maskConnectionString(url)}, 'moving', ${taskId}::uuid)`);
    return { taskId };
  }

  async function remove(ctx: CallContext, id: string): Promise<{ taskId: string }> {
    if (!router) throw badRequest(PGLITE_REFUSAL);
    const tenant = await tenantOf(ctx, id);
    const row = await rowOf(ctx.tx, tenant.id);
    if (!row) throw badRequest("该公司未使用独立数据库");
    if (row.state !== "active") throw new AppError(409, "该公司的数据迁移正在进行中，请等待其完成", "Tenant.Moving");
    const taskId = await startTask(ctx, { kind: "toShared", tenantId: tenant.id }, `迁回公司 ${tenant.name} 到共享数据库`);
    await ctx.tx.execute(sql`update tenant_databases set state = 'returning', task_id = ${taskId}::uuid, last_modification_time = now()
      where tenant = ${tenant.id}::uuid`);
    return { taskId };
  }

  /** Every process routes by the new state: this one at once, the others within the router's ttl. */
  async function settle(tenantId: string) {
    await router!.refresh();
    await new Promise((r) => setTimeout(r, router!.ttlMs));
    await router!.drained(tenantId);
  }

  async function taskState(taskId: string): Promise<MoveState | null> {
    return inScope(database.db, hostAllScope, async (tx) => {
      const [t] = rowsOf<{ state: MoveState | null; status: number }>(
        await tx.execute(
          sql`select state, task_status as status from task_infos where tenant_id = ${HOST_TENANT_ID} and id = ${taskId}::uuid`,
        ),
      );
      return t && t.status !== TaskStatus.Succeeded && t.status !== TaskStatus.Failed ? t.state : null;
    });
  }

  async function run(job: MoveJob) {
    const state = await taskState(job.taskId);
    if (!state || !moves) return;
    const row = await inScope(database.db, hostAllScope, (tx) => rowOf(tx, state.tenantId));
    if (!row || row.taskId !== job.taskId) return;
    await report(job.taskId, TaskStatus.Running, 0, "等待进行中的操作结束");
    await settle(row.tenant);
    if (state.kind === "toOwn" && row.state === "moving") await moves.toOwn(job.taskId, row);
    else if (state.kind === "toOwn" && row.state === "active") {
      // Switched before a crash: its rows may still be on the shared database.
      await moves.dropFromShared(row.tenant);
      await report(job.taskId, TaskStatus.Succeeded, 100, "已迁移到独立数据库");
    } else if (state.kind === "toShared" && row.state === "returning") await moves.toShared(job.taskId, row);
  }

  /** After the last attempt: the tenant stays where its data is (the shared database for a failed move there). */
  async function settleFailed(job: MoveJob, err: unknown) {
    const state = await taskState(job.taskId);
    if (!state) return;
    await inScope(database.db, hostAllScope, async (tx) => {
      const row = await rowOf(tx, state.tenantId);
      if (row?.taskId !== job.taskId) return;
      if (row.state === "moving") await tx.execute(sql`delete from tenant_databases where tenant = ${row.tenant}::uuid`);
      if (row.state === "returning") await tx.execute(sql`update tenant_databases set state = 'active' where tenant = ${row.tenant}::uuid`);
    });
    await router?.refresh();
    await report(job.taskId, TaskStatus.Failed, 0, `迁移失败，公司数据保持原处：${err instanceof Error ? err.message : String(err)}`);
  }

  return {
    getDefaultConnectionString: get,
    updateDefaultConnectionString: put,
    deleteDefaultConnectionString: remove,
    workers: [worker<MoveJob>(MOVE_JOB, run, { heartbeatSeconds: 10, onLastFailure: settleFailed })],
  };
}
