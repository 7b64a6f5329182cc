// Account: self-service sign-up of a new tenant, credential checks without a session, logout, and the caller's own
// profile. Password reset by emailed code lives in reset.ts.
import { randomUUID } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Config } from "../../config.ts";
import { HOST_TENANT_ID, users } from "../../db/schema.ts";
import { tenantHint } from "../../http/auth.ts";
import type { CallContext } from "../../http/calls.ts";
import { normalizeName } from "../../db/names.ts";
import { businessError, conflict, tooManyRequests } from "../../http/errors.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { LoginResultType } from "#shared/contract/enums.ts";
import type { LoginResult, loginInput, registerInput, updateProfileInput } from "#shared/contract/account.ts";
import {
  credentialMessages,
  lockedMessage,
  revokeSession,
  type PasswordHasher,
  type SessionService,
  insertTenantWithMainAccount,
} from "../identity/index.ts";
import { isSelfRegistrationEnabled } from "../../db/settings.ts";
import type { Mailer } from "../mail/index.ts";
import { toFullUser, toProfile } from "./full-user.ts";
import { createPasswordReset } from "./reset.ts";

export type AccountDeps = {
  sessions: SessionService;
  mailer: Mailer;
  /** The per-IP limit shared with /connect/token. */
  loginLimiter: RateLimiter;
  /** Keys the HMAC of password reset codes. */
  config: Pick<Config, "tokenSigningKey">;
  passwords: PasswordHasher;
};

export function createAccountService({ sessions, mailer, loginLimiter, config, passwords }: AccountDeps) {
  /** The per-IP limit shared with /connect/token: credential checks, sign-ups and reset codes all count against it. */
  function limitPerIp(ctx: CallContext) {
    const wait = loginLimiter.hit(ctx.req.ip);
    if (wait > 0) {
      ctx.reply.header("retry-after", String(wait));
      throw tooManyRequests();
    }
  }

  /** Opens a new tenant with the caller as its main account. Sub-accounts are created by their main account. */
  async function register(ctx: CallContext, body: z.output<typeof registerInput>) {
    if (ctx.principal || tenantHint(ctx.req)) throw businessError("子账号请联系主账号创建", "SelfRegistrationNotForTenants");
    limitPerIp(ctx);
    // Off unless the host switched it on (the embedded demo's first start does: bootstrap.ts).
    if (!(await isSelfRegistrationEnabled(ctx.tx)))
      throw businessError("系统未开放注册，请联系平台管理员开通账号", "SelfRegistrationDisabled");
    const { user } = await insertTenantWithMainAccount(
      ctx.tx,
      {
        tenantName: body.tenantName,
        userName: body.userName,
        pwd: body.password,
        email: body.emailAddress,
        remark: "自助注册",
      },
      passwords,
    );
    return toFullUser(user);
  }

  /**
   * Checks a user name (or email) and password in the caller's tenant, with the token endpoint's failure counting and
   * lockout. No session is opened: the console gets its token from /connect/token.
   */
  async function checkPassword(ctx: CallContext, body: z.output<typeof loginInput>): Promise<LoginResult> {
    limitPerIp(ctx);
    const check = await sessions.checkCredentials(ctx.tenantId, body.userNameOrEmailAddress, body.password, (fn) => fn(ctx.tx));
    if (check.ok) return { result: LoginResultType.Success, description: "登录成功" };
    switch (check.reason) {
      case "invalid":
        return { result: LoginResultType.InvalidUserNameOrPassword, description: credentialMessages.invalid };
      case "locked":
        return { result: LoginResultType.LockedOut, description: lockedMessage(check.lockoutSeconds) };
      default:
        return { result: LoginResultType.NotAllowed, description: credentialMessages[check.reason] };
    }
  }

  /**
   * Ends the session of the token sent, at once. Without a token there is nothing to end (204). A token that is
   * malformed, forged, expired or already logged out is refused by the call registrar with 401 before this runs; the
   * console treats a 401 as logged out, so the outcome for the user is the same.
   */
  async function logout(ctx: CallContext) {
    const p = ctx.principal;
    if (!p) return;
    await revokeSession(ctx.tx, p.tenantId ?? HOST_TENANT_ID, p.sessionId);
  }

  function getProfile(ctx: CallContext) {
    return toProfile(ctx.user!);
  }

  /** Updates the caller's own names, email and phone; a changed email or phone is no longer confirmed. */
  async function updateProfile(ctx: CallContext, body: z.output<typeof updateProfileInput>) {
    const u = ctx.user!;
    if (body.concurrencyStamp !== undefined && body.concurrencyStamp !== u.concurrencyStamp) throw conflict();
    const change: Partial<typeof users.$inferInsert> = {};
    if (body.userName !== undefined && body.userName !== u.userName) {
      const normalizedUserName = normalizeName(body.userName);
      if (normalizedUserName !== u.normalizedUserName) {
        // Deleted users keep their names (the unique index covers them), as insertUser assumes.
        const taken = await ctx.tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.tenantId, u.tenantId), eq(users.normalizedUserName, normalizedUserName), ne(users.id, u.id)))
          .limit(1);
        if (taken.length) throw businessError(`用户名 ${body.userName} 已存在`, "DuplicateUserName");
      }
      Object.assign(change, { userName: body.userName, normalizedUserName });
    }
    if (body.email !== undefined && body.email !== u.email) {
      const normalizedEmail = body.email ? normalizeName(body.email) : null;
      if (normalizedEmail && normalizedEmail !== u.normalizedEmail) {
        const taken = await ctx.tx
          .select({ id: users.id })
          .from(users)
          .where(
            and(eq(users.tenantId, u.tenantId), eq(users.normalizedEmail, normalizedEmail), ne(users.id, u.id), eq(users.isDeleted, false)),
          )
          .limit(1);
        if (taken.length) throw businessError(`邮箱 ${body.email} 已被使用`, "DuplicateEmail");
      }
      Object.assign(change, { email: body.email, normalizedEmail });
      if (normalizedEmail !== u.normalizedEmail) change.emailConfirmed = false;
    }
    if (body.phoneNumber !== undefined && body.phoneNumber !== u.phoneNumber) {
      Object.assign(change, { phoneNumber: body.phoneNumber, phoneNumberConfirmed: false });
    }
    if (body.name !== undefined) change.name = body.name;
    if (body.surname !== undefined) change.surname = body.surname;
    const [row] = await ctx.tx
      .update(users)
      .set({
        ...change,
        lastModificationTime: new Date(),
        lastModifierId: u.id,
        concurrencyStamp: randomUUID(),
        entityVersion: sql`${users.entityVersion} + 1`,
      })
      .where(and(eq(users.tenantId, u.tenantId), eq(users.id, u.id), eq(users.concurrencyStamp, u.concurrencyStamp)))
      .returning();
    if (!row) throw conflict();
    return toProfile(row);
  }
  return {
    limitPerIp,
    register,
    checkPassword,
    logout,
    getProfile,
    updateProfile,
    ...createPasswordReset({ codeKey: config.tokenSigningKey, mailer, passwords }),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
