// Users: the caller's own info and cache, and the main account's management of sub-accounts. Every query names the
// caller's tenant; row-level security backs that up.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, desc, eq, ilike, isNull, ne, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database, Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, passwordResetCodes, tenants, users } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { containsPattern, orderBy, pageOf } from "../../db/query.ts";
import type { CallContext } from "../../http/calls.ts";
import { normalizeName } from "../../db/names.ts";
import type { SessionTenant } from "../../http/session-user.ts";
import { badRequest, businessError, conflict, notFound } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type {
  changePwdInput,
  createSubUserInput,
  getSubUsersQuery,
  resetPwdInput,
  SubUser,
  subUserStatQuery,
  TenantAccountSummary,
  updateUserInput,
  UserInfo,
  UserInitCache,
} from "#shared/contract/users.ts";
import { hashPassword, verifyPassword, revokeUserSessions, insertUser } from "../identity/index.ts";
import type { ShopFigures, UserDataCleaner, UserStatContributor } from "./extensions.ts";
import { assertSubAccountAllowed } from "../subaccount-orders/index.ts";

type UserRow = typeof users.$inferSelect;
// The session check's raw rows hold timestamps as text (http/session-user.ts), the query builder's as Date.
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const wireTenantId = (tenantId: string) => (tenantId === HOST_TENANT_ID ? null : tenantId);

function roleList(u: Pick<UserRow, "isHost" | "isMainAccount">): string[] {
  return u.isHost ? ["host"] : u.isMainAccount ? ["super"] : ["sub"];
}

async function getUserInfo(ctx: CallContext): Promise<UserInfo> {
  const u = ctx.user!;
  return {
    id: u.id,
    userName: u.userName,
    name: u.name,
    email: u.email,
    tenantId: wireTenantId(u.tenantId),
    tenantName: u.tenantName,
    isMainAccount: u.isMainAccount,
    isHost: u.isHost,
    roleList: roleList(u),
    isShowPageCrwal: u.isShowPageCrwal,
    limitMeliAccount: u.limitMeliAccount,
    collectCount: u.collectCount,
    productCount: u.productCount,
  };
}

const CLEAR_SUB_ACCOUNT_JOB = "clear-sub-account-info";
type ClearJob = { tenantId: string; taskId: string; userId: string };

export type UserServiceDeps = {
  database: Database;
  jobs: Jobs;
  shops: ShopFigures;
  /** What ClearSubAccountInfo clears, in this order: each area's rows of the user. */
  userDataCleaners: UserDataCleaner[];
  /** Fill in the per-user figures of the sub-account statistics. */
  userStatContributors: UserStatContributor[];
};

