// The workbench's order figures over the real HTTP stack: today's count, sales and profit in CNY (paid orders only,
// through the currency rates), the three daily trends, a sub-account's own shops only, and no other tenant's orders.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { currencies, orders } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { connectShop } from "../../testing/shop-kit.ts";
import { OrderStatus } from "#shared/contract/enums.ts";
import type { WorkbenchInfo } from "#shared/contract/workbench.ts";

const DAY = 86_400_000;
const dayAgo = (offset: number) => new Date(Date.now() - offset * DAY).toISOString().slice(0, 10);
/** A moment of the UTC day `offset` days ago that is never in the future (the day's start plus one minute). */
const timeAgo = (offset: number) => new Date(Date.parse(`${dayAgo(offset)}T00:01:00.000Z`));

let s: TestServer;
let a: TestTenant;
let b: TestTenant;
let sub: { id: string; token: string };
let mxn: number;

type Account = { id: string; group: string; ownerId: string };

async function shopOf(t: TestTenant, nickname: string, uid?: string): Promise<Account> {
  await connectShop(s, t.token, { nickname, site: "MLM", sites: [1], uid });
  const res = await s.api("GET", "/api/MeliAccount/GetAccounts", { token: t.token, query: { MaxResultCount: 100 } });
  expect(res.status, res.raw).toBe(200);
  const acc = (res.body.result.items as (Account & { name: string })[]).find((x) => x.name === nickname);
  if (!acc) throw new Error(`no shop ${nickname}: ${res.raw}`);
  return acc;
}

async function addOrder(
  t: TestTenant,
  acc: Account,
  o: { status: number; total: number; profitCny: number | null; complete?: boolean; at: Date; currency?: string },
) {
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.insert(orders).values({
      tenantId: t.tenantId,
      id: randomUUID(),
      meliOrderId: String(2_000_000_000_000 + Math.floor(Math.random() * 1e9)),
      accountGroupId: acc.group,
      accountId: acc.id,
      userId: acc.ownerId,
      site: 1,
      currency: o.currency ?? "MXN",
      status: o.status,
      meliStatus: "paid",
      totalAmount: o.total.toFixed(2),
      saleFee: "0",
      freightFee: "0",
      cost: "0",
      profit: "0",
      profitDetail: { profitCny: o.profitCny, complete: o.complete ?? true },
      orderTime: o.at,
    }),
  );
}

async function info(token: string, days = 14): Promise<WorkbenchInfo> {
  const res = await s.api("GET", "/api/Workbench/GetWorkbenchInfo", { token, query: { Days: days } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result;
}
const card = (i: WorkbenchInfo, key: string) => i.cards.find((c) => c.key === key);
const trend = (i: WorkbenchInfo, key: string) =>
  Object.fromEntries(
    i.trends
      .find((t) => t.key === key)!
      .points.filter((p) => p.value !== 0)
      .map((p) => [p.date, p.value]),
  );
const cny = (v: number) => Math.round(v * 100) / 100;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
  sub = await s.createSubUser(a);
  const [rate] = await inScope(s.database.db, hostAllScope, (tx) =>
    tx.select({ rate: currencies.rate }).from(currencies).where(eq(currencies.code, "MXN")),
  );
  if (!rate) throw new Error("no MXN rate seeded");
  mxn = Number(rate.rate);

  const boss = await shopOf(a, `wb-boss-${randomUUID().slice(0, 6)}`);
  const subs = await shopOf(a, `wb-sub-${randomUUID().slice(0, 6)}`, sub.id);
  expect(subs.ownerId).toBe(sub.id);
  const other = await shopOf(b, `wb-b-${randomUUID().slice(0, 6)}`);

  // Today: the boss's shop 2 paid (one with its cost missing) + 1 unpaid + 1 cancelled; the sub's shop 1 ready to ship.
  await addOrder(a, boss, { status: OrderStatus.Paid, total: 100, profitCny: 10.5, at: timeAgo(0) });
  await addOrder(a, boss, { status: OrderStatus.Delivered, total: 50.25, profitCny: 4, complete: false, at: timeAgo(0) });
  await addOrder(a, boss, { status: OrderStatus.Unpaid, total: 999, profitCny: 99, at: timeAgo(0) });
  await addOrder(a, boss, { status: OrderStatus.Cancelled, total: 888, profitCny: 88, at: timeAgo(0) });
  await addOrder(a, subs, { status: OrderStatus.ReadyToShip, total: 20, profitCny: -1.25, at: timeAgo(0) });
  // Earlier days: 3 days ago the sub's shop, 20 days ago the boss's (outside a 14-day window).
  await addOrder(a, subs, { status: OrderStatus.Shipped, total: 30, profitCny: 3, at: timeAgo(3) });
  await addOrder(a, boss, { status: OrderStatus.Paid, total: 40, profitCny: 4, at: timeAgo(20) });
  // A currency without a rate counts as an order, not as sales.
  await addOrder(a, boss, { status: OrderStatus.Paid, total: 70, profitCny: null, at: timeAgo(0), currency: "XXX" });
  // B's orders, which A must never see.
  for (let i = 0; i < 3; i++) await addOrder(b, other, { status: OrderStatus.Paid, total: 500, profitCny: 50, at: timeAgo(0) });
});
afterAll(() => s?.close());

