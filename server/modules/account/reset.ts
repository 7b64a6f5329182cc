// Password reset by a 6-digit code sent by mail. Only an HMAC of the code is stored (a plain hash of six digits is
// reversed in a millisecond); a code lives 15 minutes, takes 5 wrong guesses, and a user gets at most one new code a
// minute. Only the user's newest code counts. The tenant is the caller's (`__tenant` header; none: the host), so a
// user id or email of another tenant is simply unknown.
import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { and, asc, desc, eq, gt, isNull, like, sql } from "drizzle-orm";
import type { z } from "zod";
import { passwordResetCodes, users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { normalizeName } from "../../db/names.ts";
import { businessError, keepChanges } from "../../http/errors.ts";
import type { resetPasswordInput, sendPasswordResetCodeInput, verifyPasswordResetTokenInput } from "#shared/contract/account.ts";
import { revokeUserSessions, type PasswordHasher } from "../identity/index.ts";
import type { Mailer } from "../mail/index.ts";

const RESET_CODE_MINUTES = 15;
const RESET_CODE_MAX_ATTEMPTS = 5;
const RESET_CODE_RESEND_SECONDS = 60;
/**
 * Marks this flow's rows in password_reset_codes, which also holds the main account's reset tokens for sub-accounts
 * (User/GetResetPwdToken, a plain sha256): neither flow can find or use the other's rows.
 */
const CODE_PREFIX = "otp:";

type UserRow = typeof users.$inferSelect;
type CodeRow = typeof passwordResetCodes.$inferSelect;

function codeHash(key: string, codeId: string, code: string): string {
  return CODE_PREFIX + createHmac("sha256", key).update(`${codeId}:${code}`).digest("base64url");
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const messages = {
  invalid: "验证码错误或已过期，请重新获取验证码",
  exhausted: "验证码错误次数过多，请重新获取验证码",
};

/** codeKey: the HMAC key of stored codes; mailer: the outbox the codes are mailed through; passwords: the new hash. */
export function createPasswordReset({ codeKey, mailer, passwords }: { codeKey: string; mailer: Mailer; passwords: PasswordHasher }) {
  /** Creates a code and mails it when the email belongs to an active user of the tenant; always answers the same. */
  async function sendPasswordResetCode(ctx: CallContext, body: z.output<typeof sendPasswordResetCodeInput>) {
    const tenantId = ctx.tenantId;
    // Locks the user row: two requests at once cannot both pass the one-code-a-minute rule.
    const [user] = await ctx.tx
      .select()
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.normalizedEmail, normalizeName(body.email)), eq(users.isDeleted, false)))
      .orderBy(asc(users.creationTime))
      .limit(1)
      .for("update");
    if (!user || !user.isActive || !user.email) return;
    const recent = await ctx.tx
      .select({ id: passwordResetCodes.id })
      .from(passwordResetCodes)
      .where(
        and(
          eq(passwordResetCodes.tenantId, tenantId),
          eq(passwordResetCodes.userId, user.id),
          like(passwordResetCodes.codeHash, `${CODE_PREFIX}%`),
          gt(passwordResetCodes.creationTime, sql`now() - make_interval(secs => ${RESET_CODE_RESEND_SECONDS})`),
        ),
      )
      .limit(1);
    if (recent.length) return;
    const id = randomUUID();
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await ctx.tx.insert(passwordResetCodes).values({
      tenantId,
      id,
      userId: user.id,
      codeHash: codeHash(codeKey, id, code),
      expiresAt: sql`now() + make_interval(mins => ${RESET_CODE_MINUTES})`,
    });
    await mailer.queueMail(ctx.tx, {
      tenantId,
      to: user.email,
      subject: "密码重置验证码",
      body: [
        `${user.userName}，您好：`,
        "",
        `您正在重置登录密码，验证码为：${code}`,
        `验证码 ${RESET_CODE_MINUTES} 分钟内有效，最多可输错 ${RESET_CODE_MAX_ATTEMPTS} 次。`,
        "如果这不是您本人的操作，请忽略此邮件，您的密码不会被修改。",
      ].join("\n"),
    });
  }

  /** The user a verify or reset names, in the caller's tenant; both userId and email must match when both are given. */
  async function findTarget(ctx: CallContext, by: { userId?: string | null; email?: string | null }): Promise<UserRow | null> {
    const conditions = [eq(users.tenantId, ctx.tenantId), eq(users.isDeleted, false)];
    if (by.userId) conditions.push(eq(users.id, by.userId));
    if (by.email) conditions.push(eq(users.normalizedEmail, normalizeName(by.email)));
    const rows = await ctx.tx
      .select()
      .from(users)
      .where(and(...conditions))
      .orderBy(asc(users.creationTime))
      .limit(1);
    return rows[0] ?? null;
  }

  type CodeCheck = { ok: true; code: CodeRow } | { ok: false; reason: keyof typeof messages; counted: boolean };

  /**
   * Checks a code against the user's newest one, locked so concurrent guesses queue up. A wrong guess counts; the 5th
   * wrong guess spends the code. The count is written in the call's transaction, so the caller must commit it.
   */
  async function checkCode(ctx: CallContext, user: UserRow, token: string): Promise<CodeCheck> {
    const [code] = await ctx.tx
      .select()
      .from(passwordResetCodes)
      .where(
        and(
          eq(passwordResetCodes.tenantId, user.tenantId),
          eq(passwordResetCodes.userId, user.id),
          like(passwordResetCodes.codeHash, `${CODE_PREFIX}%`),
        ),
      )
      .orderBy(desc(passwordResetCodes.creationTime))
      .limit(1)
      .for("update");
    if (!code || code.usedAt || code.expiresAt.getTime() <= Date.now()) return { ok: false, reason: "invalid", counted: false };
    if (code.attempts >= RESET_CODE_MAX_ATTEMPTS) return { ok: false, reason: "exhausted", counted: false };
    if (sameHash(codeHash(codeKey, code.id, token), code.codeHash)) return { ok: true, code };
    await ctx.tx
      .update(passwordResetCodes)
      .set({ attempts: sql`${passwordResetCodes.attempts} + 1` })
      .where(and(eq(passwordResetCodes.tenantId, code.tenantId), eq(passwordResetCodes.id, code.id)));
    return { ok: false, reason: code.attempts + 1 >= RESET_CODE_MAX_ATTEMPTS ? "exhausted" : "invalid", counted: true };
  }

  async function verifyPasswordResetToken(ctx: CallContext, body: z.output<typeof verifyPasswordResetTokenInput>): Promise<boolean> {
    const user = await findTarget(ctx, body);
    if (!user) return false;
    return (await checkCode(ctx, user, body.resetToken)).ok;
  }

  /** Sets a new password with a valid code: new security stamp, every session ended, lockout cleared, code used. */
  async function resetPassword(ctx: CallContext, body: z.output<typeof resetPasswordInput>) {
    const user = await findTarget(ctx, body);
    if (!user) throw businessError(messages.invalid, "InvalidResetCode");
    const check = await checkCode(ctx, user, body.resetToken);
    if (!check.ok) {
      const err = businessError(messages[check.reason], "InvalidResetCode");
      // A counted wrong guess must survive the refusal, or guesses would be free.
      throw check.counted ? keepChanges(err) : err;
    }
    const now = new Date();
    await ctx.tx
      .update(passwordResetCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetCodes.tenantId, user.tenantId),
          eq(passwordResetCodes.userId, user.id),
          like(passwordResetCodes.codeHash, `${CODE_PREFIX}%`),
          isNull(passwordResetCodes.usedAt),
        ),
      );
    await ctx.tx
      .update(users)
      .set({
        passwordHash: await passwords.hash(body.password),
        securityStamp: randomUUID(),
        concurrencyStamp: randomUUID(),
        lastModificationTime: now,
        lastModifierId: user.id,
        accessFailedCount: 0,
        lockoutEnd: null,
      })
      .where(and(eq(users.tenantId, user.tenantId), eq(users.id, user.id)));
    await revokeUserSessions(ctx.tx, user.tenantId, user.id);
  }
  return { sendPasswordResetCode, verifyPasswordResetToken, resetPassword };
}
