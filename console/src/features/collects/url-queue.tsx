// 采集队列 (AquiredUrl): the URLs pasted in or imported from files, with their counts by status (GetStatics) and the last 7 days
// (GetUrlSatatics) as cards; filtered by status and URL text, paged on the server (both in the page's URL); 重新采集 (ReCrwalUrls: chosen
// finished URLs, or every failed one) and 删除 (Delete). The list follows itself while URLs are waiting or running.
import { CircleCheck, CircleX, Clock, Link2, Loader, RotateCcw, Trash2 } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { AquiredUrl } from "#shared/contract/collect.ts";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { StatCard } from "#shared/ui/stat-card.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListSelection } from "../../components/list/use-list-selection.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useUserStore } from "../../stores/user.ts";
import { useDeleteUrls, useReCrawlUrls } from "./api/edit-url-queue.ts";
import { urlKeys, useQueuedUrls, useUrlCounts, useUrlsPerDay } from "./api/get-url-queue.ts";
import { urlStatusOptions } from "./labels.ts";
import { toUrlQueueQuery, URL_QUEUE_PAGE_SIZES, urlQueueSchema } from "./search-params.ts";
import { isFinishedUrl, urlQueueColumns } from "./url-queue-columns.tsx";

const DAILY_DAYS = 7;

const filters: ListFilters = [
  { kind: "search", key: "q", label: "搜索链接", maxLength: 200, className: "sm:w-72", testId: "collect-urls-search" },
  {
    kind: "facet",
    key: "status",
    label: "状态",
    all: "全部状态",
    options: urlStatusOptions,
    className: "w-32",
    testId: "collect-urls-status-filter",
  },
];

/** The queue of the page at `path` (a cached tab: its filters stay its own). */
export function UrlQueue({ path }: { path: string }) {
  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const listState = useListUrlState(urlQueueSchema, useTabSearchParams(path));
  const { state, filtered } = listState;
  const list = useQueuedUrls(toUrlQueueQuery(state));
  const statics = useUrlCounts({});
  const daily = useUrlsPerDay(DAILY_DAYS);
  const table = listTable(list, listState, URL_QUEUE_PAGE_SIZES);
  const { rows } = table;
  const { total } = table.pagination;
  const reCrawl = useReCrawlUrls();
  const remove = useDeleteUrls();

  // A new filter starts at the first page (the list state) with nothing chosen.
  const selection = useListSelection(listState.filterKey);
  const { selected, setSelected } = selection;
  useKeepPageInRange(state, settledTotal(list), listState.setPage);

  const s = statics.data;
  // The per-day figures change as URLs finish: fetch them again whenever the counts do.
  const queryClient = useQueryClient();
  const countsKey = s ? `${s.total}/${s.succeeded}/${s.failed}` : "";
  const firstCounts = useRef(countsKey);
  useEffect(() => {
    if (!countsKey || countsKey === firstCounts.current) return;
    firstCounts.current = countsKey;
    void queryClient.invalidateQueries({ queryKey: urlKeys.daily(DAILY_DAYS) });
  }, [countsKey, queryClient]);
  const week = daily.data ?? [];
  const weekTotal = week.reduce((sum, d) => sum + d.total, 0);
  const weekOk = week.reduce((sum, d) => sum + d.succeeded, 0);
  const weekFailed = week.reduce((sum, d) => sum + d.failed, 0);

  function refresh() {
    void list.refetch();
    void statics.refetch();
    void daily.refetch();
  }

  function reCrawlIds(ids: string[] | null, what: string) {
    reCrawl.mutate(ids, {
      onSuccess: ({ count }) => {
        if (count) toast.success(`已将 ${count} 个${what}重新加入采集队列`);
        else toast.info("没有可以重新采集的链接（只有已完成的链接可以重新采集）");
        setSelected(new Set());
      },
    });
  }

  async function onDelete(ids: string[]) {
    const ok = await confirm({
      title: ids.length === 1 ? "确认删除该链接吗？" : `确认删除选中的 ${ids.length} 个链接吗？`,
      description: "只从采集队列中删除链接，已采集到的商品不受影响。",
      tone: "danger",
      confirmText: "删除",
    });
    if (!ok) return;
    remove.mutate(ids, {
      onSuccess: ({ count }) => {
        toast.success(`已删除 ${count} 个链接`);
        setSelected((prev) => {
          const next = new Set(prev);
          for (const id of ids) next.delete(id);
          return next;
        });
      },
    });
  }

  const columns = urlQueueColumns({
    onReCrawl: (r: AquiredUrl) => reCrawlIds([r.id], "链接"),
    onDelete: (r: AquiredUrl) => void onDelete([r.id]),
    showOwner: isMainAccount,
  });
  const chosenFinished = rows.filter((r) => selected.has(r.id) && isFinishedUrl(r)).length;

  return (
    <div className="flex flex-col gap-4" data-testid="collect-url-queue">
      <div className="grid gap-3 sm:grid-cols-3 xl:grid-cols-6" data-testid="collect-url-stats">
        <StatCard title="全部链接" value={s?.total ?? 0} icon={<Link2 />} loading={statics.isPending} />
        <StatCard title="等待中" value={s?.pending ?? 0} icon={<Clock />} loading={statics.isPending} />
        <StatCard title="采集中" value={s?.running ?? 0} icon={<Loader />} loading={statics.isPending} />
        <StatCard title="成功" value={s?.succeeded ?? 0} icon={<CircleCheck />} loading={statics.isPending} />
        <StatCard title="失败" value={s?.failed ?? 0} icon={<CircleX />} loading={statics.isPending} />
        <StatCard
          title={`近 ${DAILY_DAYS} 天新增`}
          value={weekTotal}
          hint={`成功 ${weekOk} · 失败 ${weekFailed}`}
          icon={<Link2 />}
          loading={daily.isPending}
        />
      </div>

      <ListToolbar filters={filters} state={state} onChange={listState.update}>
        <RefreshButton fetching={list.isFetching} onRefresh={refresh} data-testid="collect-urls-refresh" />
        <div className="ml-auto flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={!chosenFinished || reCrawl.isPending}
            onClick={() => reCrawlIds([...selected], "链接")}
            data-testid="collect-urls-recrawl-selected"
          >
            <RotateCcw />
            重新采集选中{chosenFinished ? `（${chosenFinished}）` : ""}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={!s?.failed || reCrawl.isPending}
            onClick={() => reCrawlIds(null, "失败的链接")}
            data-testid="collect-urls-recrawl-failed"
          >
            <RotateCcw />
            重新采集全部失败{s?.failed ? `（${s.failed}）` : ""}
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:text-destructive hover:bg-destructive/10"
            disabled={!selected.size || remove.isPending}
            onClick={() => void onDelete([...selected])}
            data-testid="collect-urls-delete-selected"
          >
            <Trash2 />
            删除选中{selected.size ? `（${selected.size}）` : ""}
          </Button>
        </div>
      </ListToolbar>

      <DataTable
        aria-label="采集队列"
        columns={columns}
        {...table}
        rowKey={(r) => r.id}
        emptyText={filtered ? "没有符合条件的链接" : "队列为空：粘贴链接或导入链接文件后，链接会在这里排队采集"}
        selection={selection.table(rows.map((r) => r.id))}
        className="[&_table]:min-w-[1000px] [&_table]:table-fixed"
      />
    </div>
  );
}
