// Every query of a request runs in one transaction as the non-owner role erp_app with the caller's tenant set, so
// row-level security returns nothing of another tenant even where a filter was forgotten. Host-wide work runs as
// erp_host, the explicit opt-out (its own policy grants every row).
import { sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "./types.ts";
import { HOST_TENANT_ID } from "./schema.ts";

export type Scope =
  /** One tenant's rows (the host's own rows use HOST_TENANT_ID). */
  | { tenantId: string; hostAll?: false }
  /** Host-side work across tenants: an explicit opt-out of the tenant policy. */
  | { tenantId?: undefined; hostAll: true };

export const hostScope: Scope = { tenantId: HOST_TENANT_ID };
export const hostAllScope: Scope = { hostAll: true };

/**
 * A driver's own way to open a transaction that starts with a scope statement and, optionally, a prelude query whose
 * rows it hands to `fn` (PostgreSQL: all in one round trip).
 */
export type ScopedRunner = <T>(scopeStatement: string, fn: (tx: Tx, prelude: unknown[]) => Promise<T>, prelude?: string) => Promise<T>;
const runners = new WeakMap<Db, ScopedRunner>();

export function registerScopedRunner(db: Db, runner: ScopedRunner) {
  runners.set(db, runner);
}

/**
 * How long a request's statements may wait for a lock and run (PostgreSQL's lock_timeout and statement_timeout, for
 * this transaction only). Past them the statement fails with 55P03 or 57014, answered 409 and 503.
 */
export type TxLimits = { lockTimeoutMs: number; statementTimeoutMs: number };

/**
 * Runs `fn` in one transaction in the scope. `prelude`, a query with its values inlined (the call's session check),
 * runs first and its rows come to `fn`: on PostgreSQL it travels with BEGIN and the scope, one round trip for all three.
 */
export function inScope<T>(
  db: Db,
  scope: Scope,
  fn: (tx: Tx, prelude: unknown[]) => Promise<T>,
  limits?: TxLimits,
  prelude?: string,
): Promise<T> {
  const statement = scopeStatement(scope) + (limits ? limitsStatement(limits) : "");
  const router = scope.hostAll || scope.tenantId === HOST_TENANT_ID ? undefined : routers.get(db);
  if (router) return routed(db, router, scope.tenantId!.toLowerCase(), statement, fn, prelude);
  return runOn(db, statement, fn, prelude);
}

function runOn<T>(db: Db, statement: string, fn: (tx: Tx, prelude: unknown[]) => Promise<T>, prelude?: string): Promise<T> {
  const runner = runners.get(db);
  if (runner) return runner(statement, fn, prelude);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(statement));
    return fn(tx, prelude ? rowsOf(await tx.execute(sql.raw(prelude))) : []);
  });
}

/**
 * Where one tenant's transactions run (issue 31, server/db/tenant-databases.ts): the shared database, or the tenant's
 * own. `route` answers the database and a release to call when the transaction is over (the router counts them, so a
 * move waits for those under way); it throws while the tenant is being moved. Host-wide work (hostAll) and the host's
 * own rows always stay on the shared database.
 */
export type TenantRouter = {
  route(tenantId: string): Promise<{ db: Db; release(): void }>;
  close(): Promise<void>;
};
const routers = new WeakMap<Db, TenantRouter>();

export function registerTenantRouter(db: Db, router: TenantRouter) {
  routers.set(db, router);
}

/** Closes the tenant databases' pools opened for `db` (its Database.close does this). */
export async function closeTenantRouter(db: Db): Promise<void> {
  await routers.get(db)?.close();
  routers.delete(db);
}

/** A transaction on a tenant's own database: the shared database, and work to do there once it commits. */
type OnTenantDatabase = { shared: Db; afterCommit: ((shared: Db) => Promise<unknown>)[] };
const onTenantDatabase = new WeakMap<Tx, OnTenantDatabase>();

async function routed<T>(
  shared: Db,
  router: TenantRouter,
  tenantId: string,
  statement: string,
  fn: (tx: Tx, prelude: unknown[]) => Promise<T>,
  prelude?: string,
): Promise<T> {
  const target = await router.route(tenantId);
  try {
    if (target.db === shared) return await runOn(shared, statement, fn, prelude);
    const own: OnTenantDatabase = { shared, afterCommit: [] };
    const result = await runOn(
      target.db,
      statement,
      (tx, rows) => {
        onTenantDatabase.set(tx, own);
        return fn(tx, rows);
      },
      prelude,
    );
    for (const work of own.afterCommit) await work(shared);
    return result;
  } finally {
    target.release();
  }
}

/**
 * For what must happen on the shared database although the transaction runs on the tenant's own (the job queue and
 * the progress channel live there): when `tx` is on a tenant's database, `work` runs on the shared one after `tx`
 * commits (not at all when it rolls back) and this answers true; otherwise false, and the caller does it in `tx`.
 */
export function afterCommitOnShared(tx: Tx | Db, work: (shared: Db) => Promise<unknown>): boolean {
  const own = onTenantDatabase.get(tx as Tx);
  if (!own) return false;
  own.afterCommit.push(work);
  return true;
}

/** The limits as more columns of the scope's select (integers only, so inlining them is safe). */
function limitsStatement(limits: TxLimits): string {
  const ms = (n: number) => {
    if (!Number.isInteger(n) || n < 0) throw new Error("a transaction limit is a whole number of milliseconds");
    return `'${n}ms'`;
  };
  return `, set_config('lock_timeout', ${ms(limits.lockTimeoutMs)}, true), set_config('statement_timeout', ${ms(limits.statementTimeoutMs)}, true)`;
}

/** Switches the scope inside an open transaction (host calls that act for one tenant). */
export async function setScope(tx: Tx, scope: Scope): Promise<void> {
  await tx.execute(sql.raw(scopeStatement(scope)));
}

const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The statement that sets a scope. Its values are inlined (a checked GUID and a fixed role name), so the PostgreSQL
 * driver can send it in one round trip together with BEGIN.
 */
export function scopeStatement(scope: Scope): string {
  const tenantId = scope.hostAll ? "" : scope.tenantId.toLowerCase();
  if (tenantId && !guid.test(tenantId)) throw new Error("scope tenant id is not a GUID");
  const role = scope.hostAll ? "erp_host" : "erp_app";
  return `select set_config('role', '${role}', true), set_config('app.tenant_id', '${tenantId}', true)`;
}
