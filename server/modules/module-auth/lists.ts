// The applications and grants of one side, paged: GetApplys (any status) and GetAuths (in force).
import { and, desc, eq, gt, ilike, lte, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { containsPattern, orderBy } from "../../db/query.ts";
import { moduleAuths } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { ModuleAuthStatus } from "#shared/contract/enums.ts";
import { AuthDirection, type getApplysQuery, type getAuthsQuery, type ModuleAuthPage } from "#shared/contract/module-auth.ts";
import { applicant, grantor, toWire } from "./wire.ts";

const sortColumns = { creationTime: moduleAuths.creationTime, expireTime: moduleAuths.expireTime };

/** One side's applications with both names, filtered and paged. */
async function page(
  ctx: CallContext,
  where: SQL,
  q: { SkipCount: number; MaxResultCount: number; Sorting?: string },
): Promise<ModuleAuthPage> {
  const now = new Date();
  const from = () =>
    ctx.tx
      .select({ a: moduleAuths, tenantName: applicant.name, authTenantName: grantor.name })
      .from(moduleAuths)
      .innerJoin(applicant, eq(applicant.id, moduleAuths.tenantId))
      .innerJoin(grantor, eq(grantor.id, moduleAuths.authTenantId))
      .where(where);
  const [{ n }] = await ctx.tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(moduleAuths)
    .innerJoin(applicant, eq(applicant.id, moduleAuths.tenantId))
    .innerJoin(grantor, eq(grantor.id, moduleAuths.authTenantId))
    .where(where);
  if (!n || q.SkipCount >= n) return { items: [], totalCount: n };
  const rows = await from()
    .orderBy(orderBy(q.Sorting, sortColumns, desc(moduleAuths.creationTime)), desc(moduleAuths.id))
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return { totalCount: n, items: rows.map((r) => toWire(r.a, r.tenantName, r.authTenantName, now)) };
}

/** The caller's side: its own applications (A), or those made to it (B). */
const side = (ctx: CallContext, type: number) =>
  type === AuthDirection.Received ? eq(moduleAuths.authTenantId, ctx.user!.tenantId) : eq(moduleAuths.tenantId, ctx.user!.tenantId);

/** GetApplys: every application of one side, any status (Expired derived), newest first. */
export function getApplys(ctx: CallContext, q: z.output<typeof getApplysQuery>): Promise<ModuleAuthPage> {
  const conditions: SQL[] = [side(ctx, q.Type)];
  if (q.AuditStatus === ModuleAuthStatus.Expired) {
    conditions.push(eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved), lte(moduleAuths.expireTime, sql`now()`));
  } else if (q.AuditStatus === ModuleAuthStatus.Approved) {
    conditions.push(eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved), gt(moduleAuths.expireTime, sql`now()`));
  } else if (q.AuditStatus !== undefined) {
    conditions.push(eq(moduleAuths.auditStatus, q.AuditStatus));
  }
  if (q.Search) {
    const other = q.Type === AuthDirection.Received ? applicant.name : grantor.name;
    conditions.push(ilike(other, containsPattern(q.Search)));
  }
  return page(ctx, and(...conditions)!, q);
}

/** GetAuths: the grants in force of one side (approved, not expired; a revoked grant is no longer Approved). */
export function getAuths(ctx: CallContext, q: z.output<typeof getAuthsQuery>): Promise<ModuleAuthPage> {
  return page(
    ctx,
    and(side(ctx, q.Type), eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved), gt(moduleAuths.expireTime, sql`now()`))!,
    q,
  );
}
