// Tenant lookups before login (spec §7 Tenancy). An inactive tenant is still found (isActive false), so login can say
// it is stopped. And a tenant on its own database (own-database.ts, host only).
import type { CallContext } from "../../http/calls.ts";
import { notFound } from "../../http/errors.ts";
import type { TenantLookup } from "#shared/contract/tenancy.ts";
import { findTenant } from "../../db/tenants.ts";
import { createOwnDatabases } from "./own-database.ts";

/** ABP's lookup answer for a tenant id or name: success false when there is no such tenant. */
async function lookupTenant(ctx: CallContext, idOrName: string): Promise<TenantLookup> {
  const t = await findTenant(ctx.tx, idOrName);
  return t
    ? { success: true, tenantId: t.id, name: t.name, isActive: t.isActive }
    : { success: false, tenantId: null, name: null, isActive: false };
}

async function getTenantIdByName(ctx: CallContext, name: string): Promise<string> {
  const tenant = await findTenant(ctx.tx, name);
  if (!tenant) throw notFound("公司未找到");
  return tenant.id;
}

export function createTenancyService(deps: Parameters<typeof createOwnDatabases>[0]) {
  return { lookupTenant, getTenantIdByName, ...createOwnDatabases(deps) };
}

export type TenancyService = ReturnType<typeof createTenancyService>;
