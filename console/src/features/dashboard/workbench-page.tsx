// /dashboard/wrokbench (spec §2): a greeting, the caller's KPI cards and daily trends over 7, 14 or 30 days, all from
// GetWorkbenchInfo; what the cards are depends on who asks (host, main account, sub-account), so they are drawn by key.
// A seller's orders (keys orders.*, issue 18) come first: today's orders, sales and profit, and one trend chart that
// switches between them; the window opens on 30 days.
import {
  Building2,
  ChartColumn,
  CircleDollarSign,
  ListChecks,
  LogIn,
  Receipt,
  ShoppingBag,
  TrendingUp,
  UserRound,
  Users,
  Wallet,
} from "lucide-react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { formatYuan } from "#shared/contract/wallet.ts";
import type { WorkbenchInfo, WorkbenchTrend } from "#shared/contract/workbench.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { Empty } from "#shared/ui/empty.tsx";
import { Skeleton } from "#shared/ui/skeleton.tsx";
import { StatCard } from "#shared/ui/stat-card.tsx";
import { Tabs, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { useUserStore } from "../../stores/user.ts";
import { useWorkbenchInfo } from "./api/get-workbench-info.ts";
import type { TrendChartProps } from "./trend-chart.tsx";

/** The charts bring uPlot: the cards paint first, the chunk follows (the host's statistics drawer shares it). */
const TrendChart = lazy(() => import("./trend-chart.tsx"));

function LazyTrendChart(p: TrendChartProps) {
  return (
    <Suspense fallback={<Skeleton className="w-full" style={{ height: p.height + 28 }} />}>
      <TrendChart {...p} />
    </Suspense>
  );
}

const DAY_OPTIONS = [7, 14, 30] as const;
const DEFAULT_DAYS = 30;

const cardIcons: Record<string, ReactNode> = {
  subAccounts: <Users />,
  tasks: <ListChecks />,
  logins: <LogIn />,
  tenants: <Building2 />,
  users: <UserRound />,
  "orders.today": <ShoppingBag />,
  "orders.sales": <CircleDollarSign />,
  "orders.profit": <TrendingUp />,
  "wallet.balance": <Wallet />,
  "wallet.monthSpending": <Receipt />,
};

/** The wallet's cards are yuan: shown with ¥ and two decimals. */
const isMoneyCard = (key: string) => key.startsWith("wallet.");

/** The order figures' cards and trends (their own row and chart). */
const isOrderFigure = (key: string) => key.startsWith("orders.");
const moneyFormat = (v: number) => v.toLocaleString("zh-CN", { maximumFractionDigits: 2 });

/** Counts of things created per day read best as bars; activity (logins) as a line. */
const isBarTrend = (key: string) => key.endsWith(".created");

function greeting(now: Date): string {
  const h = now.getHours();
  if (h < 5) return "夜深了";
  if (h < 11) return "早上好";
  if (h < 13) return "中午好";
  if (h < 18) return "下午好";
  return "晚上好";
}

function todayText(now: Date): string {
  const week = "日一二三四五六"[now.getDay()];
  return `${now.getFullYear()}年${now.getMonth() + 1}月${now.getDate()}日 星期${week}`;
}

function Greeting() {
  const info = useUserStore((s) => s.userInfo);
  const tenantName = useUserStore((s) => s.tenantName);
  const now = new Date();
  const name = info?.name || info?.userName || "";
  const who = info?.isHost ? "平台运营总览" : tenantName ? `公司：${tenantName}` : null;
  return (
    <div className="min-w-0">
      <h2 className="truncate text-xl font-semibold" data-testid="workbench-greeting">
        {greeting(now)}，{name}
      </h2>
      <p className="text-muted-foreground mt-1 text-sm">
        {todayText(now)}
        {who ? ` · ${who}` : ""}
      </p>
    </div>
  );
}

function TrendCard({ trend, days }: { trend: WorkbenchTrend; days: number }) {
  const total = trend.points.reduce((sum, p) => sum + p.value, 0);
  return (
    <Card data-testid={`workbench-trend-${trend.key}`}>
      <CardHeader>
        <CardTitle>{trend.title}</CardTitle>
        <CardDescription>
          近 {days} 天合计 <span className="text-foreground font-medium tabular-nums">{total.toLocaleString("zh-CN")}</span>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <LazyTrendChart
          points={trend.points}
          title={trend.title}
          kind={isBarTrend(trend.key) ? "bars" : "line"}
          height={200}
          testId={`workbench-chart-${trend.key}`}
        />
      </CardContent>
    </Card>
  );
}

/** The order trends in one chart, switched between orders, sales and profit. */
function OrderTrendCard({ trends }: { trends: WorkbenchTrend[] }) {
  const [key, setKey] = useState(trends[0].key);
  const trend = trends.find((t) => t.key === key) ?? trends[0];
  const money = trend.key !== "orders.created";
  const total = trend.points.reduce((sum, p) => sum + p.value, 0);
  return (
    <Card data-testid="workbench-order-trend" data-key={trend.key}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1.5">
          <CardTitle>订单趋势</CardTitle>
          <CardDescription>
            近 {trend.points.length} 天{trend.title}合计{" "}
            <span className="text-foreground font-medium tabular-nums">{money ? moneyFormat(total) : total.toLocaleString("zh-CN")}</span>
          </CardDescription>
        </div>
        <Tabs value={trend.key} onValueChange={setKey}>
          <TabsList aria-label="订单趋势指标">
            {trends.map((t) => (
              <TabsTrigger key={t.key} value={t.key} data-testid={`workbench-order-trend-${t.key}`}>
                {t.title.replace("（元）", "")}
              </TabsTrigger>
            ))}
          </TabsList>
        </Tabs>
      </CardHeader>
      <CardContent>
        <LazyTrendChart
          points={trend.points}
          title={trend.title}
          kind={money ? "line" : "bars"}
          height={190}
          format={money ? moneyFormat : undefined}
          testId="workbench-order-chart"
        />
      </CardContent>
    </Card>
  );
}

function FigureCards({ cards, testId }: { cards: WorkbenchInfo["cards"]; testId: string }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid={testId}>
      {cards.map((c) => (
        <div key={c.key} data-testid={`workbench-card-${c.key}`}>
          <StatCard
            className="h-full"
            title={c.title}
            value={isMoneyCard(c.key) ? formatYuan(c.value) : c.value.toLocaleString("zh-CN")}
            hint={c.hint}
            icon={cardIcons[c.key] ?? <ChartColumn />}
          />
        </div>
      ))}
    </div>
  );
}

