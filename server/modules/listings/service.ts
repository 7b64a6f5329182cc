// The listing centre's reads (spec §7 MeliStat / MeliStatNew GetMeliStatsByPage, GetMeliStatGroupInfo) over the
// listings publishing writes. Who sees what: the tenant's listings of local shops (MeliStat) or of cross-border shops
// (MeliStatNew); a sub-account only those of the shop accounts given to it (meli_accounts.owner_id, as publishing
// scopes its shops). The filter becomes conditions here, in one place, as the product list's filter.ts does; counts
// stop at a cap (the product list's pattern) so a broad filter over a million listings stays a bounded index range.
import { and, asc, desc, eq, gt, gte, ilike, inArray, isNotNull, lt, lte, sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../../db/client.ts";
import { listings, meliAccountGroups, meliAccounts, products } from "../../db/schema.ts";
import { containsPattern } from "../../db/query.ts";
import { JsonText, type CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import { ListingStatus } from "../../../shared/contract/enums.ts";
import {
  GROUP_COUNT_CAP,
  LISTING_COUNT_CAP,
  type getMeliStatsByPageInput,
  type ListingFilter,
  type ListingGroupInfo,
  type ListingRow,
} from "../../../shared/contract/listings.ts";
import { listingView } from "../publishing/service.ts";
import { PgDialect, type AnyPgColumn } from "drizzle-orm/pg-core";
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
function sortOf(sorting: string | undefined) {
  const [field, dir] = (sorting ?? "creationTime desc").trim().split(/\s+/);
  const key = (Object.keys(sortColumns) as (keyof typeof sortColumns)[]).find((k) => k.toLowerCase() === field.toLowerCase());
  return { column: sortColumns[key ?? "creationTime"], dir: dir?.toLowerCase() === "desc" ? ("desc" as const) : ("asc" as const) };
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

/** A timestamp as JavaScript's toISOString writes it (UTC, milliseconds). */
const isoText = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One listing's row as PostgreSQL selects it for row_to_json: the columns named and valued as rowView makes them
 * (ListingRow), so the page needs no row mapping in this process (listings.test.ts holds the two equal). Constant, so
 * its text is rendered once, not on every call.
 */
const rowSelect = sql.raw(
  new PgDialect().sqlToQuery(sql`select ${listings.id} as "id", ${products.titleText} as "productTitle",
    ${listings.batchId} as "batchId", ${listings.accountGroupId} as "accountGroupId", ${listings.productId} as "productId",
    ${listings.productLabelId} as "productLabelId", ${listings.site} as "site", ${listings.cbtId} as "cbtId",
    ${listings.itemId} as "itemId", ${listings.cateId} as "cateId", ${listings.cateName} as "cateName",
    ${listings.title} as "title", ${listings.status} as "status", ${listings.price}::float8 as "price",
    ${listings.currency} as "currency", ${listings.priceContent} as "price_Content", ${listings.reason} as "reason",
    ${listings.problems} as "problems", ${listings.permalink} as "permalink", ${listings.listingType} as "listingType",
    ${listings.image} as "image", ${listings.stock} as "stock", ${isoText(listings.creationTime)} as "creationTime",
    ${isoText(listings.lastModificationTime)} as "lastModificationTime", ${listings.userId} as "userId",
    ${listings.health}::float8 as "health", ${listings.orders} as "orders", ${listings.views} as "views",
    ${isoText(listings.syncTime)} as "syncTime", ${listings.warningMessage} as "warningMessage",
    ${listings.weight}::float8 as "weight", ${listings.size} as "size",
    coalesce(${listings.variantInfos}, '[]'::jsonb) as "variantInfos"
    from ${listings} left join ${products} on ${products.tenantId} = ${listings.tenantId} and ${products.id} = ${listings.productId}`).sql,
);

/**
 * GetMeliStatsByPage in one statement: the capped count, and the page's rows as JSON text that the call sends as its
 * answer (JsonText) without parsing it. The page is chosen on the filter's index (ids only), then its rows are read
 * by primary key for the JSON. The list is the listing centre's hottest read: this keeps a request to three round
 * trips (begin with the scope and the session check, this, commit) and no per-row work in this process.
 */
export async function getMeliStatsByPage(
  ctx: CallContext,
  kind: ListingKind,
  body: z.output<typeof getMeliStatsByPageInput>,
): Promise<JsonText> {
  const { skipCount, maxResultCount, sorting, ...filter } = body;
  const where = listingWhere(ctx, kind, filter);
  const { column, dir } = sortOf(sorting);
  const order = sql.raw(dir);
  const statement = sql`with page as (
      select ${listings.id} as id, ${column} as k from ${listings} where ${where}
      order by ${column} ${order}, ${listings.id} ${order} limit ${maxResultCount} offset ${skipCount})
    select (select count(*) from (select 1 from ${listings} where ${where} limit ${LISTING_COUNT_CAP + 1}) as m)::int as n,
      (select '[' || coalesce(string_agg(row_to_json(r)::text, ',' order by page.k ${order}, page.id ${order}), '') || ']'
        from page, lateral (${rowSelect} where ${listings.tenantId} = ${ctx.tenantId} and ${listings.id} = page.id) as r) as items`;
  const [r] = rowsOf<{ n: number; items: string }>(await ctx.tx.execute(statement));
  const capped = r.n > LISTING_COUNT_CAP;
  return new JsonText(`{"items":${r.items},"totalCount":${capped ? LISTING_COUNT_CAP : r.n},"totalCountCapped":${capped}}`);
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
