// RemoveTenantCache and RemoveDist. The app keeps its caches in the database, shared by every process, except one
// map per process: the shop groups' access tokens (used until they expire, then refreshed with the refresh token),
// Mercado Libre's listing fees (read again after 24 hours), the picture size probes, and the picture hosts this
// process found down. "Dist" is the state the processes share to coordinate their calls to Mercado Libre: the rate
// buckets (one per seller and one per app) and the token refresh leases.
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Tx } from "../../db/client.ts";
import { meliAccountGroups } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import {
  tenantCacheNames,
  type removeTenantCacheQuery,
  type RemoveDistResult,
  type RemoveTenantCacheResult,
  type TenantCacheKey,
} from "#shared/contract/tenant-admin.ts";
import { countOf } from "./tasks.ts";

type Deps = {
  downHosts: Map<string, number>;
  maintainedTenant(tx: Tx, tenantId: string): Promise<{ id: string; name: string }>;
};

export function createCacheCalls({ downHosts, maintainedTenant }: Deps) {
  /**
   * The tenant's shop tokens (one group's with AccountGroupId) marked expired: the next marketplace call of each group
   * refreshes its token once (the single-flight refresh), so a token Mercado Libre revoked or changed is not used again.
   */
  async function expireShopTokens(tx: Tx, tenantId: string, groupId: string | undefined): Promise<number> {
    if (groupId) {
      const [group] = await tx
        .select({ id: meliAccountGroups.id })
        .from(meliAccountGroups)
        .where(and(eq(meliAccountGroups.tenantId, tenantId), eq(meliAccountGroups.id, groupId)));
      if (!group) throw notFound("店铺分组不存在");
    }
    const one = groupId ? sql` and id = ${groupId}::uuid` : sql``;
    return countOf(
      tx,
      sql`update meli_account_groups set token_expires_at = least(token_expires_at, now())
        where tenant_id = ${tenantId}::uuid${one}`,
    );
  }

  async function clearOne(ctx: CallContext, key: TenantCacheKey, tenantId: string | undefined, groupId: string | undefined) {
    switch (key) {
      case "ShopToken":
        return expireShopTokens(ctx.tx, tenantId!, groupId);
      case "ListingFees":
        return countOf(ctx.tx, sql`delete from meli_listing_fees`);
      case "ImageSizes":
        return countOf(ctx.tx, sql`delete from image_sizes`);
      case "DownHosts": {
        const n = downHosts.size;
        downHosts.clear();
        return n;
      }
    }
  }

  /**
   * Clears the named cache, or every cache of the tenant (its shop tokens) when none is named. The shop tokens are a
   * tenant's and need TenantId; fees, picture sizes and down hosts are the platform's, cleared only when named.
   */
  async function removeTenantCache(ctx: CallContext, q: z.output<typeof removeTenantCacheQuery>): Promise<RemoveTenantCacheResult> {
    if (!q.CacheKey && !q.TenantId)
      throw badRequest("请指定要清除的缓存（CacheKey）或公司（TenantId）", "CacheKey or TenantId is required");
    const keys: TenantCacheKey[] = q.CacheKey ? [q.CacheKey] : ["ShopToken"];
    if (keys.includes("ShopToken") && !q.TenantId) throw badRequest("清除店铺访问令牌需要指定公司（TenantId）", "TenantId is required");
    if (q.AccountGroupId && !keys.includes("ShopToken")) {
      throw badRequest("AccountGroupId 只用于清除店铺访问令牌", "AccountGroupId applies to CacheKey ShopToken only");
    }
    const tenant = q.TenantId ? await maintainedTenant(ctx.tx, q.TenantId) : null;
    const cleared: RemoveTenantCacheResult["cleared"] = [];
    for (const key of keys) {
      cleared.push({ cacheKey: key, name: tenantCacheNames[key], count: await clearOne(ctx, key, tenant?.id, q.AccountGroupId) });
    }
    return { cleared };
  }

  /**
   * Drops the rate buckets with nothing in force (their time is past and no 429 holds them: a fresh bucket behaves the
   * same, so the table keeps only live state), keeps those holding calls back (dropping one would send calls Mercado
   * Libre asked us to hold), and releases the refresh leases past their time.
   */
  async function removeDist(ctx: CallContext): Promise<RemoveDistResult> {
    const removedBuckets = await countOf(
      ctx.tx,
      sql`delete from meli_rate_buckets where tat <= clock_timestamp() and (blocked_until is null or blocked_until <= clock_timestamp())`,
    );
    const [kept] = rowsOf<{ n: number }>(await ctx.tx.execute(sql`select count(*)::int as n from meli_rate_buckets`));
    const clearedLeases = await countOf(
      ctx.tx,
      sql`update meli_account_groups set refresh_lease_until = null, refresh_lease_id = null
        where refresh_lease_until is not null and refresh_lease_until <= now()`,
    );
    return { removedBuckets, keptBuckets: Number(kept?.n ?? 0), clearedLeases };
  }

  return { removeTenantCache, removeDist };
}
