// Host administration of tenants (spec §7 Hosted). These calls run with the tenant policy opted out (access "host"),
// so every query names its tenant itself.
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { tenants, users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { normalizeName } from "../../db/names.ts";
import type { TenantRow } from "../../db/tenants.ts";
import { notFound } from "../../http/errors.ts";
import type { PagedResult } from "#shared/contract/common.ts";
import type {
  editRemarkQuery,
  getTenantsQuery,
  openTenantAccountInput,
  ResetTenantPasswordResult,
  resetTenantPasswordQuery,
  TenantListItem,
  TenantLookup,
  unlockTenantQuery,
} from "#shared/contract/hosted.ts";
import type { TenantAccountSummary } from "#shared/contract/users.ts";
import { generatePassword, revokeUserSessions, insertTenantWithMainAccount, type PasswordHasher } from "../identity/index.ts";
import type { UserService } from "../users/index.ts";
import { containsPattern, orderBy } from "../../db/query.ts";

type UserRow = typeof users.$inferSelect;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

const tenantNotFound = () => notFound("公司未找到");
const userNotFound = () => notFound("用户不存在");

async function findTenantById(tx: Tx, tenantId: string): Promise<TenantRow> {
  const rows = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!rows[0]) throw tenantNotFound();
  return rows[0];
}

/** The tenant's main account (the oldest, should there ever be two). */
async function findMainAccount(tx: Tx, tenantId: string): Promise<UserRow> {
  const rows = await tx
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.isMainAccount, true), eq(users.isDeleted, false)))
    .orderBy(asc(users.creationTime))
    .limit(1);
  if (!rows[0]) throw userNotFound();
  return rows[0];
}

async function findTenantUser(tx: Tx, tenantId: string, userId: string): Promise<UserRow> {
  const rows = await tx
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), eq(users.isDeleted, false)))
    .limit(1);
  if (!rows[0]) throw userNotFound();
  return rows[0];
}

const tenantSortColumns = {
  tenantName: tenants.name,
  creationTime: tenants.creationTime,
  accountExpireTime: tenants.accountExpireTime,
  balance: tenants.balance,
  isActive: tenants.isActive,
};

/** The tenant list: each tenant with its main account and sub-account counter, from one count and one page query. */
async function getTenants(ctx: CallContext, q: z.output<typeof getTenantsQuery>): Promise<PagedResult<TenantListItem>> {
  const tx = ctx.tx;
  const main = tx
    .select({
      userId: users.id,
      userName: users.userName,
      email: users.email,
      phoneNumber: users.phoneNumber,
      lockoutEnd: users.lockoutEnd,
    })
    .from(users)
    .where(and(eq(users.tenantId, tenants.id), eq(users.isMainAccount, true), eq(users.isDeleted, false)))
    .orderBy(asc(users.creationTime))
    .limit(1)
    .as("main_account");

  const conditions: SQL[] = [];
  const search = q.Search?.trim();
  if (search) {
    const like = containsPattern(search);
    conditions.push(
      or(
        ilike(tenants.name, like),
        ilike(tenants.remark, like),
        ilike(main.userName, like),
        ilike(main.email, like),
        ilike(main.phoneNumber, like),
      )!,
    );
  }
  if (q.IsActive !== undefined) conditions.push(eq(tenants.isActive, q.IsActive));
  const where = conditions.length ? and(...conditions) : undefined;

  const [{ n }] = await tx
    .select({ n: count() })
    .from(tenants)
    .leftJoinLateral(main, sql`true`)
    .where(where);
  const rows = n
    ? await tx
        .select({
          id: tenants.id,
          tenantName: tenants.name,
          remark: tenants.remark,
          isActive: tenants.isActive,
          creationTime: tenants.creationTime,
          accountExpireTime: tenants.accountExpireTime,
          accountPaymentType: tenants.accountPaymentType,
          balance: tenants.balance,
          userId: main.userId,
          userName: main.userName,
          email: main.email,
          phoneNumber: main.phoneNumber,
          lockoutEnd: main.lockoutEnd,
          subAccountCount: tenants.subAccountCount,
        })
        .from(tenants)
        .leftJoinLateral(main, sql`true`)
        .where(where)
        .orderBy(orderBy(q.Sorting, tenantSortColumns, desc(tenants.creationTime)), asc(tenants.id))
        .limit(q.MaxResultCount)
        .offset(q.SkipCount)
    : [];
  return {
    items: rows.map((r) => ({
      ...r,
      creationTime: iso(r.creationTime)!,
      accountExpireTime: iso(r.accountExpireTime),
      lockoutEnd: iso(r.lockoutEnd),
      subAccountCount: Number(r.subAccountCount ?? 0),
    })),
    totalCount: Number(n),
  };
}

