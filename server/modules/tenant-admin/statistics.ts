// The host's statistics (spec §3 Statistics, §7 Hosted GetTenantStatisticsInfo and GetStatLogStatics). Per tenant over
// a period of UTC days: products that entered the library (productAckCount), listings published (uploadStatCount) and
// shop accounts that published (activeAccountCount), from the day rollups the triggers keep (migration 0030), so a
// period over every tenant reads a row per tenant, day and owner or shop; plus each tenant's live products and enabled
// shops now, from their own small tables. A point per day for the charts, and with one tenant, each user's products and
// sales (paid orders of the shops the user holds, in CNY through the currency rates). A tenant's publishing shops are
// counted by grouping each shop's days first (one hash, no sort for a distinct); a day's, in the day index's order.
// Two statements over every tenant, three with one tenant (its users), each one pass.
// GetStatLogStatics counts the marketplace call log per tenant.
import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf } from "../../db/client.ts";
import { containsPattern } from "../../db/query.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { OrderStatus } from "#shared/contract/enums.ts";
import {
  STATISTICS_DEFAULT_DAYS,
  STATISTICS_MAX_DAYS,
  type getStatLogStaticsInput,
  type getTenantStatisticsInfoQuery,
  type TenantCount,
  type TenantStatisticsInfo,
} from "#shared/contract/tenant-admin.ts";

const DAY_MS = 86_400_000;
type StatisticsQuery = z.output<typeof getTenantStatisticsInfoQuery>;
type TenantRow = TenantStatisticsInfo["tenants"]["items"][number];
type DayRow = TenantStatisticsInfo["days"][number];

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The period as UTC days (both inclusive): EndDate's day (today by default) and StartDate's (30 days before). */
function periodOf(q: Pick<StatisticsQuery, "StartDate" | "EndDate">, now = new Date()) {
  const end = utcDay(q.EndDate ?? now);
  const start = q.StartDate ? utcDay(q.StartDate) : utcDay(new Date(Date.parse(end) - (STATISTICS_DEFAULT_DAYS - 1) * DAY_MS));
  const days = Math.round((Date.parse(end) - Date.parse(start)) / DAY_MS) + 1;
  if (days < 1) throw badRequest("结束日期不能早于开始日期", "EndDate is before StartDate");
  if (days > STATISTICS_MAX_DAYS) throw badRequest(`统计区间最长 ${STATISTICS_MAX_DAYS} 天`, `the period spans ${days} days`);
  const dates = Array.from({ length: days }, (_, i) => utcDay(new Date(Date.parse(start) + i * DAY_MS)));
  return { start, end, dates };
}

type Period = ReturnType<typeof periodOf>;

/** The tenants of the selection: one, or those whose name contains TenantName, never the host's own. */
function selection(q: StatisticsQuery): SQL {
  if (q.TenantId) return sql`t.id = ${q.TenantId}::uuid`;
  const name = q.TenantName?.trim();
  return name ? sql`t.id <> ${HOST_TENANT_ID}::uuid and t.name ilike ${containsPattern(name)}` : sql`t.id <> ${HOST_TENANT_ID}::uuid`;
}

/** The rollup rows of the selection's tenants in the period (`d` is the rollup). */
function rollupWhere(q: StatisticsQuery, p: Period): SQL {
  const inPeriod = sql`d.day between ${p.start}::date and ${p.end}::date`;
  if (q.TenantId) return sql`${inPeriod} and d.tenant_id = ${q.TenantId}::uuid`;
  if (q.TenantName?.trim()) return sql`${inPeriod} and d.tenant_id in (select t.id from tenants t where ${selection(q)})`;
  return sql`${inPeriod} and d.tenant_id <> ${HOST_TENANT_ID}::uuid`;
}

const sortColumns: Record<string, string> = {
  productackcount: `"productAckCount"`,
  uploadstatcount: `"uploadStatCount"`,
  activeaccountcount: `"activeAccountCount"`,
  tenantname: `"tenantName"`,
  productcount: `"productCount"`,
};

function tenantOrder(sorting: string | undefined): SQL {
  const [field, dir] = (sorting ?? "productAckCount desc").trim().split(/\s+/);
  const column = sortColumns[field.toLowerCase()] ?? sortColumns.productackcount;
  return sql.raw(`${column} ${dir?.toLowerCase() === "asc" ? "asc" : "desc"}, "tenantName" asc, "tenantId" asc`);
}

/** Every tenant of the selection with its figures, in the asked order (paged by the caller). */
function tenantRowsStatement(q: StatisticsQuery, p: Period): SQL {
  const only = q.TenantId ? sql` and tenant_id = ${q.TenantId}::uuid` : sql``;
  return sql`with p as (
      select d.tenant_id, sum(d.count)::int as n from tenant_product_days d where ${rollupWhere(q, p)} group by d.tenant_id
    ), l as (
      select tenant_id, sum(n)::int as n, count(*)::int as a from (
        select d.tenant_id, d.account_id, sum(d.count) as n from tenant_listing_days d where ${rollupWhere(q, p)} group by 1, 2
      ) shop group by tenant_id
    ), live as (
      select tenant_id, sum(count)::int as n from product_counts where true${only} group by tenant_id
    ), shops as (
      select tenant_id, count(*)::int as n from meli_accounts where is_enabled${only} group by tenant_id
    )
    select t.id as "tenantId", t.name as "tenantName", coalesce(p.n, 0) as "productAckCount",
      coalesce(l.n, 0) as "uploadStatCount", coalesce(l.a, 0) as "activeAccountCount",
      coalesce(live.n, 0) as "productCount", coalesce(shops.n, 0) as "shopCount"
    from tenants t left join p on p.tenant_id = t.id left join l on l.tenant_id = t.id
      left join live on live.tenant_id = t.id left join shops on shops.tenant_id = t.id
    where ${selection(q)}
    order by ${tenantOrder(q.Sorting)}`;
}

