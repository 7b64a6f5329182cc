// The codes and the applicant's (A's) applications: GenerateAuthCode (B's one-time code for A), ApplyAuth with it, and
// ReApplyAuth after a rejection or an expiry. module_auth_codes belongs to B; ApplyAuth finds a code by its hash as
// erp_host (the explicit opt-out) for that one lookup, as A cannot know B before the code names it.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { moduleAuthCodes, moduleAuths, tenants } from "../../db/schema.ts";
import { hostAllScope, setScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { ModuleAuthStatus } from "#shared/contract/enums.ts";
import {
  AUTH_CODE_ALPHABET,
  AUTH_CODE_LENGTH,
  AUTH_CODE_TTL_HOURS,
  formatAuthCode,
  MAX_AUTH_DAYS,
  normalizeAuthCode,
  type applyAuthInput,
  type AuthCodeResult,
  type ModuleAuth,
  type reApplyAuthInput,
} from "#shared/contract/module-auth.ts";
import { statusOf, withNames, type AuthRow } from "./wire.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A grant must last at least this long from now when asked for (a date already past is a mistake). */
const MIN_AUTH_MS = HOUR_MS;

/** A random code: 16 characters of the 32-letter alphabet (one byte's low 5 bits each, so no letter is favoured). */
function newCode(): string {
  const bytes = randomBytes(AUTH_CODE_LENGTH);
  let s = "";
  for (const b of bytes) s += AUTH_CODE_ALPHABET[b & 31];
  return s;
}

const hashCode = (normalized: string) => createHash("sha256").update(normalized).digest("hex");

/** The asked expiry: at least an hour from now, at most MAX_AUTH_DAYS. */
function checkExpiry(expireTime: Date, now: Date) {
  if (expireTime.getTime() < now.getTime() + MIN_AUTH_MS) throw badRequest("到期时间必须晚于当前时间至少 1 小时");
  if (expireTime.getTime() > now.getTime() + MAX_AUTH_DAYS * DAY_MS) throw badRequest(`授权期限最长 ${MAX_AUTH_DAYS} 天`);
}

/** Pending, or approved and not expired: A may hold one such application per grantor at a time. */
const openCondition = sql`(${moduleAuths.auditStatus} = ${ModuleAuthStatus.Pending} or (${moduleAuths.auditStatus} = ${ModuleAuthStatus.Approved} and ${moduleAuths.expireTime} > now()))`;

async function refuseSecondOpen(tx: Tx, tenantId: string, authTenantId: string, exceptId?: string) {
  const [open] = await tx
    .select({ id: moduleAuths.id })
    .from(moduleAuths)
    .where(
      and(
        eq(moduleAuths.tenantId, tenantId),
        eq(moduleAuths.authTenantId, authTenantId),
        openCondition,
        exceptId ? sql`${moduleAuths.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  if (open) throw conflict("已有向该公司的待审核或生效中的授权申请");
}

/** GenerateAuthCode: a one-time code of the caller's tenant, valid AUTH_CODE_TTL_HOURS; only its hash is stored. */
export async function generateAuthCode(ctx: CallContext): Promise<AuthCodeResult> {
  const u = ctx.user!;
  const code = newCode();
  const expireTime = new Date(Date.now() + AUTH_CODE_TTL_HOURS * HOUR_MS);
  await ctx.tx.insert(moduleAuthCodes).values({
    tenantId: u.tenantId,
    id: randomUUID(),
    codeHash: hashCode(code),
    expireTime,
    creatorId: u.id,
  });
  return { code: formatAuthCode(code), expireTime: expireTime.toISOString() };
}

/**
 * ApplyAuth: consumes B's code (unused, unexpired, not the caller's own) and records a pending application. A wrong,
 * used or expired code, or a second open application to the same tenant, is a 4xx and changes nothing (the code
 * stays unused: the whole call rolls back).
 */
export async function applyAuth(ctx: CallContext, body: z.output<typeof applyAuthInput>): Promise<ModuleAuth> {
  const u = ctx.user!;
  const now = new Date();
  checkExpiry(body.expireTime, now);
  const hash = hashCode(normalizeAuthCode(body.code)!);
  const applyId = randomUUID();
  // The one lookup across tenants: by the code's hash, as erp_host, then straight back to the caller's scope.
  await setScope(ctx.tx, hostAllScope);
  const [code] = await ctx.tx.select().from(moduleAuthCodes).where(eq(moduleAuthCodes.codeHash, hash)).limit(1).for("update");
  const [owner] = code
    ? await ctx.tx.select({ isActive: tenants.isActive }).from(tenants).where(eq(tenants.id, code.tenantId)).limit(1)
    : [];
  if (code && !code.usedTime && code.expireTime > now && code.tenantId !== u.tenantId && owner?.isActive) {
    await ctx.tx
      .update(moduleAuthCodes)
      .set({ usedTime: now, usedByTenantId: u.tenantId, applyId })
      .where(and(eq(moduleAuthCodes.tenantId, code.tenantId), eq(moduleAuthCodes.id, code.id)));
  }
  await setScope(ctx.tx, { tenantId: u.tenantId });
  if (!code || !owner?.isActive) throw badRequest("授权码无效");
  if (code.tenantId === u.tenantId) throw badRequest("不能使用本公司生成的授权码");
  if (code.usedTime) throw badRequest("授权码已被使用");
  if (code.expireTime <= now) throw badRequest("授权码已过期");
  await refuseSecondOpen(ctx.tx, u.tenantId, code.tenantId);
  const [row] = await ctx.tx
    .insert(moduleAuths)
    .values({
      tenantId: u.tenantId,
      id: applyId,
      authTenantId: code.tenantId,
      authContent: body.authContent,
      expireTime: body.expireTime,
      auditStatus: ModuleAuthStatus.Pending,
      remark: body.remark || null,
      applicantId: u.id,
      creationTime: now,
      creatorId: u.id,
    })
    .returning();
  return withNames(ctx.tx, row);
}

/** The caller's own application (as A), locked; 404 when it has none by that id. */
async function mine(ctx: CallContext, id: string): Promise<AuthRow> {
  const [row] = await ctx.tx
    .select()
    .from(moduleAuths)
    .where(and(eq(moduleAuths.tenantId, ctx.user!.tenantId), eq(moduleAuths.id, id)))
    .limit(1)
    .for("update");
  if (!row) throw notFound("授权申请不存在");
  return row;
}

/** ReApplyAuth: a rejected or expired application back to pending, with new content and date (no new code). */
export async function reApplyAuth(ctx: CallContext, body: z.output<typeof reApplyAuthInput>): Promise<ModuleAuth> {
  const u = ctx.user!;
  const now = new Date();
  const row = await mine(ctx, body.id);
  const status = statusOf(row, now);
  if (status !== ModuleAuthStatus.Rejected && status !== ModuleAuthStatus.Expired) {
    throw conflict("只有已驳回或已过期的申请可以重新申请");
  }
  checkExpiry(body.expireTime, now);
  await refuseSecondOpen(ctx.tx, u.tenantId, row.authTenantId, row.id);
  const [updated] = await ctx.tx
    .update(moduleAuths)
    .set({
      authContent: body.authContent,
      expireTime: body.expireTime,
      remark: body.remark || null,
      auditStatus: ModuleAuthStatus.Pending,
      reason: null,
      auditorId: null,
      auditTime: null,
      applyCount: sql`${moduleAuths.applyCount} + 1`,
      lastModificationTime: now,
      lastModifierId: u.id,
    })
    .where(and(eq(moduleAuths.tenantId, u.tenantId), eq(moduleAuths.id, row.id)))
    .returning();
  return withNames(ctx.tx, updated);
}