async function getAllTenants(ctx: CallContext): Promise<TenantLookup[]> {
  return ctx.tx
    .select({ id: tenants.id, name: tenants.name, isActive: tenants.isActive })
    .from(tenants)
    .orderBy(asc(tenants.normalizedName), asc(tenants.id));
}

async function editRemark(ctx: CallContext, q: z.output<typeof editRemarkQuery>): Promise<void> {
  const remark = q.remark.trim() || null;
  const rows = await ctx.tx
    .update(tenants)
    .set({ remark, lastModificationTime: new Date(), lastModifierId: ctx.user!.id, concurrencyStamp: randomUUID() })
    .where(eq(tenants.id, q.id))
    .returning({ id: tenants.id });
  if (!rows.length) throw tenantNotFound();
}

/** Up to 20 tenants whose name contains the search text, names starting with it first. */
async function getTenantNameBySearch(ctx: CallContext, search: string | undefined): Promise<{ id: string; name: string }[]> {
  const s = search?.trim();
  const query = ctx.tx.select({ id: tenants.id, name: tenants.name }).from(tenants);
  if (!s) return query.orderBy(asc(tenants.normalizedName)).limit(20);
  const prefix = normalizeName(s);
  return query
    .where(ilike(tenants.name, containsPattern(s)))
    .orderBy(sql`starts_with(${tenants.normalizedName}, ${prefix}) desc`, asc(tenants.normalizedName))
    .limit(20);
}

/** Clears the login lockout of one user of the tenant, or of all its users. */
async function unlockTenant(ctx: CallContext, q: z.output<typeof unlockTenantQuery>): Promise<void> {
  await findTenantById(ctx.tx, q.tenantId);
  const conditions = [eq(users.tenantId, q.tenantId), eq(users.isDeleted, false)];
  if (q.userId) conditions.push(eq(users.id, q.userId));
  const rows = await ctx.tx
    .update(users)
    .set({ lockoutEnd: null, accessFailedCount: 0 })
    .where(and(...conditions))
    .returning({ id: users.id });
  if (q.userId && !rows.length) throw userNotFound();
}

/**
 * Sets a tenant user's password (the main account by default), generating one when none is given; the user's
 * sessions end and its lockout clears. The generated password is answered once and stored only as a hash.
 */
async function resetTenantPassword(
  ctx: CallContext,
  q: z.output<typeof resetTenantPasswordQuery>,
  passwords: PasswordHasher,
): Promise<ResetTenantPasswordResult> {
  await findTenantById(ctx.tx, q.TenantId);
  const target = q.UserId ? await findTenantUser(ctx.tx, q.TenantId, q.UserId) : await findMainAccount(ctx.tx, q.TenantId);
  const password = q.Pwd ?? generatePassword();
  await ctx.tx
    .update(users)
    .set({
      passwordHash: await passwords.hash(password),
      securityStamp: randomUUID(),
      concurrencyStamp: randomUUID(),
      accessFailedCount: 0,
      lockoutEnd: null,
      lastModificationTime: new Date(),
      lastModifierId: ctx.user!.id,
    })
    .where(and(eq(users.tenantId, target.tenantId), eq(users.id, target.id)));
  await revokeUserSessions(ctx.tx, target.tenantId, target.id);
  return { userName: target.userName, password: q.Pwd ? null : password };
}

/**
 * users: the account summary the tenant calls answer with (it counts shops, which the users service is given);
 * passwords: hashes the passwords the host sets.
 */
export function createHostedService({ users, passwords }: { users: Pick<UserService, "accountSummary">; passwords: PasswordHasher }) {
  /** A tenant and its main account in one transaction; answers the main account's summary. */
  async function openTenantAccount(ctx: CallContext, body: z.output<typeof openTenantAccountInput>): Promise<TenantAccountSummary> {
    const { user } = await insertTenantWithMainAccount(
      ctx.tx,
      {
        tenantName: body.tenantName,
        userName: body.userName,
        pwd: body.pwd,
        email: body.email,
        phoneNumber: body.phoneNumber,
        remark: body.remark,
        accountExpireTime: body.accountExpireTime,
        creatorId: ctx.user!.id,
      },
      passwords,
    );
    return users.accountSummary(ctx.tx, user);
  }

  async function getTenantUserInfo(ctx: CallContext, tenantId: string): Promise<TenantAccountSummary> {
    await findTenantById(ctx.tx, tenantId);
    return users.accountSummary(ctx.tx, await findMainAccount(ctx.tx, tenantId));
  }

  return {
    openTenantAccount,
    getTenants,
    getAllTenants,
    editRemark,
    getTenantNameBySearch,
    unlockTenant,
    resetTenantPassword: (ctx: CallContext, q: z.output<typeof resetTenantPasswordQuery>) => resetTenantPassword(ctx, q, passwords),
    getTenantUserInfo,
  };
}

export type HostedService = ReturnType<typeof createHostedService>;
