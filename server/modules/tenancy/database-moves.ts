// The copying half of moving a tenant between the shared database and its own (own-database.ts checks, records and
// runs the move as a job): to its own database in one transaction on each side, then the switch and the shared rows'
// deletion; back in one transaction on the shared database, then its own database's copy goes (best effort).
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import { rowsOf, type Database } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { beginAsHost, catchUpSequences, copyReferenceTables, copyRows, copyTenantRows, deleteTenantRows } from "../../db/tenant-copy.ts";
import type { TenantDatabaseRow, TenantDatabases } from "../../db/tenant-databases.ts";
import { emitProgress } from "../../jobs/progress.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";

/** What a tenant's connection string is encrypted under. */
export const secretContext = (tenantId: string) => `tenant_databases.connection:${tenantId}`;

export type ReportMoveTask = (taskId: string, status: TaskStatus, progress: number, remark: string) => Promise<void>;

/** The move task's record: status, progress and remark, announced (a transaction on the shared database). */
export function reportMoveTask(database: Database): ReportMoveTask {
  return async (taskId, status, progress, remark) => {
    await inScope(database.db, hostAllScope, async (tx) => {
      const [t] = rowsOf<{ creatorId: string | null }>(
        await tx.execute(sql`update task_infos set task_status = ${status}, progress = ${progress}, task_remark = ${remark},
          last_update_time = now() where tenant_id = ${HOST_TENANT_ID} and id = ${taskId}::uuid returning creator_id as "creatorId"`),
      );
      if (!t) return;
      await emitProgress(tx, {
        tenantId: HOST_TENANT_ID,
        creatorId: t.creatorId,
        kind: "task",
        id: taskId,
        taskType: TaskType.Maintenance,
        status,
        progress,
      });
    });
  };
}

export function createDatabaseMoves(deps: {
  database: Database;
  router: TenantDatabases;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  report: ReportMoveTask;
}) {
  const { database, router, secrets, log, report } = deps;
  /** The tenant's own database, opened from its encrypted connection string. */
  const ownDatabase = (row: TenantDatabaseRow) => router.open(secrets.decrypt(row.connection, secretContext(row.tenant)));
  /** The copy's progress as the move task's: up to 90 %, by tables copied. */
  const copyProgress = (taskId: string) => (done: number, total: number) =>
    report(taskId, TaskStatus.Running, Math.min(90, Math.floor((done / total) * 90)), `复制中（${done}/${total} 张表）`);

  async function toOwn(taskId: string, row: TenantDatabaseRow) {
    const target = await ownDatabase(row);
    const n = await copyBetween(database.pool!, target.pool!, async (from, to) => {
      await copyReferenceTables(from, to);
      await to.query("delete from tenants where id = $1", [row.tenant]);
      await copyRows(from, to, "tenants", `x.id = '${row.tenant}'::uuid`);
      const copied = await copyTenantRows(from, to, row.tenant, copyProgress(taskId));
      await catchUpSequences(from, to);
      return copied;
    });
    // The switch: the tenant's calls go to its database from here, and its rows leave the shared one.
    await inScope(database.db, hostAllScope, async (tx) => {
      await tx.execute(
        sql`update tenant_databases set state = 'active', last_modification_time = now() where tenant = ${row.tenant}::uuid`,
      );
    });
    await router.refresh();
    await dropFromShared(row.tenant);
    await report(taskId, TaskStatus.Succeeded, 100, `已迁移到独立数据库：${n} 行`);
  }

  async function dropFromShared(tenantId: string) {
    await inHostTransaction(database.pool!, (c) => deleteTenantRows(c, tenantId));
  }

  async function toShared(taskId: string, row: TenantDatabaseRow) {
    const source = await ownDatabase(row);
    const n = await copyBetween(source.pool!, database.pool!, async (from, to) => {
      const copied = await copyTenantRows(from, to, row.tenant, copyProgress(taskId));
      // What the tenant's own calls changed of its row while it was away (its wallet's balance, its sub-account count).
      const [own] = (
        await from.query<{ balance: string; balanceFen: number; subAccountCount: number }>(
          `select balance, balance_fen as "balanceFen", sub_account_count as "subAccountCount" from tenants where id = $1`,
          [row.tenant],
        )
      ).rows;
      if (own) {
        await to.query("update tenants set balance = $2, balance_fen = $3, sub_account_count = $4 where id = $1", [
          row.tenant,
          own.balance,
          own.balanceFen,
          own.subAccountCount,
        ]);
      }
      await catchUpSequences(from, to);
      await to.query("delete from tenant_databases where tenant = $1", [row.tenant]);
      return copied;
    });
    // Back on the shared database: its copy on its own database goes (best effort: the data is safe either way).
    await inHostTransaction(source.pool!, (c) => deleteTenantRows(c, row.tenant)).catch((err: unknown) =>
      log.warn({ err, tenantId: row.tenant }, "the tenant's rows stay on its former own database"),
    );
    await router.refresh();
    await report(taskId, TaskStatus.Succeeded, 100, `已迁回共享数据库：${n} 行`);
  }

  return { toOwn, toShared, dropFromShared };
}

/** `work` in a host transaction on a connection of `pool`: committed when it ends, rolled back when it throws. */
async function inHostTransaction<T>(pool: pg.Pool, work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await beginAsHost(c);
    const out = await work(c);
    await c.query("commit");
    return out;
  } catch (err) {
    await c.query("rollback").catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}

/**
 * A copy between two databases: `work` reads `from` (a read-only host transaction on `source`) and writes `to` (a host
 * transaction on `target`); the target commits once it ends, and nothing is written when it throws.
 */
async function copyBetween<T>(source: pg.Pool, target: pg.Pool, work: (from: pg.PoolClient, to: pg.PoolClient) => Promise<T>): Promise<T> {
  const from = await source.connect();
  try {
    await beginAsHost(from, true);
    return await inHostTransaction(target, (to) => work(from, to));
  } finally {
    await from.query("rollback").catch(() => {});
    from.release();
  }
}
