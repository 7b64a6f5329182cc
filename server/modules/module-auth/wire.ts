// An application row as the wire shows it: both tenants' names, and Expired derived from the expiry.
import { inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Tx } from "../../db/client.ts";
import { type moduleAuths, tenants } from "../../db/schema.ts";
import { ModuleAuthStatus } from "#shared/contract/enums.ts";
import type { ModuleAuth } from "#shared/contract/module-auth.ts";

export type AuthRow = typeof moduleAuths.$inferSelect;

/** The two tenants of an application joined by name: A (the applicant) and B (the grantor). */
export const applicant = alias(tenants, "applicant");
export const grantor = alias(tenants, "grantor");

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The status as the wire shows it: an approved grant past its expiry reads Expired. */
export function statusOf(r: AuthRow, now: Date): number {
  return r.auditStatus === ModuleAuthStatus.Approved && r.expireTime <= now ? ModuleAuthStatus.Expired : r.auditStatus;
}

export function toWire(r: AuthRow, tenantName: string, authTenantName: string, now: Date): ModuleAuth {
  return {
    id: r.id,
    tenantId: r.tenantId,
    tenantName,
    authTenantId: r.authTenantId,
    authTenantName,
    expireTime: r.expireTime.toISOString(),
    authContent: r.authContent as string[],
    auditStatus: statusOf(r, now),
    remark: r.remark,
    reason: r.reason,
    creationTime: r.creationTime.toISOString(),
    auditTime: iso(r.auditTime),
    revokeTime: iso(r.revokeTime),
    applyCount: r.applyCount,
  };
}

/** The row with both tenants' names. */
export async function withNames(tx: Tx, r: AuthRow): Promise<ModuleAuth> {
  const names = await tx
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(inArray(tenants.id, [r.tenantId, r.authTenantId]));
  const name = (id: string) => names.find((n) => n.id === id)?.name ?? "";
  return toWire(r, name(r.tenantId), name(r.authTenantId), new Date());
}
