// /order/list (issue 18; the shop centre's 订单列表, not in spec §2's table: see docs/decisions.md): the orders of the
// seller's shops, in tabs by status with their counts (GetMeliOrderGroupInfo), every filter in the URL, a dense table
// with the deadline to ship in the seller's time (overdue in red), and an order's details in a drawer (lines, address,
// profit breakdown, invoice, label). Orders arrive live: the server announces a new or changed order on the event
// stream and the list refetches (polled while the stream is down); a row that was not there before is marked 新.
// 拉取订单 runs FetchOrders as a task whose progress shows above the table.
import { Download, ShoppingCart } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { OrderRow } from "#shared/contract/orders.ts";
import { OrderStatus, TaskType } from "#shared/contract/enums.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { cn } from "#shared/ui/cn.ts";
import { DataTable } from "#shared/ui/data-table.tsx";
import { DataTableViewOptions, type TableView } from "#shared/ui/data-table-view.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { listTable } from "../../components/list/list-table.ts";
import { StatusTabs } from "../../components/list/list-tabs.tsx";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { ownerFilter, useOwnerFilterOptions } from "../../components/list/owner-filter.ts";
import { ALL } from "../../components/list/url-params.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useTableView } from "../../components/list/use-table-view.ts";
import { sortFilter } from "../../components/list/sort-filter.ts";
import { TaskProgressStrip, useTaskProgress } from "../../components/task/task-progress.tsx";
import { useProgressLive } from "../../lib/live-progress.ts";
import { downloadOrderLabel, ORDER_POLL_MS, useOrderGroups, useOrders, useRefreshOrder } from "./api/orders.ts";
import { orderColumns } from "./order-columns.tsx";
import { OrderDetailDrawer } from "./order-detail-drawer.tsx";
import { FetchOrdersDialog } from "./fetch-orders-dialog.tsx";
import { PrintLabelsButton } from "./print-labels-button.tsx";
import { PurchaseListSheet } from "./purchase-list-sheet.tsx";
import { ORDER_STATUS_TABS, orderStatusLabel, siteName } from "./order-names.ts";
import { ORDER_PAGE_SIZES, ORDER_SORTS, orderListSchema, toOrderFilter, toOrderQuery } from "./order-search-params.ts";

const DEFAULT_VIEW: TableView = { density: "compact" };
/** A row that arrived while the screen was open is marked 新 this long. */
const FRESH_MS = 5 * 60_000;

