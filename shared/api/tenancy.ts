// Tenant lookups before login (spec §7 Tenancy): ABP's by-name and by-id, and the ERP's GetTenantIdByName. Anonymous,
// as the login screen needs them. And the host's default-connection-string calls (issue 31): a tenant on its own
// PostgreSQL database, moved there and back as a task.
import { z } from "zod";
import {
  defaultConnectionStringParams,
  defaultConnectionStringQuery,
  getTenantIdByNameQuery,
  tenantByIdParams,
  tenantByNameParams,
  tenantConnection,
  tenantLookup,
  tenantMoveStarted,
} from "../contract/tenancy.ts";
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
  /** Where the tenant's data lives and its own database's connection string, masked (host only). */
  getDefaultConnectionString: call({
    group: "Tenant",
    name: "GetDefaultConnectionString",
    method: "GET",
    path: "/api/multi-tenancy/tenants/:id/default-connection-string",
    access: "host",
    params: defaultConnectionStringParams,
    result: tenantConnection,
  }),
  /**
   * Moves the tenant to its own PostgreSQL database: checks the connection and applies the migrations there, then
   * copies the tenant's rows as a task and switches its calls and jobs to it. 400 on PGlite.
   */
  updateDefaultConnectionString: call({
    group: "Tenant",
    name: "UpdateDefaultConnectionString",
    method: "PUT",
    path: "/api/multi-tenancy/tenants/:id/default-connection-string",
    access: "host",
    idempotent: true,
    summary: "Moves the tenant to its own PostgreSQL database (checked, migrated, then its rows copied as a task)",
    params: defaultConnectionStringParams,
    query: defaultConnectionStringQuery,
    result: tenantMoveStarted,
  }),
  /** Moves the tenant back to the shared database, as a task. */
  deleteDefaultConnectionString: call({
    group: "Tenant",
    name: "DeleteDefaultConnectionString",
    method: "DELETE",
    path: "/api/multi-tenancy/tenants/:id/default-connection-string",
    access: "host",
    idempotent: true,
    summary: "Moves the tenant back from its own database to the shared one, as a task",
    params: defaultConnectionStringParams,
    result: tenantMoveStarted,
  }),
};
