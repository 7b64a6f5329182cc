// What a publish request selects: the shop group (one the caller may publish through), its enabled account on each
// requested site, and the products (ids or the product list's filter, newest first), or a 4xx saying what is missing.
import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { meliAccountGroups, meliAccounts, products } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import type { PublishRequest } from "#shared/contract/publish.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { selectionWhere } from "../products/index.ts";
import type { ShopAccount } from "./types.ts";

async function shopGroup(ctx: CallContext, groupId: string) {
  const u = ctx.user!;
  const [group] = await ctx.tx
    .select({ id: meliAccountGroups.id, isCbt: meliAccountGroups.isCbt, name: meliAccountGroups.name })
    .from(meliAccountGroups)
    .where(and(eq(meliAccountGroups.tenantId, ctx.tenantId), eq(meliAccountGroups.id, groupId)));
  if (!group) throw notFound("店铺不存在");
  const accounts: ShopAccount[] = await ctx.tx
    .select({ id: meliAccounts.id, site: meliAccounts.site, custId: meliAccounts.custId, isEnabled: meliAccounts.isEnabled })
    .from(meliAccounts)
    .where(
      and(
        eq(meliAccounts.tenantId, ctx.tenantId),
        eq(meliAccounts.groupId, groupId),
        u.isMainAccount ? undefined : eq(meliAccounts.ownerId, u.id),
      ),
    );
  // A sub-account publishes only through shops given to it.
  if (!accounts.length) throw notFound("店铺不存在");
  return { group, accounts };
}

/** The shop group, its account on each requested site, and the selected products (at most `limit`), or a 4xx. */
export async function resolveRequest(ctx: CallContext, request: PublishRequest, limit: number) {
  const { group, accounts } = await shopGroup(ctx, request.accountGroupId);
  const bySite = new Map(accounts.filter((a) => a.isEnabled).map((a) => [a.site, a]));
  const missing = request.sites.filter((s) => !bySite.has(s));
  if (missing.length) {
    throw businessError(
      `该店铺未开通或已停用站点：${missing.map((s) => MELI_SITES[s as MeliSiteNumber]?.name ?? s).join("、")}`,
      "Publish.SiteNotAvailable",
    );
  }
  const where = selectionWhere(ctx, { productIds: request.productIds, filter: request.filter });
  const selected = await ctx.tx
    .select({ id: products.id })
    .from(products)
    .where(where)
    .orderBy(sql`${products.creationTime} desc`, products.id)
    .limit(Math.min(request.maxProductCount ?? limit, limit));
  if (!selected.length) throw businessError("没有可刊登的商品（所选商品不存在或已删除）", "Publish.NoProducts");
  return { group, productIds: selected.map((p) => p.id), siteAccounts: request.sites.map((s) => bySite.get(s)!), where };
}

/** How many products the request selects (cut to maxProductCount): counted only when the selection reached `limit`. */
export async function selectedCount(ctx: CallContext, request: PublishRequest, taken: number, where: SQL | undefined, limit: number) {
  if (taken < limit) return taken;
  const [{ n }] = await ctx.tx.select({ n: count() }).from(products).where(where);
  return Math.min(n, request.maxProductCount ?? n);
}
