// The listing centre's reads (spec §7 MeliStat / MeliStatNew GetMeliStatsByPage, GetMeliStatGroupInfo) over the
// listings publishing writes. Who sees what: the tenant's listings of local shops (MeliStat) or of cross-border shops
// (MeliStatNew); a sub-account only those of the shop accounts given to it (meli_accounts.owner_id, as publishing
// scopes its shops). The filter becomes conditions here, in one place, as the product list's filter.ts does; counts
// stop at a cap (the product list's pattern) so a broad filter over a million listings stays a bounded index range.
import { and, asc, desc, eq, gt, gte, ilike, inArray, isNotNull, lt, lte, sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../../db/client.ts";
import { listings, meliAccountGroups, meliAccounts, products } from "../../db/schema.ts";
import { containsPattern } from "../../db/query.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import { ListingStatus } from "../../../shared/contract/enums.ts";
import {
  GROUP_COUNT_CAP,
  LISTING_COUNT_CAP,
  type getMeliStatsByPageInput,
  type ListingFilter,
  type ListingGroupInfo,
  type ListingRow,
  type ListingRowPage,
} from "../../../shared/contract/listings.ts";
import { listingView } from "../publishing/service.ts";
import type { z } from "zod";

/** Which list: MeliStat (local shops) or MeliStatNew (cross-border shops). */
export type ListingKind = "local" | "cbt";
export const kindOfGroup = (group: string): ListingKind => (group === "MeliStatNew" ? "cbt" : "local");

/** The shop groups of the list's kind in the caller's tenant (a sub-account: those with a shop account given to it). */
export function visibleGroups(ctx: CallContext, kind: ListingKind): SQL {
  const u = ctx.user!;
  return and(
    eq(meliAccountGroups.tenantId, ctx.tenantId),
    eq(meliAccountGroups.isCbt, kind === "cbt"),
    u.isMainAccount || u.isHost
      ? undefined
      : inArray(
          meliAccountGroups.id,
          ctx.tx
            .select({ id: meliAccounts.groupId })
            .from(meliAccounts)
            .where(and(eq(meliAccounts.tenantId, ctx.tenantId), eq(meliAccounts.ownerId, u.id))),
        ),
  )!;
}

/** The listings the caller sees in this list: its tenant's, of the list's kind of shop, a sub-account's own shops'. */
export function visibleListings(ctx: CallContext, kind: ListingKind): SQL {
  const u = ctx.user!;
  return and(
    eq(listings.tenantId, ctx.tenantId),
    inArray(
      listings.accountGroupId,
      ctx.tx
        .select({ id: meliAccountGroups.id })
        .from(meliAccountGroups)
        .where(and(eq(meliAccountGroups.tenantId, ctx.tenantId), eq(meliAccountGroups.isCbt, kind === "cbt"))),
    ),
    u.isMainAccount || u.isHost
      ? undefined
      : inArray(
          listings.accountId,
          ctx.tx
            .select({ id: meliAccounts.id })
            .from(meliAccounts)
            .where(and(eq(meliAccounts.tenantId, ctx.tenantId), eq(meliAccounts.ownerId, u.id))),
        ),
  )!;
}

/** A filter field the group counts leave out when counting by it. */
type Omitted = "status" | "site" | "accountGroupId";

/** The filter's conditions (without visibility); `omit` leaves one out (the group counts count by it). */
export function listingConditions(ctx: CallContext, f: Partial<ListingFilter>, omit?: Omitted): SQL[] {
  const c: SQL[] = [];
  if (f.startTime && f.endTime && f.startTime >= f.endTime) throw badRequest("开始时间须早于结束时间");
  if (f.lastUpdateStartTime && f.lastUpdateEndTime && f.lastUpdateStartTime >= f.lastUpdateEndTime)
    throw badRequest("开始时间须早于结束时间");
  if (f.minPrice != null && f.maxPrice != null && f.minPrice > f.maxPrice) throw badRequest("最低价格不能高于最高价格");
  if (f.minStock != null && f.maxStock != null && f.minStock > f.maxStock) throw badRequest("最低库存不能高于最高库存");
  if (f.cbtId) c.push(eq(listings.cbtId, f.cbtId.toUpperCase()));
  if (f.itemIds?.length) c.push(inArray(listings.itemId, [...new Set(f.itemIds.map((i) => i.toUpperCase()))]));
  if (f.startTime) c.push(gte(listings.creationTime, f.startTime));
  if (f.endTime) c.push(lt(listings.creationTime, f.endTime));
  if (f.sku) {
    // The listed product's SKU (products' sku index). A variant SKU inside variant_infos is not searched: jsonb
    // containment is not LEAKPROOF, so no index can serve it under the tenant policy and it would scan every listing.
    c.push(
      inArray(
        listings.productId,
        ctx.tx
          .select({ id: products.id })
          .from(products)
          .where(and(eq(products.tenantId, ctx.tenantId), eq(products.isDeleted, false), eq(products.sku, f.sku))),
      ),
    );
  }
  if (f.productIds?.length) c.push(inArray(listings.productId, f.productIds));
  if (f.minPrice != null) c.push(gte(listings.price, f.minPrice.toFixed(2)));
  if (f.maxPrice != null) c.push(lte(listings.price, f.maxPrice.toFixed(2)));
  if (f.minStock != null) c.push(gte(listings.stock, f.minStock));
  if (f.maxStock != null) c.push(lte(listings.stock, f.maxStock));
  if (f.site != null && omit !== "site") c.push(eq(listings.site, f.site));
  if (f.accountGroupId && omit !== "accountGroupId") c.push(eq(listings.accountGroupId, f.accountGroupId));
  if (f.status != null && omit !== "status") c.push(eq(listings.status, f.status));
  if (f.userId) c.push(eq(listings.userId, f.userId));
  if (f.reason) c.push(ilike(listings.reason, containsPattern(f.reason)));
  if (f.title) c.push(ilike(listings.title, containsPattern(f.title)));
  // Written as the partial index's predicate (a literal, not a parameter), so the planner can use it.
  if (f.warning === true) c.push(sql`(${listings.warningMessage} is not null and ${listings.warningMessage} <> '')`);
  if (f.warning === false) c.push(sql`(${listings.warningMessage} is null or ${listings.warningMessage} = '')`);
  if (f.cbtStatus != null) {
    // The global item has a site listing in that status (the cbt row's markets); local listings have no global item.
    const other = sql`(select 1 from ${listings} as o where o.tenant_id = ${listings.tenantId} and o.cbt_id = ${listings.cbtId} and o.status = ${f.cbtStatus})`;
    c.push(and(isNotNull(listings.cbtId), sql`exists ${other}`)!);
  }
  if (f.lastUpdateStartTime) c.push(gte(listings.lastModificationTime, f.lastUpdateStartTime));
  if (f.lastUpdateEndTime) c.push(lt(listings.lastModificationTime, f.lastUpdateEndTime));
  if (f.listingType) c.push(eq(listings.listingType, f.listingType));
  if (f.cateId) c.push(eq(listings.cateId, f.cateId.toUpperCase()));
  if (f.productLabelId) c.push(eq(listings.productLabelId, f.productLabelId));
  if (f.hasSold === true) c.push(gt(listings.orders, 0));
  if (f.hasSold === false) c.push(eq(listings.orders, 0));
  if (f.hasView === true) c.push(gt(listings.views, 0));
  if (f.hasView === false) c.push(eq(listings.views, 0));
  return c;
}

/** Visible listings of the list's kind matching the filter. */
export function listingWhere(ctx: CallContext, kind: ListingKind, f: Partial<ListingFilter>, omit?: Omitted): SQL {
  return and(visibleListings(ctx, kind), ...listingConditions(ctx, f, omit))!;
}

const sortColumns = {
  creationTime: listings.creationTime,
  lastModificationTime: listings.lastModificationTime,
  price: listings.price,
  stock: listings.stock,
  orders: listings.orders,
  views: listings.views,
};

/**
 * The order: the sort field then the id in the same direction (pages never overlap); default newest first. Plain
 * asc/desc (PostgreSQL puts listings without a value last ascending, first descending) so one (tenant, field, id)
 * index serves both directions.
 */
function sortOrder(sorting: string | undefined): SQL[] {
  const [field, dir] = (sorting ?? "creationTime desc").trim().split(/\s+/);
  const key = (Object.keys(sortColumns) as (keyof typeof sortColumns)[]).find((k) => k.toLowerCase() === field.toLowerCase());
  const column = sortColumns[key ?? "creationTime"];
  return dir?.toLowerCase() === "desc" ? [desc(column), desc(listings.id)] : [asc(column), asc(listings.id)];
}

/** How many match, counting at most `cap` + 1 rows. */
async function cappedCount(ctx: CallContext, where: SQL, cap: number): Promise<{ n: number; capped: boolean }> {
  const limited = ctx.tx
    .select({ one: sql`1` })
    .from(listings)
    .where(where)
    .limit(cap + 1)
    .as("m");
  const [r] = await ctx.tx.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(limited);
  return r.n > cap ? { n: cap, capped: true } : { n: r.n, capped: false };
}

const num = (v: string | null) => (v === null ? null : Number(v));

export function rowView(l: typeof listings.$inferSelect, productTitle: string | null): ListingRow {
  return {
    ...listingView(l, productTitle),
    userId: l.userId,
    health: num(l.health),
    orders: l.orders,
    views: l.views,
    syncTime: l.syncTime ? l.syncTime.toISOString() : null,
    warningMessage: l.warningMessage,
    weight: num(l.weight),
    size: l.size,
    variantInfos: (l.variantInfos as unknown[]) ?? [],
  };
}

export async function getMeliStatsByPage(
  ctx: CallContext,
  kind: ListingKind,
  body: z.output<typeof getMeliStatsByPageInput>,
): Promise<ListingRowPage> {
  const { skipCount, maxResultCount, sorting, ...filter } = body;
  const where = listingWhere(ctx, kind, filter);
  const total = await cappedCount(ctx, where, LISTING_COUNT_CAP);
  if (!total.n || (!total.capped && skipCount >= total.n)) return { items: [], totalCount: total.n, totalCountCapped: total.capped };
  const rows = await ctx.tx
    .select({ listing: listings, productTitle: products.titleText })
    .from(listings)
    .leftJoin(products, and(eq(products.tenantId, listings.tenantId), eq(products.id, listings.productId)))
    .where(where)
    .orderBy(...sortOrder(sorting))
    .limit(maxResultCount)
    .offset(skipCount);
  return {
    items: rows.map((r) => rowView(r.listing, r.productTitle)),
    totalCount: total.n,
    totalCountCapped: total.capped,
  };
}

const STATUSES = Object.values(ListingStatus) as number[];
const SITES = [1, 2, 3, 4, 5];

/** Up to this many listings under the filter (without its status, site and shop group), the tabs are one GROUP BY. */
export const SMALL_BASE = 25_000;

/**
 * The list's tabs: per status, per site and per shop group, each honouring every filter but the one it counts by.
 * When the filter without those three matches at most SMALL_BASE listings (a sub-account, a title, a date range), one
 * GROUP BY over them gives every tab exactly. Otherwise one statement of capped counts, one per tab value, each
 * stopping at GROUP_COUNT_CAP + 1 rows of an index-only range of (tenant, status|site|group, creation time).
 */
export async function getMeliStatGroupInfo(ctx: CallContext, kind: ListingKind, filter: ListingFilter): Promise<ListingGroupInfo> {
  const groups = await ctx.tx
    .select({ id: meliAccountGroups.id, name: meliAccountGroups.name })
    .from(meliAccountGroups)
    .where(visibleGroups(ctx, kind))
    .orderBy(asc(meliAccountGroups.name), asc(meliAccountGroups.id));
  const capped = (n: number) => (n > GROUP_COUNT_CAP ? { count: GROUP_COUNT_CAP, capped: true } : { count: n, capped: false });

  const base = listingWhere(ctx, kind, { ...filter, status: null, site: null, accountGroupId: null });
  const sample = ctx.tx
    .select({ status: listings.status, site: listings.site, groupId: listings.accountGroupId })
    .from(listings)
    .where(base)
    .limit(SMALL_BASE + 1)
    .as("b");
  const cells = await ctx.tx
    .select({ status: sample.status, site: sample.site, groupId: sample.groupId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(sample)
    .groupBy(sample.status, sample.site, sample.groupId);
  if (cells.reduce((a, c) => a + c.n, 0) <= SMALL_BASE) {
    const keep = (c: (typeof cells)[number], omit?: Omitted) =>
      (omit === "status" || filter.status == null || c.status === filter.status) &&
      (omit === "site" || filter.site == null || c.site === filter.site) &&
      (omit === "accountGroupId" || !filter.accountGroupId || c.groupId === filter.accountGroupId);
    const sum = (omit: Omitted | undefined, match: (c: (typeof cells)[number]) => boolean) =>
      capped(cells.filter((c) => keep(c, omit) && match(c)).reduce((a, c) => a + c.n, 0));
    return {
      statuses: STATUSES.map((st) => ({ status: st, ...sum("status", (c) => c.status === st) })),
      sites: SITES.map((site) => ({ site, ...sum("site", (c) => c.site === site) })),
      accountGroups: groups.map((g) => ({ accountGroupId: g.id, name: g.name, ...sum("accountGroupId", (c) => c.groupId === g.id) })),
      total: sum(undefined, () => true),
    };
  }

  const cap = GROUP_COUNT_CAP + 1;
  const counted = (where: SQL) => sql`(select count(*) from (select 1 from ${listings} where ${where} limit ${cap}) as m)::int`;
  const parts: SQL[] = [
    sql`select 'total' as kind, '' as key, ${counted(listingWhere(ctx, kind, filter))} as n`,
    ...STATUSES.map(
      (st) => sql`select 'status', ${String(st)}, ${counted(and(listingWhere(ctx, kind, filter, "status"), eq(listings.status, st))!)}`,
    ),
    ...SITES.map(
      (site) => sql`select 'site', ${String(site)}, ${counted(and(listingWhere(ctx, kind, filter, "site"), eq(listings.site, site))!)}`,
    ),
    ...groups.map(
      (g) =>
        sql`select 'group', ${g.id}, ${counted(and(listingWhere(ctx, kind, filter, "accountGroupId"), eq(listings.accountGroupId, g.id))!)}`,
    ),
  ];
  const list = rowsOf<{ kind: string; key: string; n: number }>(await ctx.tx.execute(sql.join(parts, sql` union all `)));
  const count = (kindName: string, key: string) => capped(Number(list.find((r) => r.kind === kindName && r.key === key)?.n ?? 0));
  return {
    statuses: STATUSES.map((st) => ({ status: st, ...count("status", String(st)) })),
    sites: SITES.map((site) => ({ site, ...count("site", String(site)) })),
    accountGroups: groups.map((g) => ({ accountGroupId: g.id, name: g.name, ...count("group", g.id) })),
    total: count("total", ""),
  };
}
