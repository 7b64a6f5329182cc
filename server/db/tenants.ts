// Finding a tenant by what a caller names it with: its id or its name.
import { eq } from "drizzle-orm";
import type { Tx } from "./client.ts";
import { tenants } from "./schema.ts";
import { normalizeName } from "./names.ts";

export type TenantRow = typeof tenants.$inferSelect;

const guidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Finds a tenant by id or name (case-insensitive), or null. The tenants table is host data without a tenant policy. */
export async function findTenant(tx: Tx, idOrName: string): Promise<TenantRow | null> {
  const where = guidPattern.test(idOrName) ? eq(tenants.id, idOrName.toLowerCase()) : eq(tenants.normalizedName, normalizeName(idOrName));
  const rows = await tx.select().from(tenants).where(where).limit(1);
  return rows[0] ?? null;
}
