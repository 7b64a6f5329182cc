// Creating users and tenants: one place that normalizes names, hashes the password and fills the audit columns.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { tenants, users } from "../../db/schema.ts";
import { setScope } from "../../db/scope.ts";
import { businessError } from "../../http/errors.ts";
import { normalizeName } from "../../db/names.ts";
import type { PasswordHasher } from "./passwords.ts";

export type NewUser = {
  tenantId: string;
  userName: string;
  password: string;
  email?: string | null;
  phoneNumber?: string | null;
  name?: string | null;
  surname?: string | null;
  isMainAccount?: boolean;
  isHost?: boolean;
  remark?: string | null;
  limitMeliAccount?: number | null;
  collectCount?: number | null;
  productCount?: number | null;
  isShowPageCrwal?: boolean;
  creatorId?: string | null;
};

/** Inserts a user; a taken user name or email in the tenant is a business error, not a 500. */
export async function insertUser(tx: Tx, u: NewUser, passwords: PasswordHasher): Promise<typeof users.$inferSelect> {
  const normalizedUserName = normalizeName(u.userName);
  const normalizedEmail = u.email ? normalizeName(u.email) : null;
  const taken = await tx
    .select({ n: users.normalizedUserName, e: users.normalizedEmail })
    .from(users)
    .where(and(eq(users.tenantId, u.tenantId), eq(users.normalizedUserName, normalizedUserName)))
    .limit(1);
  if (taken.length) throw businessError(`用户名 ${u.userName} 已存在`, "DuplicateUserName");
  if (normalizedEmail) {
    const emailTaken = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, u.tenantId), eq(users.normalizedEmail, normalizedEmail), eq(users.isDeleted, false)))
      .limit(1);
    if (emailTaken.length) throw businessError(`邮箱 ${u.email} 已被使用`, "DuplicateEmail");
  }
  const [row] = await tx
    .insert(users)
    .values({
      tenantId: u.tenantId,
      id: randomUUID(),
      userName: u.userName,
      normalizedUserName,
      email: u.email ?? null,
      normalizedEmail,
      phoneNumber: u.phoneNumber ?? null,
      name: u.name ?? null,
      surname: u.surname ?? null,
      passwordHash: await passwords.hash(u.password),
      securityStamp: randomUUID(),
      isMainAccount: u.isMainAccount ?? false,
      isHost: u.isHost ?? false,
      remark: u.remark ?? null,
      limitMeliAccount: u.limitMeliAccount ?? null,
      collectCount: u.collectCount ?? null,
      productCount: u.productCount ?? null,
      isShowPageCrwal: u.isShowPageCrwal ?? true,
      creatorId: u.creatorId ?? null,
    })
    .returning();
  // The tenant's sub-account counter moves in the same transaction as the row (a future delete must decrement it).
  if (!row.isMainAccount && !row.isHost) {
    await tx
      .update(tenants)
      .set({ subAccountCount: sql`${tenants.subAccountCount} + 1` })
      .where(eq(tenants.id, u.tenantId));
  }
  return row;
}

export type NewTenant = {
  tenantName: string;
  userName: string;
  pwd: string;
  email?: string | null;
  phoneNumber?: string | null;
  remark?: string | null;
  accountExpireTime?: Date | null;
  creatorId?: string | null;
};

/** Creates a tenant and its main account in one transaction. Leaves the transaction scoped to the new tenant. */
export async function insertTenantWithMainAccount(tx: Tx, t: NewTenant, passwords: PasswordHasher) {
  const normalizedName = normalizeName(t.tenantName);
  const exists = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.normalizedName, normalizedName)).limit(1);
  if (exists.length) throw businessError(`公司名 ${t.tenantName} 已存在`, "DuplicateTenantName");
  const [tenant] = await tx
    .insert(tenants)
    .values({
      id: randomUUID(),
      name: t.tenantName.trim(),
      normalizedName,
      remark: t.remark ?? null,
      accountExpireTime: t.accountExpireTime ?? null,
      creatorId: t.creatorId ?? null,
    })
    .returning();
  await setScope(tx, { tenantId: tenant.id });
  const user = await insertUser(
    tx,
    {
      tenantId: tenant.id,
      userName: t.userName,
      password: t.pwd,
      email: t.email,
      phoneNumber: t.phoneNumber,
      isMainAccount: true,
      creatorId: t.creatorId ?? null,
    },
    passwords,
  );
  return { tenant, user };
}
