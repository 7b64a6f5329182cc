// The workbench's money cards (issue 19): the tenant's balance and this month's spending, for the accounts the finance
// centre is visible to (spec §6). Spending is what Purchase entries took this month (sub-account packages, Payment);
// withdrawals and host adjustments are not spending. The month is China's calendar month (UTC+8): the product's
// sellers work in China time and a tenant keeps no time zone. One statement for both figures.
import { and, count, eq, gte, lt, sql } from "drizzle-orm";
import { tenants, walletLogs } from "../../db/schema.ts";
import { WalletLogType } from "#shared/contract/enums.ts";
import type { WorkbenchContributor } from "../workbench/index.ts";
import { isFinanceVisible } from "./visibility.ts";

const CHINA_OFFSET_MS = 8 * 3600_000;

/** The first instant of `now`'s calendar month at UTC+8, and of the next one. */
export function chinaMonth(now: Date): { start: Date; end: Date } {
  const local = new Date(now.getTime() + CHINA_OFFSET_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  return { start: new Date(Date.UTC(y, m, 1) - CHINA_OFFSET_MS), end: new Date(Date.UTC(y, m + 1, 1) - CHINA_OFFSET_MS) };
}

export const walletWorkbenchContributor: WorkbenchContributor = {
  key: "wallet",
  appliesTo: (u) => !u.isHost,
  async cards(tx, scope) {
    const [me] = await tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, scope.tenantId));
    const visible = await isFinanceVisible(tx, { isMainAccount: scope.role === "main", isHost: false, tenantName: me?.name ?? null });
    if (!visible) return [];
    const { start, end } = chinaMonth(scope.now);
    const purchase = and(
      eq(walletLogs.type, WalletLogType.Purchase),
      gte(walletLogs.creationTime, start),
      lt(walletLogs.creationTime, end),
    );
    const [r] = await tx
      .select({
        spentFen: sql<string>`coalesce(-sum(${walletLogs.amountFen}) filter (where ${purchase}), 0)`,
        purchases: count(sql`case when ${purchase} then 1 end`),
        balanceFen: sql<string>`(select ${tenants.balanceFen} from ${tenants} where ${tenants.id} = ${scope.tenantId})`,
      })
      .from(walletLogs)
      .where(and(eq(walletLogs.tenantId, scope.tenantId), gte(walletLogs.creationTime, start)));
    const balance = Number(r?.balanceFen ?? 0) / 100;
    const spent = Number(r?.spentFen ?? 0) / 100;
    return [
      { key: "wallet.balance", title: "账户余额", value: balance, hint: "单位：元" },
      { key: "wallet.monthSpending", title: "本月消费", value: spent, hint: `本月（北京时间）${r?.purchases ?? 0} 笔消费` },
    ];
  },
};