export function createUserService({ database, jobs, shops, userDataCleaners, userStatContributors }: UserServiceDeps) {
  /** The tenant account summary of one user (spec §3); also used by the host's tenant calls. */
  async function accountSummary(tx: Tx, u: UserRow, knownTenant?: SessionTenant | null): Promise<TenantAccountSummary> {
    const tenant =
      u.tenantId === HOST_TENANT_ID
        ? null
        : (knownTenant ?? (await tx.select().from(tenants).where(eq(tenants.id, u.tenantId)))[0] ?? null);
    return {
      id: u.id,
      userName: u.userName,
      name: u.name,
      tenantId: wireTenantId(u.tenantId),
      tenantName: tenant?.name ?? null,
      email: u.email,
      phoneNumber: u.phoneNumber,
      phoneNumberConfirmed: u.phoneNumberConfirmed,
      isActive: u.isActive,
      lockoutEnabled: u.lockoutEnabled,
      lockoutEnd: iso(u.lockoutEnd),
      isMainAccount: u.isMainAccount,
      subAccountType: u.subAccountType,
      subAccountExpireTime: iso(u.subAccountExpireTime),
      balance: tenant?.balance ?? "0",
      subAccountCount: u.isMainAccount ? (tenant?.subAccountCount ?? 0) : 0,
      isHost: u.isHost,
      accountExpireTime: iso(tenant?.accountExpireTime),
      accountPaymentType: tenant?.accountPaymentType ?? 1,
      // The tenant's shop accounts for a main account, its own for a sub-account (none for the host).
      meliAccountCount: u.tenantId === HOST_TENANT_ID ? 0 : await shops.countShopAccounts(tx, u),
    };
  }

  function getMyInfo(ctx: CallContext) {
    return accountSummary(ctx.tx, ctx.user!, ctx.user!.tenant);
  }

  async function getUserInitCache(ctx: CallContext): Promise<UserInitCache> {
    const u = ctx.user!;
    const groups = await shops.accountGroups(ctx.tx, u);
    const subUsers = u.isMainAccount ? groups.subUsers : [{ id: u.id, name: u.userName }];
    return {
      accs: groups.accs,
      subUsers,
      moduleAuths: groups.moduleAuths,
      groups: groups.groups.map(({ groupId, name, alias, brand, sites }) => ({ groupId, name, alias, brand, sites })),
    };
  }

  function toSubUser(u: UserRow): SubUser {
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

  async function getSubUsers(ctx: CallContext, q: z.output<typeof getSubUsersQuery>) {
    const tenantId = ctx.user!.tenantId;
    const conditions = [eq(users.tenantId, tenantId), eq(users.isDeleted, false), eq(users.isMainAccount, false)];
    if (q.Search?.trim()) {
      const like = containsPattern(q.Search.trim());
      conditions.push(
        or(ilike(users.userName, like), ilike(users.email, like), ilike(users.phoneNumber, like), ilike(users.remark, like))!,
      );
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

  async function findSubUser(tx: Tx, tenantId: string, userId: string): Promise<UserRow> {
    const rows = await tx
      .select()
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), eq(users.isDeleted, false)))
      .limit(1);
    if (!rows[0]) throw notFound("用户不存在");
    return rows[0];
  }

  async function getSubUserById(ctx: CallContext, userId: string) {
    return toSubUser(await findSubUser(ctx.tx, ctx.user!.tenantId, userId));
  }

  async function getSubUserStaticInfo(ctx: CallContext, q: z.output<typeof subUserStatQuery>) {
    const tenantId = ctx.user!.tenantId;
    const conditions = [eq(users.tenantId, tenantId), eq(users.isDeleted, false)];
    if (q.UserId) conditions.push(eq(users.id, q.UserId));
    const list = await ctx.tx
      .select({ id: users.id, userName: users.userName })
      .from(users)
      .where(and(...conditions))
      .orderBy(asc(users.creationTime));
    const rows = list.map((u) => ({ userId: u.id, userName: u.userName, productCount: 0, totalAmount: "0" }));
    // Each area that has per-user figures adds them (products: productCount, orders: totalAmount) in one set-based query.
    for (const contribute of userStatContributors) {
      await contribute(ctx.tx, { tenantId, userIds: list.map((u) => u.id), startDate: q.StartDate, endDate: q.EndDate }, rows);
    }
    return rows;
  }

  async function createSubUser(ctx: CallContext, body: z.output<typeof createSubUserInput>) {
    // Within the free and bought sub-accounts (modules/subaccount-orders).
    await assertSubAccountAllowed(ctx.tx, ctx.user!.tenantId);
    const row = await insertUser(ctx.tx, {
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
    });
    return toSubUser(row);
  }

  async function updateUser(ctx: CallContext, body: z.output<typeof updateUserInput>) {
    const tenantId = ctx.user!.tenantId;
    const current = await findSubUser(ctx.tx, tenantId, body.id);
    if (body.concurrencyStamp !== undefined && body.concurrencyStamp !== current.concurrencyStamp) throw conflict();
    const normalizedEmail = body.email === undefined ? undefined : body.email ? normalizeName(body.email) : null;
    if (normalizedEmail && normalizedEmail !== current.normalizedEmail) {
      const taken = await ctx.tx
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.tenantId, tenantId),
            eq(users.normalizedEmail, normalizedEmail),
            ne(users.id, current.id),
            eq(users.isDeleted, false),
          ),
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

  async function setPassword(tx: Tx, u: UserRow, newPwd: string, modifierId: string) {
    await tx
      .update(users)
      .set({
        passwordHash: await hashPassword(newPwd),
        securityStamp: randomUUID(),
        concurrencyStamp: randomUUID(),
        lastModificationTime: new Date(),
        lastModifierId: modifierId,
        accessFailedCount: 0,
        lockoutEnd: null,
      })
      .where(and(eq(users.tenantId, u.tenantId), eq(users.id, u.id)));
    await revokeUserSessions(tx, u.tenantId, u.id);
  }

  /** Changes the caller's password; every session of the user ends, so the console logs in again. */
  async function changePwd(ctx: CallContext, body: z.output<typeof changePwdInput>) {
    const u = ctx.user!;
    if (!(await verifyPassword(body.oldPwd, u.passwordHash))) throw businessError("原密码不正确", "WrongPassword");
    if (body.oldPwd === body.newPwd) throw badRequest("新密码不能与原密码相同");
    await setPassword(ctx.tx, u, body.newPwd, u.id);
  }

  const RESET_TOKEN_MINUTES = 30;
  const guidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const sha256 = (s: string) => createHash("sha256").update(s).digest("base64url");

  /** A single-use token with which the main account sets a sub-account's password (ResetPwd). */
  async function getResetPwdToken(ctx: CallContext, userId: string) {
    const tenantId = ctx.user!.tenantId;
    const target = await findSubUser(ctx.tx, tenantId, userId);
    // The main account changes its own password with ChangePwd, which asks for the old one; a reset token would skip that.
    if (target.isMainAccount) throw businessError("主账号请使用修改密码", "MainAccountReset");
    const id = randomUUID();
    const secret = randomBytes(24).toString("base64url");
    const expiresAt = new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000);
    await ctx.tx
      .insert(passwordResetCodes)
      .values({ tenantId, id, userId: target.id, codeHash: sha256(secret), expiresAt, creatorId: ctx.user!.id });
    return { token: `${id}.${secret}`, expireTime: expiresAt.toISOString() };
  }

  async function resetPwd(ctx: CallContext, body: z.output<typeof resetPwdInput>) {
    const tenantId = ctx.user!.tenantId;
    const parts = body.token.split(".");
    const [codeId, secret] = parts;
    const invalid = () => businessError("重置令牌无效或已过期", "InvalidResetToken");
    // Exactly "<guid>.<secret>"; a strict GUID, since anything else would reach the uuid column and fail as a database
    // error instead of this refusal.
    if (parts.length !== 2 || !codeId || !secret || !guidPattern.test(codeId)) throw invalid();
    const rows = await ctx.tx
      .select()
      .from(passwordResetCodes)
      .where(and(eq(passwordResetCodes.tenantId, tenantId), eq(passwordResetCodes.id, codeId), isNull(passwordResetCodes.usedAt)))
      .limit(1);
    const code = rows[0];
    if (!code || code.expiresAt.getTime() < Date.now() || code.codeHash !== sha256(secret)) throw invalid();
    const target = await findSubUser(ctx.tx, tenantId, code.userId);
    if (target.isMainAccount) throw invalid();
    // Conditional on still being unused, so two concurrent resets with one token cannot both win.
    const used = await ctx.tx
      .update(passwordResetCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetCodes.tenantId, tenantId), eq(passwordResetCodes.id, code.id), isNull(passwordResetCodes.usedAt)))
      .returning({ id: passwordResetCodes.id });
    if (used.length !== 1) throw invalid();
    await setPassword(ctx.tx, target, body.newPwd, ctx.user!.id);
  }

  async function setEnabled(ctx: CallContext, userId: string, enable: boolean) {
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

  /** Queues the clearing of a sub-account's data; the task centre shows its progress. */
  async function clearSubAccountInfo(ctx: CallContext, userId: string) {
    const tenantId = ctx.user!.tenantId;
    const target = await findSubUser(ctx.tx, tenantId, userId);
    if (target.isMainAccount) throw businessError("不能清空主账号的数据");
    const taskId = await createTask(ctx.tx, {
      tenantId,
      taskType: TaskType.ClearSubAccountInfo,
      content: `清空子账号 ${target.userName} 的数据`,
      creatorId: ctx.user!.id,
    });
    await jobs.send<ClearJob>(CLEAR_SUB_ACCOUNT_JOB, { tenantId, taskId, userId: target.id }, { tx: ctx.tx });
    return { taskId };
  }

  /** The clearing job: each data cleaner in turn, in one transaction; the task says what was cleared. */
  async function clearSubAccount({ tenantId, taskId, userId }: ClearJob) {
    const db = database.db;
    await updateTask(db, tenantId, taskId, { taskStatus: TaskStatus.Running, progress: 0 });
    try {
      const summary: string[] = [];
      await inScope(db, { tenantId }, async (tx) => {
        for (const cleaner of userDataCleaners) {
          const n = await cleaner.clear(tx, tenantId, userId);
          summary.push(`${cleaner.label} ${n}`);
        }
      });
      await updateTask(db, tenantId, taskId, {
        taskStatus: TaskStatus.Succeeded,
        progress: 100,
        taskRemark: `已清理：${summary.join("，")}`,
      });
    } catch (err) {
      await updateTask(db, tenantId, taskId, {
        taskStatus: TaskStatus.Failed,
        taskRemark: err instanceof Error ? err.message : String(err),
      });
      throw err;
    }
  }
  return {
    accountSummary,
    getMyInfo,
    getUserInitCache,
    toSubUser,
    getSubUsers,
    getSubUserById,
    getSubUserStaticInfo,
    createSubUser,
    updateUser,
    changePwd,
    getResetPwdToken,
    resetPwd,
    setEnabled,
    clearSubAccountInfo,
    getUserInfo,
    workers: [worker<ClearJob>(CLEAR_SUB_ACCOUNT_JOB, clearSubAccount)],
  };
}

export type UserService = ReturnType<typeof createUserService>;
