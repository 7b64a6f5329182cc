// The main account's management of its sub-accounts: list, read, create, update, enable and disable. Every query names
// the caller's tenant; row-level security backs that up.
import { randomUUID } from "node:crypto";
import { and, desc, eq, ilike, ne, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { containsPattern, orderBy, pageOf } from "../../db/query.ts";
import type { CallContext } from "../../http/calls.ts";
import { normalizeName } from "../../db/names.ts";
import { businessError, conflict, notFound } from "../../http/errors.ts";
import type { createSubUserInput, getSubUsersQuery, SubUser, updateUserInput } from "#shared/contract/users.ts";
import { insertUser, revokeUserSessions, type PasswordHasher } from "../identity/index.ts";
import { assertSubAccountAllowed } from "../subaccount-orders/index.ts";

export type UserRow = typeof users.$inferSelect;

export function toSubUser(u: UserRow): SubUser {
  return {
    id: u.id,
    userName: u.userName,
    email: u.email,
    phoneNumber: u.phoneNumber,
    remark: u.remark,
    limitMeliAccount: u.limitMeliAccount,
    collectCount: u.collectCount,
    productCount: u.productCount,
    isShowPageCrwal: u.isShowPageCrwal,
    creationTime: u.creationTime.toISOString(),
    creatorId: u.creatorId,
    isActive: u.isActive,
    isMainAccount: u.isMainAccount,
    concurrencyStamp: u.concurrencyStamp,
  };
}

const sortColumns = { userName: users.userName, creationTime: users.creationTime, email: users.email, isActive: users.isActive };

export async function getSubUsers(ctx: CallContext, q: z.output<typeof getSubUsersQuery>) {
  const tenantId = ctx.user!.tenantId;
  const conditions = [eq(users.tenantId, tenantId), eq(users.isDeleted, false), eq(users.isMainAccount, false)];
  if (q.Search?.trim()) {
    const like = containsPattern(q.Search.trim());
    conditions.push(or(ilike(users.userName, like), ilike(users.email, like), ilike(users.phoneNumber, like), ilike(users.remark, like))!);
  }
  if (q.IsActive !== undefined) conditions.push(eq(users.isActive, q.IsActive));
  const where = and(...conditions);
  // Unfiltered, the total is the tenant's sub-account counter; the newest-first order walks the (tenant, time, id) index.
  const unfiltered = !q.Search?.trim() && q.IsActive === undefined;
  return pageOf(
    ctx.tx,
    users,
    where,
    {
      skip: q.SkipCount,
      take: q.MaxResultCount,
      order: [orderBy(q.Sorting, sortColumns, desc(users.creationTime)), desc(users.id)],
      total: unfiltered ? ctx.user!.tenant?.subAccountCount : undefined,
    },
    toSubUser,
  );
}

/** A user of the tenant that is not deleted; 404 otherwise. */
export async function findSubUser(tx: Tx, tenantId: string, userId: string): Promise<UserRow> {
  const rows = await tx
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), eq(users.isDeleted, false)))
    .limit(1);
  if (!rows[0]) throw notFound("用户不存在");
  return rows[0];
}

export async function getSubUserById(ctx: CallContext, userId: string) {
  return toSubUser(await findSubUser(ctx.tx, ctx.user!.tenantId, userId));
}

export async function createSubUser(ctx: CallContext, body: z.output<typeof createSubUserInput>, passwords: PasswordHasher) {
  // Within the free and bought sub-accounts (modules/subaccount-orders).
  await assertSubAccountAllowed(ctx.tx, ctx.user!.tenantId);
  const row = await insertUser(
    ctx.tx,
    {
      tenantId: ctx.user!.tenantId,
      userName: body.userName,
      password: body.pwd,
      email: body.email,
      phoneNumber: body.phoneNumber,
      remark: body.remark,
      limitMeliAccount: body.limitMeliAccount,
      collectCount: body.collectCount,
      productCount: body.productCount,
      isShowPageCrwal: body.isShowPageCrwal,
      creatorId: ctx.user!.id,
    },
    passwords,
  );
  return toSubUser(row);
}

export async function updateUser(ctx: CallContext, body: z.output<typeof updateUserInput>) {
  const tenantId = ctx.user!.tenantId;
  const current = await findSubUser(ctx.tx, tenantId, body.id);
  if (body.concurrencyStamp !== undefined && body.concurrencyStamp !== current.concurrencyStamp) throw conflict();
  const normalizedEmail = body.email === undefined ? undefined : body.email ? normalizeName(body.email) : null;
  if (normalizedEmail && normalizedEmail !== current.normalizedEmail) {
    const taken = await ctx.tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(eq(users.tenantId, tenantId), eq(users.normalizedEmail, normalizedEmail), ne(users.id, current.id), eq(users.isDeleted, false)),
      )
      .limit(1);
    if (taken.length) throw businessError(`邮箱 ${body.email} 已被使用`, "DuplicateEmail");
  }
  const change: Partial<typeof users.$inferInsert> = {};
  if (body.email !== undefined) Object.assign(change, { email: body.email, normalizedEmail });
  for (const k of ["phoneNumber", "remark", "limitMeliAccount", "collectCount", "productCount", "isShowPageCrwal"] as const) {
    if (body[k] !== undefined) Object.assign(change, { [k]: body[k] });
  }
  const [row] = await ctx.tx
    .update(users)
    .set({
      ...change,
      lastModificationTime: new Date(),
      lastModifierId: ctx.user!.id,
      concurrencyStamp: randomUUID(),
      entityVersion: sql`${users.entityVersion} + 1`,
    })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, current.id), eq(users.concurrencyStamp, current.concurrencyStamp)))
    .returning();
  if (!row) throw conflict();
  return toSubUser(row);
}

export async function setEnabled(ctx: CallContext, userId: string, enable: boolean) {
  const tenantId = ctx.user!.tenantId;
  const target = await findSubUser(ctx.tx, tenantId, userId);
  if (target.isMainAccount) throw businessError("不能启用或禁用主账号");
  if (enable && !target.isActive) await assertSubAccountAllowed(ctx.tx, tenantId);
  await ctx.tx
    .update(users)
    .set({ isActive: enable, concurrencyStamp: randomUUID(), lastModificationTime: new Date(), lastModifierId: ctx.user!.id })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, target.id)));
  if (!enable) await revokeUserSessions(ctx.tx, tenantId, target.id);
}
