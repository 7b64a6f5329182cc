// The workbench's order figures (issue 18): today's orders, sales and profit, and their daily trends. Orders are the
// caller's as the orders screen shows them (the tenant's for a main account, those of its own shop accounts for a
// sub-account). Sales and profit are in CNY: an order's total through the currency rate of its currency, its profit as
// its breakdown converted it (profitCny); they count paid orders (not unpaid, not cancelled). An order whose currency
// has no rate adds to the count only, and the card says how many. Today and the days are UTC days, as every figure of
// the workbench. Two statements: one for the cards, one grouped by day for the three trends.
import { and, eq, gte, inArray, lt, notInArray, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { currencies, meliAccounts, orders } from "../../db/schema.ts";
import { OrderStatus } from "#shared/contract/enums.ts";
import type { WorkbenchContributor, WorkbenchScope } from "./extensions.ts";
import { startOfUtcDay, type WorkbenchWindow } from "./series.ts";

const DAY_MS = 86_400_000;

/** The caller's orders: the tenant's, or a sub-account's shop accounts' (as GetOrders). */
function orderScope(tx: Tx, scope: WorkbenchScope): SQL {
  const tenant = eq(orders.tenantId, scope.tenantId);
  if (scope.role !== "sub") return tenant;
  const own = tx
    .select({ id: meliAccounts.id })
    .from(meliAccounts)
    .where(and(eq(meliAccounts.tenantId, scope.tenantId), eq(meliAccounts.ownerId, scope.userId)));
  return and(tenant, inArray(orders.accountId, own))!;
}

const paid = notInArray(orders.status, [OrderStatus.Unpaid, OrderStatus.Cancelled]);
/** CNY for one unit of the order's currency, null without a rate. */
const rate = sql`case when ${orders.currency} = 'CNY' then 1 else ${currencies.rate} end`;
const salesCny = sql<string>`coalesce(round(sum(${orders.totalAmount} * ${rate}) filter (where ${paid}), 2), 0)`;
const profitCny = sql<string>`coalesce(round(sum((${orders.profitDetail} ->> 'profitCny')::numeric) filter (where ${paid}), 2), 0)`;
const countOf = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

const money = (v: string | number | null) => Math.round(Number(v ?? 0) * 100) / 100;

export const orderWorkbenchContributor: WorkbenchContributor = {
  key: "orders",
  appliesTo: (u) => !u.isHost,
  async cards(tx, scope) {
    const today = startOfUtcDay(scope.now);
    const tomorrow = new Date(today.getTime() + DAY_MS);
    const [r] = await tx
      .select({
        total: countOf(sql`true`),
        paid: countOf(paid),
        unpaid: countOf(eq(orders.status, OrderStatus.Unpaid)),
        cancelled: countOf(eq(orders.status, OrderStatus.Cancelled)),
        noRate: countOf(and(paid, sql`${rate} is null`)!),
        incomplete: countOf(and(paid, sql`(${orders.profitDetail} ->> 'complete') = 'false'`)!),
        sales: salesCny,
        profit: profitCny,
      })
      .from(orders)
      .leftJoin(currencies, eq(currencies.code, orders.currency))
      .where(and(orderScope(tx, scope), gte(orders.orderTime, today), lt(orders.orderTime, tomorrow)));
    const mine = scope.role === "sub" ? "我的" : "";
    return [
      {
        key: "orders.today",
        title: `${mine}今日订单`,
        value: r.total,
        hint: `已付款 ${r.paid} · 待付款 ${r.unpaid} · 已取消 ${r.cancelled}`,
      },
      {
        key: "orders.sales",
        title: `${mine}今日销售额（元）`,
        value: money(r.sales),
        hint: r.noRate ? `${r.noRate} 单币种无汇率，未计入` : "已付款订单，按汇率折合人民币",
      },
      {
        key: "orders.profit",
        title: `${mine}今日利润（元）`,
        value: money(r.profit),
        hint: r.incomplete ? `${r.incomplete} 单缺少商品成本（按 0 计）` : "售价 − 佣金 − 运费 − 商品成本",
      },
    ];
  },
  async trends(tx, scope, w: WorkbenchWindow) {
    const day = sql<string>`to_char(${orders.orderTime} at time zone 'UTC', 'YYYY-MM-DD')`;
    const rows = await tx
      .select({ date: day, orders: countOf(sql`true`), sales: salesCny, profit: profitCny })
      .from(orders)
      .leftJoin(currencies, eq(currencies.code, orders.currency))
      .where(and(orderScope(tx, scope), gte(orders.orderTime, w.start), lt(orders.orderTime, w.end)))
      .groupBy(sql`1`);
    const points = (value: (r: (typeof rows)[number]) => number) => rows.map((r) => ({ date: String(r.date), value: value(r) }));
    return [
      { key: "orders.created", title: "订单数", points: points((r) => r.orders) },
      { key: "orders.sales", title: "销售额（元）", points: points((r) => money(r.sales)) },
      { key: "orders.profit", title: "利润（元）", points: points((r) => money(r.profit)) },
    ];
  },
};
