// 统计 on the tenants screen (issue 31): one tenant's figures over a period (GetTenantStatisticsInfo, UTC days, the last
// 30 by default), charts of products collected, listings published and active shops per day, and each user's
// figures. Loaded lazily with its chart library (admin-user-page.tsx), so neither the login route nor the list pays.
import { useMemo, useState } from "react";
import type { TenantListItem } from "#shared/contract/hosted.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Card } from "#shared/ui/card.tsx";
import { DataTable, type DataTableColumn } from "#shared/ui/data-table.tsx";
import { DateInput } from "#shared/ui/date-input.tsx";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { TimeChart, type TimeSeries } from "../../components/charts/time-chart.tsx";
import { formatAmount } from "../../lib/format.ts";
import { useTenantStatistics } from "./api/tenant-statistics.ts";
import { lastDays, periodProblem, statisticsSeries, type StatisticsPeriod } from "./statistics-series.ts";

type UserRow = { userId: string; userName: string; isMainAccount: boolean; productCount: number; totalAmount: string };

const userColumns: DataTableColumn<UserRow>[] = [
  {
    id: "user",
    header: "用户",
    cell: (u) => (
      <span className="flex items-center gap-2">
        <span className="truncate">{u.userName}</span>
        {u.isMainAccount ? <Badge variant="secondary">主账号</Badge> : null}
      </span>
    ),
  },
  { id: "products", header: "采集商品", width: 110, align: "right", cell: (u) => <span className="tabular-nums">{u.productCount}</span> },
  {
    id: "amount",
    header: "订单金额（CNY）",
    width: 150,
    align: "right",
    cell: (u) => <span className="tabular-nums">{formatAmount(u.totalAmount)}</span>,
  },
];

const QUICK_DAYS = [7, 30, 90] as const;

function Figure({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-md border px-3 py-2">
      <span className="text-muted-foreground text-xs">{label}</span>
      <span className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value === undefined ? "-" : value.toLocaleString("zh-CN")}
      </span>
    </div>
  );
}

export default function TenantStatisticsDrawer({
  tenant,
  onOpenChange,
}: {
  tenant: TenantListItem | null;
  onOpenChange: (open: boolean) => void;
}) {
  const [period, setPeriod] = useState<StatisticsPeriod>(() => lastDays(new Date()));
  const problem = periodProblem(period);
  const stats = useTenantStatistics(tenant?.id ?? null, period, !problem);
  const info = stats.data;
  const figures = info?.tenants.items[0];

  const shaped = useMemo(() => (info ? statisticsSeries({ start: info.startDate, end: info.endDate }, info.days) : null), [info]);
  const productSeries = useMemo<TimeSeries[]>(
    () =>
      shaped
        ? [
            { label: "采集商品", values: shaped.collected, color: "--chart-1" },
            { label: "刊登商品", values: shaped.published, color: "--chart-2" },
          ]
        : [],
    [shaped],
  );
  const shopSeries = useMemo<TimeSeries[]>(
    () => (shaped ? [{ label: "活跃店铺", values: shaped.activeShops, color: "--warning" }] : []),
    [shaped],
  );

  return (
    <Sheet open={!!tenant} onOpenChange={onOpenChange}>
      <SheetContent className="w-full gap-0 overflow-y-auto sm:max-w-3xl" data-testid="tenant-statistics-drawer">
        <SheetHeader className="border-b pr-10">
          <SheetTitle>统计：{tenant?.tenantName}</SheetTitle>
          <SheetDescription>按 UTC 日统计：采集商品、刊登商品、有刊登的店铺，以及每个用户的采集数和订单金额。</SheetDescription>
        </SheetHeader>
        <div className="flex flex-col gap-4 p-4">
          <div className="flex flex-wrap items-center gap-2">
            <DateInput
              value={period.start}
              onChange={(start) => setPeriod((p) => ({ ...p, start }))}
              max={period.end}
              aria-label="开始日期"
              className="w-36"
              data-testid="tenant-statistics-start"
            />
            <span className="text-muted-foreground text-sm">至</span>
            <DateInput
              value={period.end}
              onChange={(end) => setPeriod((p) => ({ ...p, end }))}
              min={period.start}
              aria-label="结束日期"
              className="w-36"
              data-testid="tenant-statistics-end"
            />
            {QUICK_DAYS.map((days) => (
              <Button
                key={days}
                variant="outline"
                size="sm"
                onClick={() => setPeriod(lastDays(new Date(), days))}
                data-testid={`tenant-statistics-last-${days}`}
              >
                近 {days} 天
              </Button>
            ))}
            {problem ? <span className="text-destructive text-sm">{problem}</span> : null}
          </div>

          {stats.isPending && !problem ? (
            <Loading className="h-60" />
          ) : stats.isError ? (
            <p className="text-muted-foreground py-10 text-center text-sm">统计加载失败，请稍后重试</p>
          ) : info && shaped ? (
            <>
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-5" data-testid="tenant-statistics-figures">
                <Figure label="采集商品" value={info.totals.productAckCount} testId="tenant-statistics-collected" />
                <Figure label="刊登商品" value={info.totals.uploadStatCount} testId="tenant-statistics-published" />
                <Figure label="活跃店铺" value={info.totals.activeAccountCount} testId="tenant-statistics-active-shops" />
                <Figure label="现有商品" value={figures?.productCount} testId="tenant-statistics-products" />
                <Figure label="启用店铺" value={figures?.shopCount} testId="tenant-statistics-shops" />
              </div>
              <Card className="flex flex-col gap-2 p-3">
                <h3 className="text-sm font-medium">每日采集与刊登</h3>
                <TimeChart x={shaped.x} series={productSeries} title="每日采集商品与刊登商品" testId="tenant-statistics-products-chart" />
              </Card>
              <Card className="flex flex-col gap-2 p-3">
                <h3 className="text-sm font-medium">每日活跃店铺</h3>
                <TimeChart
                  x={shaped.x}
                  series={shopSeries}
                  kind="bars"
                  height={180}
                  title="每日有刊登的店铺数"
                  testId="tenant-statistics-shops-chart"
                />
              </Card>
              <div className="flex flex-col gap-2">
                <h3 className="text-sm font-medium">用户统计</h3>
                <DataTable
                  aria-label="用户统计"
                  columns={userColumns}
                  rows={info.users}
                  rowKey={(u) => u.userId}
                  loading={stats.isFetching}
                  emptyText="该公司暂无用户"
                />
              </div>
            </>
          ) : null}
        </div>
      </SheetContent>
    </Sheet>
  );
}
