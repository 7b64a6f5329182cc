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
