// The orders screen's reads (spec §7 Order GetOrders, GetMeliOrderGroupInfo). Who sees what: the tenant's orders; a
// sub-account only those of the shop accounts given to it (meli_accounts.owner_id, as the listing centre scopes its
// listings). The filter becomes conditions here, in one place. The page is the listing list's pattern: one statement
// with the capped count and the page's rows as JSON text PostgreSQL builds (JsonText), chosen on the filter's index by
// id, then read by primary key with their lines; counts stop at a cap so a broad filter over a million orders stays a
// bounded index range.
import { and, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { columnsText, Params, rowsOf, sqlOfText, textRows } from "../../db/client.ts";
import { cappedPageJson, isoText, pagedJsonStatement, sortOfText } from "../../db/query.ts";
import { meliAccountGroups, meliAccounts, orderItems, orders } from "../../db/schema.ts";
import { visibleShopGroups } from "../../db/visible-groups.ts";
import { JsonText, type CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { OrderStatus } from "#shared/contract/enums.ts";
import { sourceMargins } from "./sources.ts";
import { ORDER_COUNT_CAP, type getOrdersQuery, type OrderFilter, type OrderGroupInfo, type SourceMargin } from "#shared/contract/orders.ts";

/** The shop groups the caller sees (a sub-account: those with a shop account given to it). */
export const visibleOrderGroups = (ctx: CallContext): SQL => visibleShopGroups(ctx.tx, ctx.tenantId, ctx.user!);

type Omitted = "status" | "site" | "group";

/** The orders table's columns as SQL text ("orders"."tenant_id"). */
const O = columnsText(orders);
const G = columnsText(meliAccountGroups);
const A = columnsText(meliAccounts);

/**
 * The WHERE of the orders the caller sees matching the filter, as text over `p`'s parameters: its tenant's, a
 * sub-account's own shops' (meli_accounts.owner_id); `omit` leaves one filter field out (a tab counts by it). The
 * filter becomes conditions here, in one place; drizzle callers take it as orderWhere. Text, as the listing list's
 * WHERE: GetOrders is the orders screen's hottest read.
 */
function orderWhereText(ctx: CallContext, f: Partial<OrderFilter>, p: Params, omit?: Omitted): string {
  if (f.StartTime && f.EndTime && f.StartTime >= f.EndTime) throw badRequest("开始时间须早于结束时间");
  const u = ctx.user!;
  const t = p.tenant;
  const c = [`${O.tenantId} = ${t}`];
  if (!u.isMainAccount && !u.isHost)
    c.push(`${O.accountId} in (select id from meli_accounts where tenant_id = ${t} and owner_id = ${p.add(u.id)})`);
  if (f.OrderId) c.push(`${O.id} = ${p.add(f.OrderId)}`);
  if (f.PackOrderId) c.push(`${O.packId} = ${p.add(f.PackOrderId)}`);
  if (f.OrderNo) c.push(`${O.meliOrderId} = ${p.add(f.OrderNo)}`);
  if (f.OrderStatus != null && omit !== "status") c.push(`${O.status} = ${p.add(f.OrderStatus)}`);
  if (f.UserId) c.push(`${O.userId} = ${p.add(f.UserId)}`);
  if (f.StartTime) c.push(`${O.orderTime} >= ${p.add(f.StartTime.toISOString())}`);
  if (f.EndTime) c.push(`${O.orderTime} < ${p.add(f.EndTime.toISOString())}`);
  if (f.AccountGroupId && omit !== "group") c.push(`${O.accountGroupId} = ${p.add(f.AccountGroupId)}`);
  if (f.Site != null && omit !== "site") c.push(`${O.site} = ${p.add(f.Site)}`);
  return c.map((x) => `(${x})`).join(" and ");
}

/** Visible orders matching the filter, as a drizzle condition. */
export function orderWhere(ctx: CallContext, f: Partial<OrderFilter>, omit?: Omitted): SQL {
  const p = new Params(ctx.tenantId);
  return sqlOfText(orderWhereText(ctx, f, p, omit), p.values);
}

const sortColumns = { orderTime: O.orderTime, mustSendTime: O.mustSendTime, lastModificationTime: O.lastModificationTime };

/** The sort field then the id in the same direction (pages never overlap); default newest first. */
const sortOf = (sorting: string | undefined) => sortOfText(sorting, sortColumns, "orderTime");

/**
 * One order's row as PostgreSQL selects it for row_to_json: the columns named and valued as the contract's orderRow,
 * with its lines (in line order) and its shop's name, so the page needs no row mapping in this process.
 */
const rowSelect = new PgDialect()
  .sqlToQuery(sql`select ${orders.id} as "id", ${orders.meliOrderId} as "orderNo", ${orders.packId} as "packId",
    ${orders.accountGroupId} as "accountGroupId", ${orders.accountId} as "accountId",
    coalesce(${meliAccounts.alias}, ${meliAccounts.name}) as "shopName", ${meliAccounts.minMargin}::float8 as "minMargin",
    null::json as "sourceMargin",
    ${orders.site} as "site", ${orders.isCbt} as "isCbt",
    ${orders.currency} as "currency", ${orders.status} as "orderStatus", ${orders.meliStatus} as "meliStatus",
    ${orders.shipmentStatus} as "shipmentStatus", ${orders.shipmentSubstatus} as "shipmentSubstatus",
    ${orders.shipmentId} as "shipmentId", ${orders.buyerId} as "buyerId", ${orders.buyerNickname} as "buyerNickname",
    ${orders.totalAmount}::float8 as "totalAmount", ${orders.saleFee}::float8 as "saleFee",
    ${orders.freightFee}::float8 as "freightFee", ${orders.cost}::float8 as "cost", ${orders.profit}::float8 as "profit",
    ${orders.profitDetail} as "profitDetail", ${orders.logisticsName} as "logisticsName",
    ${orders.logisticsNumber} as "logisticsNumber", ${orders.thumb} as "thumb", ${orders.address} as "recieveAddress",
    ${isoText(orders.orderTime)} as "orderTime", ${isoText(orders.deliveryTime)} as "deliveryTime",
    ${isoText(orders.signingTime)} as "signingTime", ${isoText(orders.estimatedDeliveryTime)} as "estima_DeliveryTime",
    ${isoText(orders.mustSendTime)} as "mustSendTime",
    (${orders.status} = ${sql.raw(String(OrderStatus.ReadyToShip))} and ${orders.shipmentId} is not null) as "labelReady",
    coalesce((select json_agg(json_build_object('meliId', i.item_id, 'variationId', i.variation_id, 'thumb', i.thumb,
        'title', i.title, 'link', i.link, 'num', i.quantity, 'price', i.unit_price::float8,
        'saleFee', (i.sale_fee * i.quantity)::float8, 'sku', i.sku, 'vkes', i.vkes, 'listingId', i.listing_id,
        'productId', i.product_id,
        'source', (select json_build_object('offerUrl', coalesce(c.source_url, p.source_url),
            'platformType', coalesce(c.platform_type, p.platform_type), 'shopName', c.shop->>'name')
          from products p left join collections c on c.tenant_id = p.tenant_id and c.id = p.source_collection_id
          where p.tenant_id = i.tenant_id and p.id = i.product_id)) order by i.line)
      from ${orderItems} i where i.tenant_id = ${orders.tenantId} and i.order_id = ${orders.id}), '[]'::json) as "items",
    ${orders.userId} as "userId", ${isoText(orders.syncTime)} as "syncTime", ${isoText(orders.creationTime)} as "creationTime",
    ${isoText(orders.lastModificationTime)} as "lastModificationTime"
    from ${orders} left join ${meliAccounts} on ${meliAccounts.tenantId} = ${orders.tenantId} and ${meliAccounts.id} = ${orders.accountId}`).sql;

/**
 * GetOrders in one statement: the capped count and the page's rows as JSON text, sent as the answer without parsing
 * it unless a line links to a product (then a second statement adds the margins at the source). The page is chosen on
 * the filter's index (ids only), then its rows are read by primary key for the JSON.
 */
export async function getOrders(ctx: CallContext, query: z.output<typeof getOrdersQuery>): Promise<JsonText> {
  const { SkipCount, MaxResultCount, Sorting, ...filter } = query;
  const p = new Params(ctx.tenantId);
  const where = orderWhereText(ctx, filter, p);
  const statement = pagedJsonStatement({
    table: "orders",
    columns: O,
    where,
    sort: sortOf(Sorting),
    limit: p.add(MaxResultCount),
    offset: p.add(SkipCount),
    tenant: p.tenant,
    cap: ORDER_COUNT_CAP,
    rowSelect,
  });
  const [r] = await textRows<{ n: number; items: string }>(ctx.tx, statement, p.values);
  return new JsonText(cappedPageJson({ n: r.n, items: await withSourceMargins(ctx, r.items) }, ORDER_COUNT_CAP));
}

/**
 * The rows' margin at the source (issue 32): the JSON text as it is when no line links to a product, else parsed and
 * each such order's sourceMargin set from one statement over the page's lines (sources.ts sourceMargins).
 */
async function withSourceMargins(ctx: CallContext, rowsJson: string): Promise<string> {
  if (!/"productId"\s*:\s*"/.test(rowsJson)) return rowsJson;
  const rows = JSON.parse(rowsJson) as { id: string; sourceMargin: SourceMargin | null; items: { productId: string | null }[] }[];
  const margins = await sourceMargins(
    ctx.tx,
    ctx.tenantId,
    rows.filter((r) => r.items.some((i) => i.productId)).map((r) => r.id),
  );
  for (const r of rows) r.sourceMargin = margins.get(r.id) ?? null;
  return JSON.stringify(rows);
}

/** One visible order's row (GetNewOrder's answer), or 404. */
export async function getOrderRow(ctx: CallContext, id: string): Promise<JsonText> {
  const rows = rowsOf<{ row: string }>(
    await ctx.tx.execute(
      sql`select row_to_json(r)::text as row from (${sql.raw(rowSelect)} where ${orderWhere(ctx, { OrderId: id })}) as r`,
    ),
  );
  if (!rows.length) throw notFound("订单不存在");
  return new JsonText((await withSourceMargins(ctx, `[${rows[0].row}]`)).slice(1, -1));
}

const STATUSES = Object.values(OrderStatus) as number[];
const SITES = [1, 2, 3, 4, 5];

/**
 * The tabs: per status, per site and per shop group, each honouring every filter but the one it counts by, as one
 * statement of capped counts (each stops at ORDER_COUNT_CAP + 1 rows of an index range of (tenant, status|site|
 * group, order time) whose INCLUDEd columns answer the visibility).
 */
export async function getMeliOrderGroupInfo(ctx: CallContext, filter: OrderFilter): Promise<OrderGroupInfo> {
  const u = ctx.user!;
  const g = new Params(ctx.tenantId);
  const ownGroups =
    u.isMainAccount || u.isHost
      ? ""
      : ` and ${G.id} in (select ${A.groupId} from meli_accounts where ${A.tenantId} = $1 and ${A.ownerId} = ${g.add(u.id)})`;
  const groups = await textRows<{ id: string; name: string; alias: string | null }>(
    ctx.tx,
    `select ${G.id} as id, ${G.name} as name, ${G.alias} as alias from meli_account_groups where ${G.tenantId} = $1${ownGroups} order by ${G.name}, ${G.id}`,
    g.values,
  );
  // Every parameter must be used by the statement (PostgreSQL cannot type an unused one): a Params of its own.
  const p = new Params(ctx.tenantId);
  const cap = ORDER_COUNT_CAP + 1;
  const counted = (where: string) => `(select count(*) from (select 1 from orders where ${where} limit ${cap}) as m)::int`;
  const byStatus = orderWhereText(ctx, filter, p, "status");
  const bySite = orderWhereText(ctx, filter, p, "site");
  // Only with a group to count (its parameters would be unused otherwise: an error to PostgreSQL).
  const byGroup = groups.length ? orderWhereText(ctx, filter, p, "group") : "";
  const parts = [
    `select 'total' as kind, '' as key, ${counted(orderWhereText(ctx, filter, p))} as n`,
    ...STATUSES.map((st) => `select 'status', '${st}', ${counted(`${byStatus} and ${O.status} = ${st}`)}`),
    ...SITES.map((site) => `select 'site', '${site}', ${counted(`${bySite} and ${O.site} = ${site}`)}`),
    // The key and the condition take separate parameters: one used as text and as uuid is an error to PostgreSQL.
    ...groups.map((row) => `select 'group', ${p.add(row.id)}::text, ${counted(`${byGroup} and ${O.accountGroupId} = ${p.add(row.id)}`)}`),
  ];
  const list = await textRows<{ kind: string; key: string; n: number }>(ctx.tx, parts.join(" union all "), p.values);
  const count = (kind: string, key: string) => {
    const n = Number(list.find((r) => r.kind === kind && r.key === key)?.n ?? 0);
    return n > ORDER_COUNT_CAP ? { count: ORDER_COUNT_CAP, capped: true } : { count: n, capped: false };
  };
  return {
    statuses: STATUSES.map((status) => ({ status, ...count("status", String(status)) })),
    sites: SITES.map((site) => ({ site, ...count("site", String(site)) })),
    accountGroups: groups.map((g) => ({ accountGroupId: g.id, name: g.alias || g.name, ...count("group", g.id) })),
    total: count("total", ""),
  };
}
