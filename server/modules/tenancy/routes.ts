// Tenant lookups before login (spec §7 Tenancy): ABP's by-name and by-id, and the ERP's GetTenantIdByName. Anonymous,
// as the login screen needs them.
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
import { getTenantIdByNameQuery, tenantByIdParams, tenantByNameParams, tenantLookup } from "#shared/contract/tenancy.ts";
import type { TenancyService } from "./service.ts";

export function registerTenancy(r: Registrar, { tenancy }: { tenancy: TenancyService }) {
  r.call({
    group: "AbpTenant",
    name: "FindTenantByName",
    method: "GET",
    path: "/api/abp/multi-tenancy/tenants/by-name/:name",
    access: "anonymous",
    params: tenantByNameParams,
    result: tenantLookup,
    handler: (ctx, { params }) => tenancy.lookupTenant(ctx, params.name),
  });
  r.call({
    group: "AbpTenant",
    name: "FindTenantById",
    method: "GET",
    path: "/api/abp/multi-tenancy/tenants/by-id/:id",
    access: "anonymous",
    params: tenantByIdParams,
    result: tenantLookup,
    handler: (ctx, { params }) => tenancy.lookupTenant(ctx, params.id),
  });
  r.call({
    group: "ErpTenant",
    name: "GetTenantIdByName",
    method: "GET",
    access: "anonymous",
    // pid is part of the old client's request and is accepted for wire compatibility; it does not change the answer.
    query: getTenantIdByNameQuery,
    result: z.string(),
    handler: (ctx, { query }) => tenancy.getTenantIdByName(ctx, query.name),
  });
}
