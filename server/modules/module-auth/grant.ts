// Using a grant: per request, the grant row is read in A's scope with the conditions in SQL (approved, not revoked,
// expire_time > now(), content holds what the call needs) and locked FOR SHARE, so a revoke waits for the request and
// the next request sees it; only then does the transaction's scope move to B for the read, and back to A.
import { and, eq, gt, sql } from "drizzle-orm";
import { moduleAuths } from "../../db/schema.ts";
import { setScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { forbidden } from "../../http/errors.ts";
import { ModuleAuthStatus, type ModuleAuthContent } from "#shared/contract/enums.ts";

/**
 * Runs `fn` over the grantor's data through a grant of the caller's tenant that is in force and holds `need`, checked
 * in SQL against the grant row (locked FOR SHARE until the request ends). Without one: 403, nothing read. `fn` gets a
 * context in B's scope that sees B's live products as B's main account would; the scope returns to A afterwards.
 */
export async function withGrant<T>(
  ctx: CallContext,
  authId: string,
  need: ModuleAuthContent,
  fn: (granted: CallContext) => Promise<T>,
): Promise<T> {
  const u = ctx.user!;
  const [grant] = await ctx.tx
    .select({ authTenantId: moduleAuths.authTenantId })
    .from(moduleAuths)
    .where(
      and(
        eq(moduleAuths.tenantId, u.tenantId),
        eq(moduleAuths.id, authId),
        eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved),
        gt(moduleAuths.expireTime, sql`now()`),
        sql`${moduleAuths.authContent} @> ${JSON.stringify([need])}::jsonb`,
      ),
    )
    .limit(1)
    .for("share");
  if (!grant) throw forbidden("没有该公司的有效授权，或授权内容不包含此操作");
  await setScope(ctx.tx, { tenantId: grant.authTenantId });
  const granted: CallContext = { ...ctx, tenantId: grant.authTenantId, user: { ...u, isMainAccount: true, isHost: false } };
  const out = await fn(granted);
  await setScope(ctx.tx, { tenantId: u.tenantId });
  return out;
}