/** The selection's figures per day of the period (days without any are absent). */
function dayRowsStatement(q: StatisticsQuery, p: Period): SQL {
  return sql`with p as (
      select d.day, sum(d.count)::int as n from tenant_product_days d where ${rollupWhere(q, p)} group by d.day
    ), l as (
      select d.day, sum(d.count)::int as n, count(distinct d.account_id)::int as a
      from tenant_listing_days d where ${rollupWhere(q, p)} group by d.day
    )
    select to_char(coalesce(p.day, l.day), 'YYYY-MM-DD') as "date", coalesce(p.n, 0) as "productAckCount",
      coalesce(l.n, 0) as "uploadStatCount", coalesce(l.a, 0) as "activeAccountCount"
    from p full join l on l.day = p.day`;
}

/** Each user of one tenant: products brought in and sales in the period. */
function userRowsStatement(tenantId: string, p: Period): SQL {
  const paid = sql.raw(`o.status not in (${OrderStatus.Unpaid}, ${OrderStatus.Cancelled})`);
  return sql`with p as (
      select user_id, sum(count)::int as n from tenant_product_days
      where tenant_id = ${tenantId}::uuid and day between ${p.start}::date and ${p.end}::date group by user_id
    ), o as (
      select o.user_id, sum(o.total_amount * case when o.currency = 'CNY' then 1 else c.rate end) as amount
      from orders o left join currencies c on c.code = o.currency
      where o.tenant_id = ${tenantId}::uuid and ${paid}
        and o.order_time >= ${p.start}::date and o.order_time < ${p.end}::date + 1
      group by o.user_id
    )
    select u.id as "userId", u.user_name as "userName", u.is_main_account as "isMainAccount",
      coalesce(p.n, 0) as "productCount", round(coalesce(o.amount, 0), 2)::numeric(18, 2)::text as "totalAmount"
    from users u left join p on p.user_id = u.id left join o on o.user_id = u.id
    where u.tenant_id = ${tenantId}::uuid and u.is_deleted = false and u.is_host = false
    order by u.is_main_account desc, u.creation_time, u.id`;
}

const ints = <T extends Record<string, unknown>>(row: T, keys: (keyof T)[]) => {
  for (const k of keys) (row as Record<string, unknown>)[k as string] = Number(row[k] ?? 0);
  return row;
};

export async function getTenantStatisticsInfo(ctx: CallContext, q: StatisticsQuery): Promise<TenantStatisticsInfo> {
  const tx = ctx.tx;
  const period = periodOf(q);
  const all = rowsOf<TenantRow>(await tx.execute(tenantRowsStatement(q, period))).map((r) =>
    ints(r, ["productAckCount", "uploadStatCount", "activeAccountCount", "productCount", "shopCount"]),
  );
  // One tenant's row is there exactly when the tenant is.
  if (q.TenantId && !all.length) throw notFound("公司未找到");
  const byDay = new Map(
    rowsOf<DayRow>(await tx.execute(dayRowsStatement(q, period))).map((r) => [
      r.date,
      ints(r, ["productAckCount", "uploadStatCount", "activeAccountCount"]),
    ]),
  );
  const users = q.TenantId
    ? rowsOf<TenantStatisticsInfo["users"][number]>(await tx.execute(userRowsStatement(q.TenantId, period))).map((r) =>
        ints(r, ["productCount"]),
      )
    : [];
  const sum = (k: "productAckCount" | "uploadStatCount" | "activeAccountCount") => all.reduce((n, r) => n + r[k], 0);
  return {
    startDate: period.start,
    endDate: period.end,
    totals: {
      productAckCount: sum("productAckCount"),
      uploadStatCount: sum("uploadStatCount"),
      activeAccountCount: sum("activeAccountCount"),
    },
    tenants: { items: all.slice(q.SkipCount, q.SkipCount + q.MaxResultCount), totalCount: all.length },
    days: period.dates.map((date) => byDay.get(date) ?? { date, productAckCount: 0, uploadStatCount: 0, activeAccountCount: 0 }),
    users,
  };
}

/** Marketplace calls per tenant (only tenants with calls), most first. */
export async function getStatLogStatics(ctx: CallContext, body: z.output<typeof getStatLogStaticsInput>): Promise<TenantCount[]> {
  const where: SQL[] = [sql`true`];
  if (body.tenantId) where.push(sql`l.tenant_id = ${body.tenantId}::uuid`);
  if (body.startTime) where.push(sql`l.creation_time >= ${body.startTime.toISOString()}::timestamptz`);
  if (body.endTime) where.push(sql`l.creation_time < ${body.endTime.toISOString()}::timestamptz`);
  if (body.status === 1) where.push(sql`l.status between 200 and 299`);
  if (body.status === 2) where.push(sql`(l.status is null or l.status not between 200 and 299)`);
  const rows = rowsOf<TenantCount>(
    await ctx.tx.execute(sql`select l.tenant_id as "tenantId", t.name as "tenantName", count(*)::int as count
      from meli_call_logs l join tenants t on t.id = l.tenant_id
      where ${sql.join(where, sql` and `)}
      group by l.tenant_id, t.name order by count desc, t.name`),
  );
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}
