// The listing centre's reads (spec §7 MeliStat / MeliStatNew GetMeliStatsByPage, GetMeliStatGroupInfo) over the
// listings publishing writes. Who sees what: the tenant's listings of local shops (MeliStat) or of cross-border shops
// (MeliStatNew); a sub-account only those of the shop accounts given to it (meli_accounts.owner_id, as publishing
// scopes its shops). The filter becomes conditions here, in one place, as the product list's filter.ts does; counts
// stop at a cap (the product list's pattern) so a broad filter over a million listings stays a bounded index range.
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { columnsText, Params, rowsOf, sqlOfText, textRows } from "../../db/client.ts";
import { listings, meliAccountGroups, meliCategories, products } from "../../db/schema.ts";
import { visibleShopGroups } from "../../db/visible-groups.ts";
import { cappedPageJson, containsPattern, isoText, pagedJsonStatement, sortOfText } from "../../db/query.ts";
import { JsonText, type CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import {
  LISTING_COUNT_CAP,
  type getMeliStatsByPageInput,
  type ListingFilter,
  type ListingGroupInfo,
  type ListingRow,
} from "#shared/contract/listings.ts";
import { listingView, hiddenBatchIds } from "../publishing/index.ts";
import { PgDialect } from "drizzle-orm/pg-core";
import type { z } from "zod";

/** Which list: MeliStat (local shops) or MeliStatNew (cross-border shops). */
export type ListingKind = "local" | "cbt";
export const kindOfGroup = (group: string): ListingKind => (group === "MeliStatNew" ? "cbt" : "local");

/** The shop groups of the list's kind in the caller's tenant (a sub-account: those with a shop account given to it). */
export function visibleGroups(ctx: CallContext, kind: ListingKind): SQL {
  return and(visibleShopGroups(ctx.tx, ctx.tenantId, ctx.user!), eq(meliAccountGroups.isCbt, kind === "cbt"))!;
}

/** The listings table's columns as SQL text ("listings"."tenant_id"). */
const L = columnsText(listings);

/**
 * The WHERE of the listings the caller sees in this list matching the filter, as text over `p`'s parameters (its
 * tenant's, of the list's kind of shop, a sub-account's own shops'); `omit` leaves one filter field out (the group
 * counts count by it). The filter becomes conditions here, in one place; drizzle callers take it as listingWhere.
 */
function listingWhereText(
  ctx: Pick<CallContext, "tenantId" | "user">,
  kind: ListingKind,
  f: Partial<ListingFilter>,
  p: Params,
  omit?: Omitted,
  hidden: readonly string[] = [],
): string {
  if (f.startTime && f.endTime && f.startTime >= f.endTime) throw badRequest("开始时间须早于结束时间");
  if (f.lastUpdateStartTime && f.lastUpdateEndTime && f.lastUpdateStartTime >= f.lastUpdateEndTime)
    throw badRequest("开始时间须早于结束时间");
  if (f.minPrice != null && f.maxPrice != null && f.minPrice > f.maxPrice) throw badRequest("最低价格不能高于最高价格");
  if (f.minStock != null && f.maxStock != null && f.minStock > f.maxStock) throw badRequest("最低库存不能高于最高库存");
  const u = ctx.user!;
  const t = p.tenant;
  const c = [
    `${L.tenantId} = ${t}`,
    `${L.accountGroupId} in (select id from meli_account_groups where tenant_id = ${t} and is_cbt = ${kind === "cbt"})`,
  ];
  // Not the listings of a batch still being written (batch-write.ts). Only when there is one: the condition reads
  // batch_id, which the tabs' index-only ranges do not hold.
  if (hidden.length) c.push(`${L.batchId} is null or ${L.batchId} not in (${p.list([...hidden])})`);
  if (!u.isMainAccount && !u.isHost)
    c.push(`${L.accountId} in (select id from meli_accounts where tenant_id = ${t} and owner_id = ${p.add(u.id)})`);
  if (f.cbtId) c.push(`${L.cbtId} = ${p.add(f.cbtId.toUpperCase())}`);
  if (f.itemIds?.length) c.push(`${L.itemId} in (${p.list([...new Set(f.itemIds.map((i) => i.toUpperCase()))])})`);
  if (f.startTime) c.push(`${L.creationTime} >= ${p.add(f.startTime.toISOString())}`);
  if (f.endTime) c.push(`${L.creationTime} < ${p.add(f.endTime.toISOString())}`);
  // The listed product's SKU (products' sku index). A variant SKU inside variant_infos is not searched: jsonb
  // containment is not LEAKPROOF, so no index can serve it under the tenant policy and it would scan every listing.
  if (f.sku) c.push(`${L.productId} in (select id from products where tenant_id = ${t} and is_deleted = false and sku = ${p.add(f.sku)})`);
  if (f.productIds?.length) c.push(`${L.productId} in (${p.list(f.productIds)})`);
  if (f.minPrice != null) c.push(`${L.price} >= ${p.add(f.minPrice.toFixed(2))}`);
  if (f.maxPrice != null) c.push(`${L.price} <= ${p.add(f.maxPrice.toFixed(2))}`);
  if (f.minStock != null) c.push(`${L.stock} >= ${p.add(f.minStock)}`);
  if (f.maxStock != null) c.push(`${L.stock} <= ${p.add(f.maxStock)}`);
  if (f.site != null && omit !== "site") c.push(`${L.site} = ${p.add(f.site)}`);
  if (f.accountGroupId && omit !== "accountGroupId") c.push(`${L.accountGroupId} = ${p.add(f.accountGroupId)}`);
  if (f.status != null && omit !== "status") c.push(`${L.status} = ${p.add(f.status)}`);
  if (f.userId) c.push(`${L.userId} = ${p.add(f.userId)}`);
  if (f.reason) c.push(`${L.reason} ilike ${p.add(containsPattern(f.reason))}`);
  if (f.title) c.push(`${L.title} ilike ${p.add(containsPattern(f.title))}`);
  // Written as the partial index's predicate (a literal, not a parameter), so the planner can use it.
  if (f.warning === true) c.push(`(${L.warningMessage} is not null and ${L.warningMessage} <> '')`);
  if (f.warning === false) c.push(`(${L.warningMessage} is null or ${L.warningMessage} = '')`);
  // The global item has a site listing in that status (the cbt row's markets); local listings have no global item.
  if (f.cbtStatus != null)
    c.push(
      `${L.cbtId} is not null and exists (select 1 from listings as o where o.tenant_id = ${L.tenantId} and o.cbt_id = ${L.cbtId} and o.status = ${p.add(f.cbtStatus)})`,
    );
  if (f.lastUpdateStartTime) c.push(`${L.lastModificationTime} >= ${p.add(f.lastUpdateStartTime.toISOString())}`);
  if (f.lastUpdateEndTime) c.push(`${L.lastModificationTime} < ${p.add(f.lastUpdateEndTime.toISOString())}`);
  if (f.listingType) c.push(`${L.listingType} = ${p.add(f.listingType)}`);
  if (f.cateId) c.push(`${L.cateId} = ${p.add(f.cateId.toUpperCase())}`);
  if (f.productLabelId) c.push(`${L.productLabelId} = ${p.add(f.productLabelId)}`);
  if (f.hasSold === true) c.push(`${L.orders} > 0`);
  if (f.hasSold === false) c.push(`${L.orders} = 0`);
  if (f.hasView === true) c.push(`${L.views} > 0`);
  if (f.hasView === false) c.push(`${L.views} = 0`);
  return c.map((x) => `(${x})`).join(" and ");
}

/** A filter field the group counts leave out when counting by it. */
type Omitted = "status" | "site" | "accountGroupId";

/**
 * Visible listings of the list's kind matching the filter, as a drizzle condition; `hidden` the tenant's batches still
 * being written (hiddenBatchIds), for the reads that could meet their listings (those without an item).
 */
export function listingWhere(
  ctx: Pick<CallContext, "tenantId" | "user">,
  kind: ListingKind,
  f: Partial<ListingFilter>,
  omit?: Omitted,
  hidden: readonly string[] = [],
): SQL {
  const p = new Params(ctx.tenantId);
  return sqlOfText(listingWhereText(ctx, kind, f, p, omit, hidden), p.values);
}

const sortColumns = {
  creationTime: L.creationTime,
  lastModificationTime: L.lastModificationTime,
  price: L.price,
  stock: L.stock,
  orders: L.orders,
  views: L.views,
};

/**
 * The order: the sort field then the id in the same direction (pages never overlap); default newest first. Plain
 * asc/desc (PostgreSQL puts listings without a value last ascending, first descending) so one (tenant, field, id)
 * index serves both directions.
 */
const sortOf = (sorting: string | undefined) => sortOfText(sorting, sortColumns, "creationTime");

const num = (v: string | null) => (v === null ? null : Number(v));

/**
 * A listing's row. cateZh: its category's stored Chinese name, shown instead of the name the listing was stored with
 * (listings published before the category had one keep Spanish otherwise).
 */
export function rowView(l: typeof listings.$inferSelect, productTitle: string | null, cateZh: string | null = null): ListingRow {
  return {
    ...listingView(l, productTitle),
    cateName: cateZh ?? l.cateName,
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

/**
 * One listing's row as PostgreSQL selects it for row_to_json: the columns named and valued as rowView makes them
 * (ListingRow), so the page needs no row mapping in this process (listings.test.ts holds the two equal). Constant, so
 * its text is rendered once, not on every call.
 */
const rowSelect = new PgDialect().sqlToQuery(sql`select ${listings.id} as "id", ${products.titleText} as "productTitle",
    ${listings.batchId} as "batchId", ${listings.accountGroupId} as "accountGroupId", ${listings.productId} as "productId",
    ${listings.productLabelId} as "productLabelId", ${listings.site} as "site", ${listings.cbtId} as "cbtId",
    ${listings.itemId} as "itemId", ${listings.cateId} as "cateId",
    coalesce((select c.zh from ${meliCategories} c where c.site = ${listings.site} and c.cate_id = ${listings.cateId}),
      ${listings.cateName}) as "cateName",
    ${listings.title} as "title", ${listings.status} as "status", ${listings.price}::float8 as "price",
    ${listings.currency} as "currency", ${listings.priceContent} as "price_Content", ${listings.reason} as "reason",
    ${listings.problems} as "problems", ${listings.permalink} as "permalink", ${listings.listingType} as "listingType",
    ${listings.image} as "image", ${listings.stock} as "stock", ${isoText(listings.creationTime)} as "creationTime",
    ${isoText(listings.lastModificationTime)} as "lastModificationTime", ${listings.userId} as "userId",
    ${listings.health}::float8 as "health", ${listings.orders} as "orders", ${listings.views} as "views",
    ${isoText(listings.syncTime)} as "syncTime", ${listings.warningMessage} as "warningMessage",
    ${listings.weight}::float8 as "weight", ${listings.size} as "size",
    coalesce(${listings.variantInfos}, '[]'::jsonb) as "variantInfos"
    from ${listings} left join ${products} on ${products.tenantId} = ${listings.tenantId} and ${products.id} = ${listings.productId}`).sql;

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
  const p = new Params(ctx.tenantId);
  const where = listingWhereText(ctx, kind, filter, p, undefined, await hiddenBatchIds(ctx.tx, ctx.tenantId));
  const statement = pagedJsonStatement({
    table: "listings",
    columns: L,
    where,
    sort: sortOf(sorting),
    limit: p.add(maxResultCount),
    offset: p.add(skipCount),
    tenant: p.tenant,
    cap: LISTING_COUNT_CAP,
    rowSelect,
  });
  const [r] = await textRows<{ n: number; items: string }>(ctx.tx, statement, p.values);
  return new JsonText(cappedPageJson(r, LISTING_COUNT_CAP));
}

const STATUSES = Object.values(ListingStatus) as number[];
const SITES = [1, 2, 3, 4, 5];

/** Up to this many listings under the filter (without its status, site and shop group), the tabs are one GROUP BY. */
export const SMALL_BASE = 25_000;

/**
 * The list's tabs: per status, per site and per shop group, each honouring every filter but the one it counts by.
 * When the filter without those three matches at most SMALL_BASE listings (a sub-account, a title, a date range), one
 * GROUP BY over them gives every tab exactly. Otherwise one statement of capped counts, one per tab value, each
 * stopping at LISTING_COUNT_CAP + 1 rows of an index-only range of (tenant, status|site|group, creation time).
 */
export async function getMeliStatGroupInfo(ctx: CallContext, kind: ListingKind, filter: ListingFilter): Promise<ListingGroupInfo> {
  const groups = await ctx.tx
    .select({ id: meliAccountGroups.id, name: meliAccountGroups.name })
    .from(meliAccountGroups)
    .where(visibleGroups(ctx, kind))
    .orderBy(asc(meliAccountGroups.name), asc(meliAccountGroups.id));
  const capped = (n: number) => (n > LISTING_COUNT_CAP ? { count: LISTING_COUNT_CAP, capped: true } : { count: n, capped: false });

  const hidden = await hiddenBatchIds(ctx.tx, ctx.tenantId);
  const base = listingWhere(ctx, kind, { ...filter, status: null, site: null, accountGroupId: null }, undefined, hidden);
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

  const cap = LISTING_COUNT_CAP + 1;
  const counted = (where: SQL) => sql`(select count(*) from (select 1 from ${listings} where ${where} limit ${cap}) as m)::int`;
  const parts: SQL[] = [
    sql`select 'total' as kind, '' as key, ${counted(listingWhere(ctx, kind, filter, undefined, hidden))} as n`,
    ...STATUSES.map(
      (st) =>
        sql`select 'status', ${String(st)}, ${counted(and(listingWhere(ctx, kind, filter, "status", hidden), eq(listings.status, st))!)}`,
    ),
    ...SITES.map(
      (site) =>
        sql`select 'site', ${String(site)}, ${counted(and(listingWhere(ctx, kind, filter, "site", hidden), eq(listings.site, site))!)}`,
    ),
    ...groups.map(
      (g) =>
        sql`select 'group', ${g.id}, ${counted(and(listingWhere(ctx, kind, filter, "accountGroupId", hidden), eq(listings.accountGroupId, g.id))!)}`,
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
