// Host administration calls (spec §7 Hosted): tenants, their main accounts, remarks, unlocking and password resets.
// Host only; the server answers 403 to anyone else.
import { z } from "zod";
import { pagedResult } from "../contract/common.ts";
import {
  editRemarkQuery,
  getTenantsQuery,
  openTenantAccountInput,
  resetTenantPasswordQuery,
  resetTenantPasswordResult,
  tenantListItem,
  tenantLookup,
  tenantNameItem,
  tenantNameSearchQuery,
  tenantUserInfoQuery,
  unlockTenantQuery,
} from "../contract/hosted.ts";
import { tenantAccountSummary } from "../contract/users.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

const hosted = (name: string) => `/api/Hosted/${name}`;

export const hostedCalls = {
  openTenantAccount: call({
    method: "POST",
    path: hosted("OpenTenantAccount"),
    idempotent: true,
    body: openTenantAccountInput,
    result: tenantAccountSummary,
  }),
  getTenants: call({ method: "GET", path: hosted("GetTenants"), query: getTenantsQuery, result: pagedResult(tenantListItem) }),
  getAllTenants: call({ method: "GET", path: hosted("GetAllTenants"), result: z.array(tenantLookup) }),
  editRemark: call({ method: "PUT", path: hosted("EditRemark"), query: editRemarkQuery }),
  getTenantNameBySearch: call({
    method: "GET",
    path: hosted("GetTenantNameBySearch"),
    query: tenantNameSearchQuery,
    result: z.array(tenantNameItem),
  }),
  unLockTenant: call({ method: "GET", path: hosted("UnLockTenant"), query: unlockTenantQuery }),
  resetTenantPassword: call({
    method: "GET",
    path: hosted("ResetTenantPassword"),
    query: resetTenantPasswordQuery,
    result: resetTenantPasswordResult,
  }),
  getTenantUserInfo: call({ method: "GET", path: hosted("GetTenantUserInfo"), query: tenantUserInfoQuery, result: tenantAccountSummary }),
};

export const createHostedApi = (client: ApiClient) => bindCalls(client, hostedCalls);
export type HostedApi = ReturnType<typeof createHostedApi>;
