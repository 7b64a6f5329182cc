// /payment/package (spec §2 子账号套餐, issue 19): the company's balance and sub-account allowance, the packages the
// platform offers (buying one pays from the balance after a confirmation), and the purchases made.
import { PackagePlus, Users, Wallet } from "lucide-react";
import type { SubAccPackage } from "#shared/contract/subaccount-orders.ts";
import { formatYuan } from "#shared/contract/wallet.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { StatCard } from "#shared/ui/stat-card.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useMyOrders, useOrderPackage, usePackages } from "./api/packages.ts";
import { myOrderColumns } from "./package-columns.tsx";
import { myOrderListSchema, toMyOrdersQuery } from "./package-search-params.ts";

export default function PackagePage({ route }: PageProps) {
  const listState = useListUrlState(myOrderListSchema, useTabSearchParams(route.path));
  const { state } = listState;
  const packages = usePackages();
  const mine = useMyOrders(toMyOrdersQuery(state));
  useKeepPageInRange(state, settledTotal(mine), listState.setPage);
  const buy = useOrderPackage();
  const allowance = mine.data?.allowance;

  // Without a limit (the host set no free number) a package changes nothing: buying is off (the server refuses it too).
  const unlimited = allowance?.limit === null;

  async function onBuy(p: SubAccPackage) {
    if (!allowance || allowance.limit === null) return;
    const short = allowance.balance < p.price;
    const limit = `子账号上限：现在 ${allowance.limit} 个，购买后 ${allowance.limit + p.count} 个（${p.days} 天内有效）。`;
    const ok = await confirm({
      title: `确认购买「${p.name}」吗？`,
      description: short
        ? `${limit}当前余额 ${formatYuan(allowance.balance)}，不足以支付 ${formatYuan(p.price)}，请先到财务中心充值。`
        : `${limit}将从余额中扣除 ${formatYuan(p.price)}。`,
      tone: short ? "warning" : "info",
      confirmText: "确认购买",
    });
    if (!ok) return;
    buy.mutate(p.id, {
      onSuccess: (r) => toast.success(`购买成功：子账号上限 ${r.allowance.limit ?? "不限"} 个，余额 ${formatYuan(r.allowance.balance)}`),
    });
  }

  const limitText = allowance ? (allowance.limit === null ? "不限" : `${allowance.limit} 个`) : "-";
  return (
    <Card data-testid="package-page">
      <CardHeader className="border-b pb-4">
        <CardTitle>{route.meta.title}</CardTitle>
        <CardDescription>用余额购买子账号套餐：套餐有效期内可多启用相应数量的子账号，到期后不能再新建或启用超出部分。</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6 pt-4">
        <div className="grid gap-4 sm:grid-cols-3">
          <StatCard
            title="账户余额"
            icon={<Wallet />}
            loading={!allowance}
            value={<span data-testid="package-balance">{allowance ? formatYuan(allowance.balance) : "-"}</span>}
          />
          <StatCard
            title="已启用子账号 / 上限"
            icon={<Users />}
            loading={!allowance}
            value={<span data-testid="package-allowance">{allowance ? `${allowance.activeSubAccounts} / ${limitText}` : "-"}</span>}
            hint={allowance?.freeCount != null ? `免费 ${allowance.freeCount} 个，已购 ${allowance.purchasedCount} 个` : undefined}
          />
          <StatCard
            title="套餐到期时间"
            icon={<PackagePlus />}
            loading={!allowance}
            value={allowance?.expireTime ? formatDateTime(allowance.expireTime) : "无生效套餐"}
          />
        </div>

        <section aria-label="可购买的套餐" className="flex flex-col gap-3">
          <h3 className="font-medium">可购买的套餐</h3>
          {packages.data && packages.data.length === 0 ? <p className="text-muted-foreground text-sm">平台暂未提供子账号套餐。</p> : null}
          {unlimited ? (
            <p className="text-muted-foreground text-sm" data-testid="package-unlimited">
              平台目前不限制子账号数量，可直接启用子账号，无需购买套餐。
            </p>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {(packages.data ?? []).map((p) => (
              <div key={p.id} className="flex flex-col gap-2 rounded-lg border p-4" data-testid="package-offer" data-package-id={p.id}>
                <div className="font-medium">{p.name}</div>
                <div className="text-muted-foreground text-sm">
                  {p.count} 个子账号 · {p.days} 天
                </div>
                <div className="text-2xl font-semibold tabular-nums">{formatYuan(p.price)}</div>
                {allowance && allowance.limit !== null ? (
                  <div className="text-muted-foreground text-xs" data-testid="package-limit-after">
                    上限 {allowance.limit} → {allowance.limit + p.count} 个
                  </div>
                ) : null}
                <Button
                  onClick={() => void onBuy(p)}
                  disabled={buy.isPending || !allowance || unlimited}
                  title={unlimited ? "平台不限制子账号数量，无需购买" : undefined}
                  data-testid="package-buy"
                >
                  购买
                </Button>
              </div>
            ))}
          </div>
        </section>

        <section aria-label="购买记录" className="flex flex-col gap-3">
          <h3 className="font-medium">购买记录</h3>
          <DataTable
            aria-label="购买记录"
            columns={myOrderColumns}
            rows={mine.data?.items ?? []}
            rowKey={(o) => o.id}
            loading={mine.isFetching}
            emptyText="暂无购买记录"
            pagination={{ page: state.page, pageSize: state.size, total: mine.data?.totalCount ?? 0, onChange: listState.onPageChange }}
          />
        </section>
      </CardContent>
    </Card>
  );
}
