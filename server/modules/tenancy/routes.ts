// Tenant lookups before login and a tenant's own database, declared in shared/api/tenancy.ts.
import type { Registrar } from "../../http/calls.ts";
import { tenancyCalls as calls } from "#shared/api/tenancy.ts";
import type { TenancyService } from "./service.ts";

export function registerTenancy(r: Registrar, { tenancy }: { tenancy: TenancyService }) {
  r.handle(calls.findTenantByName, { handler: (ctx, { params }) => tenancy.lookupTenant(ctx, params.name) });
  r.handle(calls.findTenantById, { handler: (ctx, { params }) => tenancy.lookupTenant(ctx, params.id) });
  r.handle(calls.getTenantIdByName, { handler: (ctx, { query }) => tenancy.getTenantIdByName(ctx, query.name) });
  r.handle(calls.getDefaultConnectionString, { handler: (ctx, { params }) => tenancy.getDefaultConnectionString(ctx, params.id) });
  r.handle(calls.updateDefaultConnectionString, {
    handler: (ctx, { params, query }) => tenancy.updateDefaultConnectionString(ctx, params.id, query.defaultConnectionString),
  });
  r.handle(calls.deleteDefaultConnectionString, { handler: (ctx, { params }) => tenancy.deleteDefaultConnectionString(ctx, params.id) });
}
