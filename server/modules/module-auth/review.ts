// The grantor's side (B): the data is B's, so B approves or rejects an application (AuditAuth) and may revoke a grant
// in force (RevokeAuth). B reaches A's rows through the policy on auth_tenant_id, so every query names that side.
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { moduleAuths } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { ModuleAuthStatus } from "#shared/contract/enums.ts";
import type { auditAuthInput, ModuleAuth, revokeAuthInput } from "#shared/contract/module-auth.ts";
import { statusOf, withNames, type AuthRow } from "./wire.ts";

/** An application made to the caller (as B), locked; 404 when there is none by that id. */
async function received(ctx: CallContext, id: string): Promise<AuthRow> {
  const [row] = await ctx.tx
    .select()
    .from(moduleAuths)
    .where(and(eq(moduleAuths.authTenantId, ctx.user!.tenantId), eq(moduleAuths.id, id)))
    .limit(1)
    .for("update");
  if (!row) throw notFound("授权申请不存在");
  return row;
}

/** AuditAuth (B): approve a pending application as asked, or reject it with a reason. */
export async function auditAuth(ctx: CallContext, body: z.output<typeof auditAuthInput>): Promise<ModuleAuth> {
  const u = ctx.user!;
  const now = new Date();
  const row = await received(ctx, body.id);
  if (row.auditStatus !== ModuleAuthStatus.Pending) throw conflict("该申请已审核");
  const approve = body.auditStatus === ModuleAuthStatus.Approved;
  if (approve && row.expireTime <= now) throw badRequest("申请的到期时间已过，请对方重新申请");
  const [updated] = await ctx.tx
    .update(moduleAuths)
    .set({
      auditStatus: body.auditStatus,
      reason: approve ? null : body.reason!,
      auditorId: u.id,
      auditTime: now,
      lastModificationTime: now,
      lastModifierId: u.id,
    })
    .where(and(eq(moduleAuths.authTenantId, u.tenantId), eq(moduleAuths.id, row.id)))
    .returning();
  return withNames(ctx.tx, updated);
}

/** RevokeAuth (ours; B): ends a grant in force now. Revoking a revoked grant answers it again. */
export async function revokeAuth(ctx: CallContext, body: z.output<typeof revokeAuthInput>): Promise<ModuleAuth> {
  const u = ctx.user!;
  const now = new Date();
  const row = await received(ctx, body.id);
  if (row.auditStatus === ModuleAuthStatus.Revoked) return withNames(ctx.tx, row);
  if (statusOf(row, now) !== ModuleAuthStatus.Approved) throw conflict("只有生效中的授权可以撤销");
  const [updated] = await ctx.tx
    .update(moduleAuths)
    .set({
      auditStatus: ModuleAuthStatus.Revoked,
      reason: body.reason || null,
      revokeTime: now,
      lastModificationTime: now,
      lastModifierId: u.id,
    })
    .where(and(eq(moduleAuths.authTenantId, u.tenantId), eq(moduleAuths.id, row.id)))
    .returning();
  return withNames(ctx.tx, updated);
}
