// Host administration calls (spec §7 Hosted): tenants, their main accounts, remarks, unlocking and password resets.
// Every call is host-only (the server answers 403 to anyone else); the remaining Hosted calls (money, migration,
// copying, statistics) are declared with their areas.
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
import { call } from "./define.ts";

const group = "Hosted";

export const hostedCalls = {
  openTenantAccount: call({
    group,
    name: "OpenTenantAccount",
    method: "POST",
    access: "host",
    idempotent: true,
    summary: "Opens a tenant with its main account; answers the main account's summary",
    body: openTenantAccountInput,
    result: tenantAccountSummary,
  }),
  getTenants: call({
    group,
    name: "GetTenants",
    method: "GET",
    access: "host",
    query: getTenantsQuery,
    result: pagedResult(tenantListItem),
  }),
  getAllTenants: call({ group, name: "GetAllTenants", method: "GET", access: "host", result: z.array(tenantLookup) }),
  editRemark: call({
    group,
    name: "EditRemark",
    method: "PUT",
    access: "host",
    summary: "Sets a tenant's remark (an empty remark clears it)",
    query: editRemarkQuery,
  }),
  getTenantNameBySearch: call({
    group,
    name: "GetTenantNameBySearch",
    method: "GET",
    access: "host",
    summary: "Up to 20 tenants whose name contains the search text",
    query: tenantNameSearchQuery,
    result: z.array(tenantNameItem),
  }),
  unLockTenant: call({
    group,
    name: "UnLockTenant",
    method: "GET",
    access: "host",
    summary: "Clears the login lockout of one user of the tenant, or of all its users",
    query: unlockTenantQuery,
  }),
  resetTenantPassword: call({
    group,
    name: "ResetTenantPassword",
    method: "GET",
    access: "host",
    summary: "Sets a tenant user's password (main account by default; generated when Pwd is absent) and ends its sessions",
    query: resetTenantPasswordQuery,
    result: resetTenantPasswordResult,
  }),
  getTenantUserInfo: call({
    group,
    name: "GetTenantUserInfo",
    method: "GET",
    access: "host",
    summary: "The account summary of the tenant's main account",
    query: tenantUserInfoQuery,
    result: tenantAccountSummary,
  }),
};
