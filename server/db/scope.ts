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
  const runner = runners.get(db);
  if (runner) return runner(statement, fn, prelude);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(statement));
    return fn(tx, prelude ? rowsOf(await tx.execute(sql.raw(prelude))) : []);
  });
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
