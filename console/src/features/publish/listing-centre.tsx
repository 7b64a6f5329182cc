// The listing centre (issue 16; /proudcts/publish-records/v2, 在线刊登): the shop's listings on Mercado Libre, local
// shops' (MeliStat) or global sellers' (MeliStatNew), in tabs by status with their counts, every filter in the URL, a
// dense table (virtualized from 100 rows a page) whose price and stock are edited in place, cross-border rows that
// open their other sites, and every batch action in a dialog that says how many listings it reaches. A batch answers
// a task at once; its progress shows above the table (live, polled while the stream is down) and the rows follow.
import { Download, RefreshCw, RotateCcw } from "lucide-react";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { ListingStatus, TaskType } from "#shared/contract/enums.ts";
import type { EditResult } from "#shared/contract/listing-edits.ts";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable, type DataTableSelection } from "#shared/ui/data-table.tsx";
import { DataTableViewOptions, type TableView } from "#shared/ui/data-table-view.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { listTable } from "../../components/list/list-table.ts";
import { StatusTabs, tabClass } from "../../components/list/list-tabs.tsx";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { ALL } from "../../components/list/url-params.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListSelection } from "../../components/list/use-list-selection.ts";
import type { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTableView } from "../../components/list/use-table-view.ts";
import { sortFilter } from "../../components/list/sort-filter.ts";
import { TaskProgressStrip, useTaskProgress } from "../../components/task/task-progress.tsx";
import {
  getListingsQueryOptions,
  listingKeys,
  usePullMarket,
  useBatchEdit,
  useListingGroups,
  useListings,
  useRemoveRecords,
  useSingleEdit,
  useSyncListing,
  type ListingKind,
} from "./api/listings.ts";
import type { ListingBatchAction, ListingTarget } from "./listing-batch-body.ts";
import { ListingBatchDialog } from "./listing-batch-dialog.tsx";
import { listingColumns, tableRowKey, type ListingTableRow } from "./listing-columns.tsx";
import { ListingLogsDrawer } from "./listing-logs-drawer.tsx";
import { MARGIN_FILTERS, marginColumn, RepriceDialog } from "./listing-margin.tsx";
import { useMarginDrift } from "./api/margin-drift.ts";
import {
  LISTING_PAGE_SIZES,
  LISTING_SORTS,
  LISTING_VIRTUALIZE_FROM,
  listingListSchema,
  marginFilterOf,
  toListingFilter,
  toListingQuery,
} from "./listing-search-params.ts";
import { listingStatusLabel, siteName } from "./publish-names.ts";

const DEFAULT_VIEW: TableView = { density: "compact" };
const TASK_LIST_PATH = "/task/list";

/** The status tabs, in a seller's order of interest; a status with no listing is left out (but for 在售). */
const STATUS_TABS = [
  ListingStatus.Active,
  ListingStatus.Paused,
  ListingStatus.UnderReview,
  ListingStatus.Refused,
  ListingStatus.Failed,
  ListingStatus.Skipped,
  ListingStatus.Pending,
  ListingStatus.Publishing,
  ListingStatus.Closed,
];

const batchActions: { action: ListingBatchAction; text: string }[] = [
  { action: "price", text: "改价" },
  { action: "meliPrice", text: "按规则定价" },
  { action: "stock", text: "改库存" },
  { action: "title", text: "改标题" },
  { action: "description", text: "改描述" },
  { action: "weight", text: "改重量" },
  { action: "image", text: "改图片" },
  { action: "up", text: "上架" },
  { action: "down", text: "下架" },
  { action: "sync", text: "同步" },
];

type StartedTask = { taskId: string; total: number; label: string; taskType: number };

/** A batch task started from this screen: its remark and progress, live, until closed. */
function TaskStrip({ task, onClose }: { task: StartedTask; onClose: () => void }) {
  const state = useTaskProgress(task.taskId, task.taskType);
  // The rows follow the events while the stream is live; when it is not, the task's end refreshes them.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (state.done) void queryClient.invalidateQueries({ queryKey: listingKeys.all });
  }, [state.done, queryClient]);
  return (
    <TaskProgressStrip
      state={state}
      label={task.label}
      pendingText={`共 ${task.total} 条，排队中…`}
      testId="listing-task"
      taskId={task.taskId}
      onClose={onClose}
      actions={
        <Link to={TASK_LIST_PATH} className="text-primary text-xs hover:underline">
          任务中心
        </Link>
      }
    />
  );
}

