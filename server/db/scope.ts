// Every query of a request runs in one transaction as the non-owner role erp_app with the caller's tenant set, so
// row-level security returns nothing of another tenant even where a filter was forgotten.
import { sql } from "drizzle-orm";
import type { Db, Tx } from "./client.ts";
import { HOST_TENANT_ID } from "./schema.ts";

export type Scope =
  /** One tenant's rows (the host's own rows use HOST_TENANT_ID). */
  | { tenantId: string; hostAll?: false }
  /** Host-side work across tenants: an explicit opt-out of the tenant policy. */
  | { tenantId?: undefined; hostAll: true };

export const hostScope: Scope = { tenantId: HOST_TENANT_ID };
export const hostAllScope: Scope = { hostAll: true };

export function inScope<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await setScope(tx, scope);
    return fn(tx);
  });
}

/** Switches the scope inside an open transaction (host calls that act for one tenant). */
export async function setScope(tx: Tx, scope: Scope): Promise<void> {
  const tenantId = scope.hostAll ? "" : scope.tenantId;
  await tx.execute(
    sql`select set_config('role', 'erp_app', true), set_config('app.tenant_id', ${tenantId}, true), set_config('app.host_all', ${scope.hostAll ? "on" : "off"}, true)`,
  );
}
