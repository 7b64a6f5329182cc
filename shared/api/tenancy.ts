// Tenant lookups before login (spec §7 Tenancy): ABP's by-name and by-id, and the ERP's GetTenantIdByName. Anonymous,
// as the login screen needs them.
import { z } from "zod";
import { getTenantIdByNameQuery, tenantByIdParams, tenantByNameParams, tenantLookup } from "../contract/tenancy.ts";
import { call } from "./define.ts";

const abpGroup = "AbpTenant";
const group = "ErpTenant";

export const tenancyCalls = {
  findTenantByName: call({
    group: abpGroup,
    name: "FindTenantByName",
    method: "GET",
    path: "/api/abp/multi-tenancy/tenants/by-name/:name",
    access: "anonymous",
    params: tenantByNameParams,
    result: tenantLookup,
  }),
  findTenantById: call({
    group: abpGroup,
    name: "FindTenantById",
    method: "GET",
    path: "/api/abp/multi-tenancy/tenants/by-id/:id",
    access: "anonymous",
    params: tenantByIdParams,
    result: tenantLookup,
  }),
  /** The tenant's id; 404 公司未找到 for an unknown name. */
  getTenantIdByName: call({
    group,
    name: "GetTenantIdByName",
    method: "GET",
    access: "anonymous",
    // pid is part of the old client's request and is accepted for wire compatibility; it does not change the answer.
    query: getTenantIdByNameQuery,
    result: z.string(),
  }),
};