/** The pull started from this screen: its remark and progress, live, until closed. */
function FetchTaskStrip({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const state = useTaskProgress(taskId, TaskType.SyncOrders);
  return <TaskProgressStrip state={state} label="拉取订单" pendingText="排队中…" testId="orders-task" taskId={taskId} onClose={onClose} />;
}

/** The clock deadlines are read against, moved on every minute. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** Orders first seen after the list's first answer (they arrived while the screen was open), with when. */
function useFreshOrders(rows: OrderRow[] | undefined, now: number) {
  const seen = useRef<Set<string> | null>(null);
  const [fresh, setFresh] = useState<Map<string, number>>(new Map());
  useEffect(() => {
    if (!rows) return;
    if (seen.current === null) {
      seen.current = new Set(rows.map((r) => r.id));
      return;
    }
    const arrived = rows.filter((r) => !seen.current!.has(r.id));
    for (const r of rows) seen.current.add(r.id);
    if (!arrived.length) return;
    toast.info(`收到 ${arrived.length} 个新订单`);
    setFresh((m) => new Map([...m, ...arrived.map((r) => [r.id, Date.now()] as const)]));
  }, [rows]);
  return (id: string) => (fresh.get(id) ?? 0) > now - FRESH_MS;
}

export default function OrderListPage({ route }: PageProps) {
  const listState = useListUrlState(orderListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;
  const filter = toOrderFilter(state);
  const list = useOrders(toOrderQuery(state));
  const groups = useOrderGroups(filter);
  const table = listTable(list, listState, ORDER_PAGE_SIZES);
  const { rows } = table;
  const { total } = table.pagination;
  const capped = list.data?.totalCountCapped ?? false;
  useKeepPageInRange(state, settledTotal(list, capped), listState.setPage);
  const [view, setView] = useTableView("orders", DEFAULT_VIEW);
  const live = useProgressLive();
  const now = useMinuteClock();
  const isFresh = useFreshOrders(list.isPlaceholderData ? undefined : list.data?.items, now);
  const owners = useOwnerFilterOptions();

  const [openId, setOpenId] = useState<string | null>(null);
  const opened = rows.find((r) => r.id === openId) ?? null;
  const [busy, setBusy] = useState<string | null>(null);
  const [fetching, setFetching] = useState(false);
  const [purchasing, setPurchasing] = useState(false);
  const [task, setTask] = useState<string | null>(null);
  const refresh = useRefreshOrder();

  async function onLabel(o: OrderRow) {
    setBusy(o.id);
    try {
      const name = await downloadOrderLabel(o);
      toast.success(`面单已下载：${name}`);
    } catch (e) {
      toast.error(e instanceof Error ? e.message : "面单下载失败");
    } finally {
      setBusy(null);
    }
  }
  function onRefresh(o: OrderRow) {
    setBusy(o.id);
    refresh.mutate(o.id, {
      onSuccess: () => toast.success(`已从美客多同步订单 ${o.orderNo}`),
      onSettled: () => setBusy(null),
    });
  }

  const packSizes = new Map<string, number>();
  for (const r of rows) if (r.packId) packSizes.set(r.packId, (packSizes.get(r.packId) ?? 0) + 1);
  const columns = orderColumns({
    density: view.density ?? "compact",
    now,
    packSizes,
    busy,
    isFresh,
    onOpen: (r) => setOpenId(r.id),
    onPack: (pack) => listState.update({ pack, status: ALL }),
    onLabel: (r) => void onLabel(r),
    onRefresh,
  });
  const g = groups.data;
  const countText = (c: { count: number; capped: boolean } | null | undefined) =>
    c ? `${c.count.toLocaleString("zh-CN")}${c.capped ? "+" : ""}` : "";

  const filters: ListFilters = [
    {
      kind: "search",
      key: "no",
      label: "订单号",
      placeholder: "订单号（数字）",
      maxLength: 24,
      className: "sm:w-48",
      testId: "orders-search",
    },
    {
      kind: "facet",
      key: "shop",
      label: "店铺",
      all: "全部店铺",
      options: (g?.accountGroups ?? []).map((x) => ({ value: x.accountGroupId, label: `${x.name}（${countText(x)}）` })),
      className: "w-48",
      testId: "orders-filter-shop",
    },
    {
      kind: "facet",
      key: "site",
      label: "站点",
      all: "全部站点",
      options: (g?.sites ?? [])
        .filter((s) => s.count > 0 || String(s.site) === state.site)
        .map((s) => ({ value: s.site, label: `${siteName(s.site)}（${countText(s)}）` })),
      className: "w-40",
      testId: "orders-filter-site",
    },
    ownerFilter(owners, { label: "业务员", all: "全部业务员", testId: "orders-filter-user" }),
    sortFilter(ORDER_SORTS, "orders-sort"),
    { kind: "date-range", from: "from", to: "to", testId: "orders-date" },
  ];
  return (
    <Card data-testid="order-list-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            各店铺在美客多上的订单：按状态处理，注意发货截止时间（按本机时间显示，超时标红），查看利润明细，下载面单和发票。新订单实时到达。
          </CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <span className="text-muted-foreground flex items-center gap-1.5 text-xs" data-testid="orders-live" data-live={live}>
            <span className={cn("size-2 rounded-full", live ? "bg-success" : "bg-muted-foreground/40")} />
            {live ? "实时更新" : `每 ${ORDER_POLL_MS / 1000} 秒自动刷新`}
          </span>
          <RefreshButton fetching={list.isFetching} onRefresh={() => void list.refetch()} data-testid="orders-refresh" />
          <Button variant="outline" onClick={() => setPurchasing(true)} data-testid="orders-purchase-list">
            <ShoppingCart />
            采购单
          </Button>
          <Button variant="outline" onClick={() => setFetching(true)} data-testid="orders-fetch">
            <Download />
            拉取订单
          </Button>
          {/* The filter's ready-to-ship orders, whichever status tab is open (the tab counts them without it). */}
          <PrintLabelsButton
            filter={{ ...filter, OrderStatus: undefined }}
            ready={g ? (g.statuses.find((x) => x.status === OrderStatus.ReadyToShip)?.count ?? 0) : null}
          />
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <StatusTabs
          counts={g}
          statuses={ORDER_STATUS_TABS}
          labelOf={orderStatusLabel}
          value={state.status}
          onChange={(status) => listState.update({ status })}
          label="订单状态"
          testId="orders"
        />
        <ListToolbar filters={filters} {...listState.toolbar} resetTestId="orders-reset" testId="orders-filters">
          <DataTableViewOptions columns={columns} view={view} onChange={setView} defaults={DEFAULT_VIEW} testId="orders-view" />
        </ListToolbar>
        {state.pack ? (
          <div
            className="bg-primary/5 border-primary/20 flex items-center gap-2 rounded-md border px-3 py-2 text-sm"
            data-testid="orders-pack"
          >
            合并订单 <span className="font-mono">{state.pack}</span>：同一买家一起购买、一起发货的订单
            <Button variant="link" size="sm" className="ml-auto h-7" onClick={() => listState.update({ pack: "" })}>
              查看全部订单
            </Button>
          </div>
        ) : null}
        {task ? <FetchTaskStrip taskId={task} onClose={() => setTask(null)} /> : null}
        <div className="text-muted-foreground text-sm" data-testid="orders-total" data-total={total} data-capped={capped}>
          共{" "}
          <b className="text-foreground tabular-nums">
            {total.toLocaleString("zh-CN")}
            {capped ? "+" : ""}
          </b>{" "}
          个订单
        </div>
        <DataTable
          aria-label="订单列表"
          columns={columns}
          {...table}
          rowKey={(r) => r.id}
          emptyText={filtered ? "没有符合条件的订单" : "还没有订单：店铺开启订单接收后，新订单会自动到达；也可以点击“拉取订单”"}
          view={view}
          className={cn("[&_table]:min-w-[1120px] [&_table]:table-fixed", capped && "[&_[data-slot=pagination-total]]:hidden")}
        />
      </CardContent>
      {/* The filter's orders, ready to ship unless a status tab other than 全部 is open. */}
      {purchasing ? <PurchaseListSheet filter={filter} onClose={() => setPurchasing(false)} /> : null}
      {fetching ? <FetchOrdersDialog groups={g?.accountGroups ?? []} onClose={() => setFetching(false)} onStarted={setTask} /> : null}
      <OrderDetailDrawer
        order={opened}
        now={now}
        busy={!!opened && busy === opened.id}
        onClose={() => setOpenId(null)}
        onLabel={(o) => void onLabel(o)}
        onRefresh={onRefresh}
      />
    </Card>
  );
}