export default function WorkbenchPage(_props: PageProps) {
  const [days, setDays] = useState<number>(DEFAULT_DAYS);
  const { data, isPending, isError, isFetching, refetch } = useWorkbenchInfo(days);

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4" data-testid="workbench-page">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Greeting />
        <div className="flex items-center gap-2">
          <Tabs value={String(days)} onValueChange={(v) => setDays(Number(v))}>
            <TabsList aria-label="统计天数" data-testid="workbench-days">
              {DAY_OPTIONS.map((d) => (
                <TabsTrigger key={d} value={String(d)} data-testid={`workbench-days-${d}`}>
                  近{d}天
                </TabsTrigger>
              ))}
            </TabsList>
          </Tabs>
          <RefreshButton fetching={isFetching} onRefresh={refetch} data-testid="workbench-refresh" />
        </div>
      </div>

      {isPending ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {[0, 1, 2].map((i) => (
              <StatCard key={i} title={<Skeleton className="h-4 w-16" />} value={null} loading />
            ))}
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            {[0, 1].map((i) => (
              <Skeleton key={i} className="h-72 rounded-xl" />
            ))}
          </div>
        </>
      ) : isError && !data ? (
        <Card>
          <Empty
            text="统计数据加载失败"
            action={
              <Button variant="outline" onClick={() => void refetch()} data-testid="workbench-retry">
                重试
              </Button>
            }
          />
        </Card>
      ) : (
        <>
          {data.cards.some((c) => isOrderFigure(c.key)) ? (
            <div className="grid gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
              <div className="grid content-start gap-4 sm:grid-cols-3 xl:grid-cols-1" data-testid="workbench-order-cards">
                {data.cards
                  .filter((c) => isOrderFigure(c.key))
                  .map((c) => (
                    <div key={c.key} data-testid={`workbench-card-${c.key}`}>
                      <StatCard
                        className="h-full"
                        title={c.title}
                        value={c.key === "orders.today" ? c.value.toLocaleString("zh-CN") : moneyFormat(c.value)}
                        hint={c.hint}
                        icon={cardIcons[c.key]}
                      />
                    </div>
                  ))}
              </div>
              {data.trends.some((t) => isOrderFigure(t.key)) ? (
                <OrderTrendCard trends={data.trends.filter((t) => isOrderFigure(t.key))} />
              ) : null}
            </div>
          ) : null}
          <FigureCards cards={data.cards.filter((c) => !isOrderFigure(c.key))} testId="workbench-cards" />
          {data.trends.length ? (
            <div className="grid gap-4 lg:grid-cols-2">
              {data.trends
                .filter((t) => !isOrderFigure(t.key))
                .map((t) => (
                  <TrendCard key={t.key} trend={t} days={t.points.length} />
                ))}
            </div>
          ) : (
            <Card>
              <Empty text="暂无统计数据" />
            </Card>
          )}
        </>
      )}
    </div>
  );
}
