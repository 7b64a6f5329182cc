// Tenant lookups before login (spec §7 Tenancy): ABP's by-name and by-id, and the ERP's GetTenantIdByName. Anonymous,
// as the login screen needs them. An inactive tenant is still found (isActive false), so login can say it is stopped.
import { z } from "zod";
import type { AppDeps } from "../../app.ts";
import { findTenant, type CallContext, type Registrar, type TenantRow } from "../../http/calls.ts";
import { notFound } from "../../http/errors.ts";
import {
  getTenantIdByNameQuery,
  tenantByIdParams,
  tenantByNameParams,
  tenantLookup,
  type TenantLookup,
} from "../../../shared/contract/tenancy.ts";

const lookup = (t: TenantRow | null): TenantLookup =>
  t
    ? { success: true, tenantId: t.id, name: t.name, isActive: t.isActive }
    : { success: false, tenantId: null, name: null, isActive: false };

const find = (ctx: CallContext, idOrName: string) => findTenant(ctx.tx, idOrName);

export function registerTenancy(r: Registrar, deps: AppDeps) {
  void deps;
  r.call({
    group: "AbpTenant",
    name: "FindTenantByName",
    method: "GET",
    path: "/api/abp/multi-tenancy/tenants/by-name/:name",
    access: "anonymous",
    params: tenantByNameParams,
    result: tenantLookup,
    handler: async (ctx, { params }) => lookup(await find(ctx, params.name)),
  });
  r.call({
    group: "AbpTenant",
    name: "FindTenantById",
    method: "GET",
    path: "/api/abp/multi-tenancy/tenants/by-id/:id",
    access: "anonymous",
    params: tenantByIdParams,
    result: tenantLookup,
    handler: async (ctx, { params }) => lookup(await find(ctx, params.id)),
  });
  r.call({
    group: "ErpTenant",
    name: "GetTenantIdByName",
    method: "GET",
    access: "anonymous",
    // pid is part of the old client's request and is accepted for wire compatibility; it does not change the answer.
    query: getTenantIdByNameQuery,
    result: z.string(),
    handler: async (ctx, { query }) => {
      const tenant = await find(ctx, query.name);
      if (!tenant) throw notFound("公司未找到");
      return tenant.id;
    },
  });
}
