// Host administration calls (spec §7 Hosted): tenants, their main accounts, remarks, unlocking and password resets.
// Every call is host-only; the remaining Hosted calls (money, migration, copying, statistics) join as their areas land.
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
import { pagedResult } from "#shared/contract/common.ts";
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
} from "#shared/contract/hosted.ts";
import { tenantAccountSummary } from "#shared/contract/users.ts";
import type { HostedService } from "./service.ts";

export function registerHosted(r: Registrar, { hosted }: { hosted: HostedService }) {
  const group = "Hosted";
  r.call({
    group,
    name: "OpenTenantAccount",
    method: "POST",
    access: "host",
    idempotent: true,
    summary: "Opens a tenant with its main account; answers the main account's summary",
    body: openTenantAccountInput,
    result: tenantAccountSummary,
    handler: (ctx, { body }) => hosted.openTenantAccount(ctx, body),
  });
  r.call({
    group,
    name: "GetTenants",
    method: "GET",
    access: "host",
    query: getTenantsQuery,
    result: pagedResult(tenantListItem),
    handler: (ctx, { query }) => hosted.getTenants(ctx, query),
  });
  r.call({
    group,
    name: "GetAllTenants",
    method: "GET",
    access: "host",
    result: z.array(tenantLookup),
    handler: (ctx) => hosted.getAllTenants(ctx),
  });
  r.call({
    group,
    name: "EditRemark",
    method: "PUT",
    access: "host",
    summary: "Sets a tenant's remark (an empty remark clears it)",
    query: editRemarkQuery,
    handler: (ctx, { query }) => hosted.editRemark(ctx, query),
  });
  r.call({
    group,
    name: "GetTenantNameBySearch",
    method: "GET",
    access: "host",
    summary: "Up to 20 tenants whose name contains the search text",
    query: tenantNameSearchQuery,
    result: z.array(tenantNameItem),
    handler: (ctx, { query }) => hosted.getTenantNameBySearch(ctx, query.search),
  });
  r.call({
    group,
    name: "UnLockTenant",
    method: "GET",
    access: "host",
    summary: "Clears the login lockout of one user of the tenant, or of all its users",
    query: unlockTenantQuery,
    handler: (ctx, { query }) => hosted.unlockTenant(ctx, query),
  });
  r.call({
    group,
    name: "ResetTenantPassword",
    method: "GET",
    access: "host",
    summary: "Sets a tenant user's password (main account by default; generated when Pwd is absent) and ends its sessions",
    query: resetTenantPasswordQuery,
    result: resetTenantPasswordResult,
    handler: (ctx, { query }) => hosted.resetTenantPassword(ctx, query),
  });
  r.call({
    group,
    name: "GetTenantUserInfo",
    method: "GET",
    access: "host",
    summary: "The account summary of the tenant's main account",
    query: tenantUserInfoQuery,
    result: tenantAccountSummary,
    handler: (ctx, { query }) => hosted.getTenantUserInfo(ctx, query.TenantId),
  });
}
