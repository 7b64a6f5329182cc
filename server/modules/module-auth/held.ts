// The grants a tenant holds in force, for the user init cache (spec §3 Module auth: id, name) — apart from the service
// so the shop accounts' cache (meli/accounts.ts) reads it without loading the rest of the authorization centre.
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Tx } from "../../db/client.ts";
import { moduleAuths, tenants } from "../../db/schema.ts";
import { ModuleAuthStatus } from "#shared/contract/enums.ts";

const grantor = alias(tenants, "grantor");

/** Approved, unexpired grants the tenant holds: the grant's id and the grantor's name, newest first. */
export async function heldModuleAuths(tx: Tx, tenantId: string): Promise<{ id: string; name: string }[]> {
  return tx
    .select({ id: moduleAuths.id, name: grantor.name })
    .from(moduleAuths)
    .innerJoin(grantor, eq(grantor.id, moduleAuths.authTenantId))
    .where(
      and(
        eq(moduleAuths.tenantId, tenantId),
        eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved),
        gt(moduleAuths.expireTime, sql`now()`),
      ),
    )
    .orderBy(desc(moduleAuths.creationTime));
}