/** PullMarketStat: choose the shop group whose listings made elsewhere are imported. */
function PullDialog(p: {
  kind: ListingKind;
  groups: { accountGroupId: string; name: string }[];
  onClose: () => void;
  onStarted: (t: StartedTask) => void;
}) {
  const [group, setGroup] = useState(p.groups[0]?.accountGroupId ?? "");
  const pull = usePullMarket(p.kind);
  return (
    <Dialog open onOpenChange={(o) => !o && !pull.isPending && p.onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="listing-pull">
        <DialogHeader>
          <DialogTitle>导入店铺已有刊登</DialogTitle>
          <DialogDescription>读取店铺在美客多上的全部刊登，导入尚未记录的；SKU 与商品匹配的会关联到该商品。</DialogDescription>
        </DialogHeader>
        <Select value={group} onValueChange={setGroup}>
          <SelectTrigger aria-label="店铺" data-testid="listing-pull-shop">
            <SelectValue placeholder="选择店铺" />
          </SelectTrigger>
          <SelectContent>
            {p.groups.map((g) => (
              <SelectItem key={g.accountGroupId} value={g.accountGroupId}>
                {g.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <DialogFooter>
          <Button variant="outline" onClick={p.onClose} disabled={pull.isPending}>
            取消
          </Button>
          <Button
            loading={pull.isPending}
            disabled={!group}
            onClick={() =>
              pull.mutate(
                { accountGroupId: group },
                {
                  onSuccess: (t) => {
                    toast.success("已开始导入，进度见上方");
                    p.onStarted({ ...t, label: "导入店铺刊登", taskType: TaskType.SyncListings });
                    p.onClose();
                  },
                },
              )
            }
            data-testid="listing-pull-submit"
          >
            开始导入
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** A one-listing title change (UpdateMarketTitle). */
function TitleDialog(p: { row: ListingTableRow; onSave: (title: string) => Promise<void>; onClose: () => void }) {
  const [title, setTitle] = useState(p.row.title ?? "");
  const [saving, setSaving] = useState(false);
  return (
    <Dialog open onOpenChange={(o) => !o && !saving && p.onClose()}>
      <DialogContent className="sm:max-w-lg" data-testid="listing-title-dialog">
        <DialogHeader>
          <DialogTitle>修改标题</DialogTitle>
          <DialogDescription>{p.row.itemId}：已有销量的刊登，美客多可能拒绝修改标题。</DialogDescription>
        </DialogHeader>
        <Input value={title} maxLength={255} onChange={(e) => setTitle(e.target.value)} autoFocus data-testid="listing-title-input" />
        <DialogFooter>
          <Button variant="outline" onClick={p.onClose} disabled={saving}>
            取消
          </Button>
          <Button
            loading={saving}
            disabled={!title.trim()}
            onClick={async () => {
              setSaving(true);
              try {
                await p.onSave(title.trim());
                p.onClose();
              } finally {
                setSaving(false);
              }
            }}
            data-testid="listing-title-submit"
          >
            保存
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** What a single edit did, said to the seller. */
function reportEdit(what: string, r: EditResult) {
  if (r.outcome === "done") toast.success(`${what}：已在美客多生效`);
  else if (r.outcome === "skipped") toast.info(`${what}：${r.reason ?? "与当前值相同，未修改"}`);
  else toast.error(`${what}：美客多拒绝了修改：${r.reason ?? ""}`);
}

export function ListingCentre({ listState }: { listState: ReturnType<typeof useListUrlState<typeof listingListSchema>> }) {
  const { state, filtered } = listState;
  const kind = state.kind;
  const filter = toListingFilter(state);
  // With a margin filter (issue 32) the page is GetMarginDrift's (it computes the margins), its rows read by item id.
  const margin = marginFilterOf(state);
  const query = toListingQuery(state);
  const marginPage = useMarginDrift(kind, { ...query, margin }, !!margin);
  const marginItems = (marginPage.data?.items ?? []).map((d) => d.itemId).filter((x): x is string => !!x);
  const pageList = useListings(
    kind,
    margin
      ? { ...filter, itemIds: marginItems.length ? marginItems : ["-"], skipCount: 0, maxResultCount: state.size, sorting: state.sort }
      : query,
    !margin || !!marginPage.data,
  );
  const list =
    margin && pageList.data && marginPage.data
      ? {
          ...pageList,
          data: { ...pageList.data, totalCount: marginPage.data.totalCount, totalCountCapped: marginPage.data.totalCountCapped },
        }
      : pageList;
  const groups = useListingGroups(kind, filter);
  const table = listTable(list, listState, LISTING_PAGE_SIZES);
  const { rows } = table;
  const { total } = table.pagination;
  const capped = list.data?.totalCountCapped ?? false;
  const [view, setView] = useTableView("listings", DEFAULT_VIEW);
  const selection = useListSelection(listState.filterKey);
  useKeepPageInRange(state, settledTotal(list, capped), listState.setPage);

  // Rows seen on any page, so a price change by ratio knows the prices of rows ticked on other pages.
  const seen = useRef(new Map<string, ListingTableRow>());
  for (const r of rows) seen.current.set(r.id, r);

  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const openRows = rows.filter((r) => expanded.has(r.id) && r.cbtId);
  const siteQueries = useQueries({
    queries: openRows.map((r) => getListingsQueryOptions("cbt", { cbtId: r.cbtId, maxResultCount: 10, sorting: "creationTime asc" })),
  });
  const tableRows: ListingTableRow[] = rows.flatMap((r) => {
    const i = openRows.indexOf(r);
    if (i < 0) return [r];
    const sites = (siteQueries[i]?.data?.items ?? []).filter((x) => x.id !== r.id).map((x) => ({ ...x, parentId: r.id }));
    return [r, ...sites];
  });

  // The margin column: the page's listings' drift (by the publish formula, today's rates, fees and shop rule).
  const pageIds = rows.map((r) => r.id);
  const drift = useMarginDrift(kind, { ids: pageIds, maxResultCount: Math.max(1, pageIds.length) }, pageIds.length > 0);
  const driftById = new Map((drift.data?.items ?? []).map((d) => [d.id, d]));
  const [repricing, setRepricing] = useState(false);

  const [action, setAction] = useState<ListingBatchAction | null>(null);
  const [tasks, setTasks] = useState<StartedTask[]>([]);
  const [logsOf, setLogsOf] = useState<ListingTableRow | null>(null);
  const [titleOf, setTitleOf] = useState<ListingTableRow | null>(null);
  const [pulling, setPulling] = useState(false);
  const single = useSingleEdit(kind);
  const sync = useSyncListing(kind);
  const remove = useRemoveRecords(kind);
  const stockBatch = useBatchEdit(kind);

  const started = (t: StartedTask) => setTasks((ts) => [t, ...ts.filter((x) => x.taskId !== t.taskId)].slice(0, 3));
  const target: ListingTarget = selection.allMatching
    ? { kind: "filter", filter, count: total, capped, rows }
    : { kind: "ids", ids: [...selection.selected], rows: [...selection.selected].map((id) => seen.current.get(id)!).filter(Boolean) };
  const hasSelection = selection.allMatching || selection.selected.size > 0;

  async function onRemoveRecords(ids: string[]) {
    const ok = await confirm({
      title: `仅移除 ${ids.length} 条刊登记录？`,
      description: "只删除本系统中的记录，美客多上的商品不会下架或删除，仍可通过“导入店铺刊登”重新导入。",
      tone: "danger",
      confirmText: "移除记录",
    });
    if (!ok) return;
    remove.mutate(ids, {
      onSuccess: (r) => {
        toast.success(`已移除 ${r.removed} 条记录`);
        selection.clear();
      },
    });
  }

  const columns = listingColumns({
    density: view.density ?? "compact",
    isCbt: kind === "cbt",
    expanded,
    onToggleSites: (r) =>
      setExpanded((s) => {
        const next = new Set(s);
        if (!next.delete(r.id)) next.add(r.id);
        return next;
      }),
    onSavePrice: async (r, price) => reportEdit("改价", await single.mutateAsync({ edit: "price", body: { id: r.id, price } })),
    onSaveStock: async (r, stock) => {
      const t = await stockBatch.mutateAsync({ edit: "stock", body: { ids: [r.id], stock } });
      started({ ...t, label: `改库存 ${r.itemId ?? ""}`, taskType: TaskType.BatchUpdateListings });
    },
    onSync: (r) => sync.mutate({ id: r.id }, { onSuccess: () => toast.success(`已从美客多同步 ${r.itemId}`) }),
    onUpDown: (r, status) =>
      single.mutate(
        { edit: "status", body: { id: r.id, status } },
        { onSuccess: (res) => reportEdit(status === ListingStatus.Active ? "上架" : "下架", res) },
      ),
    onEditTitle: setTitleOf,
    onLogs: setLogsOf,
    onDelete: async (r) => {
      const ok = await confirm({
        title: "在美客多删除这条刊登？",
        description: `${r.itemId}：先在美客多关闭再删除，删除后无法恢复；本系统保留记录（状态为已关闭）。`,
        tone: "danger",
        confirmText: "删除",
      });
      if (ok) single.mutate({ edit: "delete", body: { id: r.id } }, { onSuccess: (res) => reportEdit("删除", res) });
    },
    onRemoveRecord: (r) => void onRemoveRecords([r.id]),
  });
  const priceAt = columns.findIndex((c) => c.id === "price");
  columns.splice(
    priceAt + 1,
    0,
    marginColumn((id) => driftById.get(id)),
  );

  const groupCounts = groups.data;
  const statusCount = (s: number) => groupCounts?.statuses.find((x) => x.status === s);
  const shopOptions = (groupCounts?.accountGroups ?? []).map((g) => ({
    value: g.accountGroupId,
    label: `${g.name}（${g.count}${g.capped ? "+" : ""}）`,
  }));

  const filters: ListFilters = [
    { kind: "search", key: "q", label: "搜索刊登标题", maxLength: 200, className: "sm:w-60", testId: "listings-search" },
    { kind: "facet", key: "shop", label: "店铺", all: "全部店铺", options: shopOptions, className: "w-48", testId: "listings-filter-shop" },
    {
      kind: "facet",
      key: "site",
      label: "站点",
      all: "全部站点",
      options: (groupCounts?.sites ?? [])
        .filter((s) => s.count > 0 || String(s.site) === state.site)
        .map((s) => ({ value: s.site, label: `${siteName(s.site)}（${s.count}${s.capped ? "+" : ""}）` })),
      className: "w-40",
      testId: "listings-filter-site",
    },
    sortFilter(LISTING_SORTS, "listings-sort"),
    { kind: "date-range", from: "from", to: "to", testId: "listings-date" },
  ];
  const text = (key: string, label: string, className: string, maxLength: number, testId: string) =>
    ({ kind: "search", key, label, plain: true, maxLength, className, testId }) as const;
  const yesNo = (key: string, label: string, yes: string, no: string, testId: string) =>
    ({
      kind: "facet",
      key,
      label,
      all: `${label}：全部`,
      options: [
        { value: "yes", label: yes },
        { value: "no", label: no },
      ],
      testId,
    }) as const;
  const more: ListFilters = [
    text("items", "商品ID（MLM…），多个用空格或逗号分隔", "sm:w-72", 20_000, "listings-filter-items"),
    text("sku", "SKU（精确）", "sm:w-36", 128, "listings-filter-sku"),
    kind === "cbt" ? text("cbt", "全球商品ID（CBT…）", "sm:w-44", 40, "listings-filter-cbt") : null,
    text("reason", "失败原因包含", "sm:w-44", 200, "listings-filter-reason"),
    {
      kind: "number-range",
      label: "价格范围",
      min: { key: "pmin", placeholder: "最低价", testId: "listings-filter-minPrice" },
      max: { key: "pmax", placeholder: "最高价", testId: "listings-filter-maxPrice" },
      maxLength: 16,
      className: "w-24 sm:w-24",
    },
    {
      kind: "number-range",
      label: "库存范围",
      min: { key: "smin", placeholder: "最少库存", testId: "listings-filter-minStock" },
      max: { key: "smax", placeholder: "最多库存", testId: "listings-filter-maxStock" },
      maxLength: 9,
      className: "w-24 sm:w-24",
    },
    yesNo("sold", "销量", "有销量", "无销量", "listings-filter-sold"),
    yesNo("viewed", "浏览", "有浏览", "无浏览", "listings-filter-viewed"),
    yesNo("warn", "警告", "有警告", "无警告", "listings-filter-warning"),
    {
      kind: "facet",
      key: "margin",
      label: "利润率",
      all: "利润率：全部",
      options: Object.entries(MARGIN_FILTERS).map(([value, label]) => ({ value, label })),
      testId: "listings-filter-margin",
    },
  ];

  const virtualized = state.size >= LISTING_VIRTUALIZE_FROM;
  // A site opened under a cross-border row is ticked as its own listing (its key is parent/listing).
  const pageSelection = selection.table(rows.map((r) => r.id));
  const tableSelection: DataTableSelection = {
    selected: new Set([
      ...pageSelection.selected,
      ...tableRows.filter((r) => r.parentId && pageSelection.selected.has(r.id)).map(tableRowKey),
    ]),
    onChange: (next) => pageSelection.onChange(new Set([...next].map((k) => k.split("/").pop()!))),
  };

  return (
    <div className="flex flex-col gap-3" data-testid="listing-centre" data-kind={kind}>
      <div className="flex flex-wrap items-center gap-2">
        <div className="bg-muted/50 flex rounded-md p-0.5" role="tablist" aria-label="店铺类型">
          {(["local", "cbt"] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              aria-selected={kind === k}
              className={tabClass(kind === k)}
              onClick={() => listState.update({ kind: k, shop: ALL, cbt: "" })}
              data-testid={`listings-kind-${k}`}
            >
              {k === "local" ? "本地店铺" : "全球卖家（CBT）"}
            </button>
          ))}
        </div>
        <div className="ml-auto flex flex-wrap gap-2">
          <RefreshButton fetching={list.isFetching} onRefresh={() => void list.refetch()} data-testid="listings-refresh" />
          <Button
            variant="outline"
            onClick={() => setPulling(true)}
            disabled={!groupCounts?.accountGroups.length}
            data-testid="listings-pull"
          >
            <Download />
            导入店铺刊登
          </Button>
        </div>
      </div>
      <StatusTabs
        counts={groupCounts}
        // 在售 always, another status while it has listings or is the one chosen.
        statuses={STATUS_TABS.filter((s) => s === ListingStatus.Active || (statusCount(s)?.count ?? 0) > 0 || String(s) === state.status)}
        labelOf={listingStatusLabel}
        value={state.status}
        onChange={(status) => listState.update({ status })}
        label="刊登状态"
        testId="listings"
      />
      <ListToolbar
        filters={filters}
        more={{ filters: more, buttonTestId: "listings-more-filters", rowTestId: "listings-more-filter-row" }}
        {...listState.toolbar}
        resetTestId="listings-reset"
        testId="listings-filters"
      />
      {tasks.map((t) => (
        <TaskStrip key={t.taskId} task={t} onClose={() => setTasks((ts) => ts.filter((x) => x.taskId !== t.taskId))} />
      ))}
      <div
        className={cn(
          "flex flex-wrap items-center gap-2 rounded-md border px-3 py-2 text-sm",
          hasSelection ? "bg-primary/5 border-primary/20" : "bg-muted/30 text-muted-foreground",
        )}
        data-testid="listings-bulk-bar"
        data-count={selection.allMatching ? "all" : selection.selected.size}
      >
        <span data-testid="listings-total" data-total={total} data-capped={capped}>
          {selection.allMatching ? (
            <>
              已选择全部符合条件的{" "}
              <b className="text-foreground tabular-nums">
                {total.toLocaleString("zh-CN")}
                {capped ? "+" : ""}
              </b>{" "}
              条
            </>
          ) : hasSelection ? (
            <>
              已选 <b className="text-foreground tabular-nums">{selection.selected.size}</b> 条
            </>
          ) : (
            <>
              共{" "}
              <b className="text-foreground tabular-nums">
                {total.toLocaleString("zh-CN")}
                {capped ? "+" : ""}
              </b>{" "}
              条刊登，勾选后可批量操作
            </>
          )}
        </span>
        {!selection.allMatching && total > 0 ? (
          <Button
            variant="link"
            size="sm"
            className="h-7 px-1"
            onClick={selection.selectAllMatching}
            data-testid="listings-select-all-matching"
          >
            选择全部符合条件的刊登
          </Button>
        ) : null}
        {hasSelection ? (
          <Button variant="ghost" size="sm" className="h-7 px-1.5" onClick={selection.clear}>
            <RotateCcw className="size-3.5" />
            清除选择
          </Button>
        ) : null}
        <div className="ml-auto flex flex-wrap gap-1">
          {batchActions.map((b) => (
            <Button
              key={b.action}
              variant="outline"
              size="sm"
              className="h-7"
              disabled={!hasSelection}
              onClick={() => setAction(b.action)}
              data-testid={`listings-bulk-${b.action}`}
            >
              {b.action === "sync" ? <RefreshCw className="size-3.5" /> : null}
              {b.text}
            </Button>
          ))}
          <Button
            variant="outline"
            size="sm"
            className="h-7"
            disabled={!hasSelection}
            onClick={() => setRepricing(true)}
            data-testid="listings-bulk-reprice"
          >
            重新定价
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="text-destructive h-7"
            disabled={selection.allMatching || selection.selected.size === 0}
            onClick={() => void onRemoveRecords([...selection.selected])}
            data-testid="listings-bulk-remove"
          >
            移除记录
          </Button>
        </div>
        <DataTableViewOptions columns={columns} view={view} onChange={setView} defaults={DEFAULT_VIEW} testId="listings-view" />
      </div>
      <DataTable
        aria-label="在线刊登"
        columns={columns}
        {...table}
        rows={tableRows}
        rowKey={tableRowKey}
        emptyText={filtered ? "没有符合条件的刊登" : "还没有刊登：在商品列表勾选商品后点击“刊登”，或导入店铺已有的刊登"}
        selection={tableSelection}
        virtualized={virtualized}
        view={view}
        height="max(420px, calc(100dvh - 420px))"
        className={cn(
          virtualized ? "[&_[role=grid]>div]:min-w-[1100px]" : "[&_table]:min-w-[1100px] [&_table]:table-fixed",
          capped && "[&_[data-slot=pagination-total]]:hidden",
        )}
      />
      {action ? (
        <ListingBatchDialog
          kind={kind}
          action={action}
          target={target}
          onClose={() => setAction(null)}
          onStarted={(t) => started({ ...t, taskType: action === "sync" ? TaskType.SyncListings : TaskType.BatchUpdateListings })}
        />
      ) : null}
      {repricing ? (
        <RepriceDialog
          kind={kind}
          body={selection.allMatching ? { filter: { ...filter, margin } } : { ids: [...selection.selected] }}
          onClose={() => setRepricing(false)}
          onStarted={(t) => started({ ...t, taskType: TaskType.BatchUpdateListings })}
        />
      ) : null}
      {pulling ? (
        <PullDialog kind={kind} groups={groupCounts?.accountGroups ?? []} onClose={() => setPulling(false)} onStarted={started} />
      ) : null}
      {titleOf ? (
        <TitleDialog
          row={titleOf}
          onClose={() => setTitleOf(null)}
          onSave={async (title) => reportEdit("改标题", await single.mutateAsync({ edit: "title", body: { id: titleOf.id, title } }))}
        />
      ) : null}
      <ListingLogsDrawer listing={logsOf} onClose={() => setLogsOf(null)} />
    </div>
  );
}
