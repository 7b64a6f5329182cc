// Passwords: the caller changes its own (ChangePwd); the main account sets a sub-account's through a single-use reset
// token (GetResetPwdToken, ResetPwd). Either way every session of the user ends, so it logs in again.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { passwordResetCodes, users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, businessError } from "../../http/errors.ts";
import type { changePwdInput, resetPwdInput } from "#shared/contract/users.ts";
import { revokeUserSessions, verifyPassword, type PasswordHasher } from "../identity/index.ts";
import { findSubUser, type UserRow } from "./sub-users.ts";

const RESET_TOKEN_MINUTES = 30;
const guidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sha256 = (s: string) => createHash("sha256").update(s).digest("base64url");

async function setPassword(tx: Tx, passwords: PasswordHasher, u: UserRow, newPwd: string, modifierId: string) {
  await tx
    .update(users)
    .set({
      passwordHash: await passwords.hash(newPwd),
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
export async function changePwd(ctx: CallContext, body: z.output<typeof changePwdInput>, passwords: PasswordHasher) {
  const u = ctx.user!;
  if (!(await verifyPassword(body.oldPwd, u.passwordHash))) throw businessError("原密码不正确", "WrongPassword");
  if (body.oldPwd === body.newPwd) throw badRequest("新密码不能与原密码相同");
  await setPassword(ctx.tx, passwords, u, body.newPwd, u.id);
}

/** A single-use token with which the main account sets a sub-account's password (ResetPwd). */
export async function getResetPwdToken(ctx: CallContext, userId: string) {
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

export async function resetPwd(ctx: CallContext, body: z.output<typeof resetPwdInput>, passwords: PasswordHasher) {
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
  await setPassword(ctx.tx, passwords, target, body.newPwd, ctx.user!.id);
}
