// Tenant lookups before login (spec §7 Tenancy): ABP's multi-tenancy paths and the ERP's own GetTenantIdByName.
import { z } from "zod";
import { id } from "./common.ts";

/** Tenant lookup (spec §3): an unknown tenant is success false with nulls, not an error. */
export const tenantLookup = z.object({
  success: z.boolean(),
  tenantId: z.string().nullable(),
  name: z.string().nullable(),
  isActive: z.boolean(),
});
export type TenantLookup = z.infer<typeof tenantLookup>;

export const tenantByNameParams = z.object({ name: z.string().trim().min(1).max(256) });
export const tenantByIdParams = z.object({ id });

export const getTenantIdByNameQuery = z.object({
  name: z.string().trim().min(1).max(256),
  /** Sent by the old client; kept for wire compatibility and not used. */
  pid: z.string().max(64).optional(),
});

/** A tenant on its own database (issue 31): the tenant in the path, by id (or name, as the lookups take it). */
export const defaultConnectionStringParams = z.object({ id: z.string().trim().min(1).max(256) });

/** PUT's query: the PostgreSQL connection string of the tenant's own database. */
export const defaultConnectionStringQuery = z.object({
  defaultConnectionString: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .regex(/^postgres(ql)?:\/\/\S+$/, "应为 postgres://用户:密码@主机:端口/数据库"),
});

/** Where a tenant's data lives: shared (the platform's database), moving (being copied to its own), active (on its
 *  own), returning (being copied back); the connection string with its password hidden, never in full. */
export const tenantConnection = z.object({
  state: z.enum(["shared", "moving", "active", "returning"]),
  connectionString: z.string().nullable(),
  /** The task of the move under way or last done. */
  taskId: z.string().nullable(),
});
export type TenantConnection = z.infer<typeof tenantConnection>;

/** A move started: its task (the task centre and the event stream show its progress). */
export const tenantMoveStarted = z.object({ taskId: z.string() });