describe("the workbench's order figures", () => {
  it("a main account: today's orders, paid sales in CNY and profit, with what was left out said", async () => {
    const i = await info(a.token);
    expect(card(i, "orders.today")).toEqual({ key: "orders.today", title: "今日订单", value: 6, hint: "已付款 4 · 待付款 1 · 已取消 1" });
    expect(card(i, "orders.sales")).toEqual({
      key: "orders.sales",
      title: "今日销售额（元）",
      value: cny((100 + 50.25 + 20) * mxn),
      hint: "1 单币种无汇率，未计入",
    });
    expect(card(i, "orders.profit")).toEqual({
      key: "orders.profit",
      title: "今日利润（元）",
      value: cny(10.5 + 4 - 1.25),
      hint: "1 单缺少商品成本（按 0 计）",
    });
  });

  it("a main account: the daily trends within the window", async () => {
    const i = await info(a.token);
    expect(trend(i, "orders.created")).toEqual({ [dayAgo(0)]: 6, [dayAgo(3)]: 1 });
    expect(trend(i, "orders.sales")).toEqual({ [dayAgo(0)]: cny(170.25 * mxn), [dayAgo(3)]: cny(30 * mxn) });
    expect(trend(i, "orders.profit")).toEqual({ [dayAgo(0)]: 13.25, [dayAgo(3)]: 3 });
    const month = await info(a.token, 30);
    expect(month.trends.find((t) => t.key === "orders.created")!.points).toHaveLength(30);
    expect(trend(month, "orders.created")).toEqual({ [dayAgo(0)]: 6, [dayAgo(3)]: 1, [dayAgo(20)]: 1 });
  });

  it("a sub-account sees the orders of its own shops only", async () => {
    const i = await info(sub.token);
    expect(card(i, "orders.today")).toEqual({
      key: "orders.today",
      title: "我的今日订单",
      value: 1,
      hint: "已付款 1 · 待付款 0 · 已取消 0",
    });
    expect(card(i, "orders.sales")!.value).toBe(cny(20 * mxn));
    expect(card(i, "orders.profit")).toMatchObject({ value: -1.25, hint: "售价 − 佣金 − 运费 − 商品成本" });
    expect(trend(i, "orders.created")).toEqual({ [dayAgo(0)]: 1, [dayAgo(3)]: 1 });
  });

  it("another tenant's orders never count", async () => {
    const i = await info(b.token);
    expect(card(i, "orders.today")!.value).toBe(3);
    expect(card(i, "orders.profit")!.value).toBe(150);
    expect(card(await info(a.token), "orders.today")!.value).toBe(6);
  });
});
