// Tenant lookups before login (spec §7 Tenancy): ABP's by-name and by-id, and the ERP's GetTenantIdByName.
import { z } from "zod";
import { getTenantIdByNameQuery, tenantByIdParams, tenantByNameParams, tenantLookup } from "../contract/tenancy.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const tenancyCalls = {
  findTenantByName: call({
    method: "GET",
    path: "/api/abp/multi-tenancy/tenants/by-name/:name",
    params: tenantByNameParams,
    result: tenantLookup,
  }),
  findTenantById: call({ method: "GET", path: "/api/abp/multi-tenancy/tenants/by-id/:id", params: tenantByIdParams, result: tenantLookup }),
  /** The tenant's id; 404 公司未找到 for an unknown name. */
  getTenantIdByName: call({ method: "GET", path: "/api/ErpTenant/GetTenantIdByName", query: getTenantIdByNameQuery, result: z.string() }),
};

export const createTenancyApi = (client: ApiClient) => bindCalls(client, tenancyCalls);
export type TenancyApi = ReturnType<typeof createTenancyApi>;
