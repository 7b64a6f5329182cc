// Who a transfer is between: the two tenants and the users on either side, checked before anything is written (a bad
// pair answers the error envelope and changes nothing).
import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, tenants, users } from "../../db/schema.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import type { Leg } from "./sql.ts";

export type Tenant = { id: string; name: string };

/** A tenant by id (not the host's own); 404 公司未找到 as the spec's catalogue says. */
export async function tenantById(tx: Tx, tenantId: string): Promise<Tenant> {
  const [t] =
    tenantId === HOST_TENANT_ID
      ? []
      : await tx.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  if (!t) throw notFound("公司未找到");
  return t;
}

/** The source and destination, refused when they are the same tenant. */
export async function tenantPair(tx: Tx, srcTenantId: string, destTenantId: string): Promise<{ src: Tenant; dest: Tenant }> {
  if (srcTenantId === destTenantId) throw badRequest("源公司与目标公司不能相同");
  return { src: await tenantById(tx, srcTenantId), dest: await tenantById(tx, destTenantId) };
}

/** A live user of the tenant; `side` names it in the refusal (源 / 目标). */
export async function userOf(tx: Tx, tenantId: string, userId: string, side: string): Promise<string> {
  const [u] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), eq(users.isDeleted, false)));
  if (!u) throw badRequest(`${side}用户不属于${side}公司`);
  return u.id;
}

/** The tenant's main account (the oldest live one). */
export async function mainAccountOf(tx: Tx, tenantId: string): Promise<string> {
  const [u] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.isMainAccount, true), eq(users.isDeleted, false)))
    .orderBy(asc(users.creationTime))
    .limit(1);
  if (!u) throw badRequest("目标公司没有主账号");
  return u.id;
}

/** The leg of a copy: both tenants checked, the source user (when given) and the owner of the copies. */
export async function legOf(
  tx: Tx,
  q: { srcTenantId: string; destTenantId: string; srcUserId?: string | null; destUserId?: string | null },
): Promise<{ leg: Leg; src: Tenant; dest: Tenant; srcUserId: string | null }> {
  const { src, dest } = await tenantPair(tx, q.srcTenantId, q.destTenantId);
  const srcUserId = q.srcUserId ? await userOf(tx, src.id, q.srcUserId, "源") : null;
  const owner = q.destUserId ? await userOf(tx, dest.id, q.destUserId, "目标") : await mainAccountOf(tx, dest.id);
  return { leg: { src: src.id, dest: dest.id, owner }, src, dest, srcUserId };
}

/** At each step of a running task: the owner is still there (a user removed since cannot own the copies). */
export async function ownerStillThere(tx: Tx, leg: Leg): Promise<void> {
  const [u] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, leg.dest), eq(users.id, leg.owner), eq(users.isDeleted, false)));
  if (!u) throw notFound("目标用户已不存在");
}
