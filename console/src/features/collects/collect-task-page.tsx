// /collects/task (spec §2, cached): collection task monitoring. The tasks filtered by the spec §3 task filter (status,
// URL/title search, source item id, dates, owner for main accounts; kept in the URL), paged on the server, with their
// status and the crawler's message in Chinese; the page follows itself every few seconds while a task on it is still
// waiting or running; finished tasks can be run again (ReCrawlTasks), one by one or the chosen ones.
import { useQueryClient } from "@tanstack/react-query";
import { Plus, RotateCcw } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import type { CollectTask } from "@shared/contract/collect.ts";
import { TaskStatus } from "@shared/contract/enums.ts";
import { Button } from "@shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@shared/ui/card.tsx";
import { DataTable, DataTableToolbar } from "@shared/ui/data-table.tsx";
import { RefreshButton } from "@shared/ui/refresh-button.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@shared/ui/select.tsx";
import { Spinner } from "@shared/ui/spinner.tsx";
import { toast } from "@shared/ui/toast.tsx";
import type { PageProps } from "../../app/pages.tsx";
import { useUserStore } from "../../stores/user.ts";
import { collectKeys, POLL_MS, useCollectTasks, useReCrawlTasks } from "./api.ts";
import { DateRangeFilter } from "./date-range-filter.tsx";
import { isUnfinished, taskStatusOptions } from "./labels.ts";
import { SearchInput } from "@shared/ui/search-input.tsx";
import {
  TASK_PAGE_SIZES,
  hasTaskFilter,
  readTaskListState,
  toTaskQuery,
  updateState,
  writeTaskListState,
  type TaskListState,
} from "./search-params.ts";
import { canRetry, taskColumns } from "./task-columns.tsx";
import { useTabSearchParams } from "./use-tab-search-params.ts";
import { useOwnerFilterOptions } from "./user-options.ts";

export default function CollectTaskPage({ route }: PageProps) {
  const [params, setParams] = useTabSearchParams(route.path);
  const state = readTaskListState(params);
  const update = (change: Partial<TaskListState>) =>
    setParams((prev) => writeTaskListState(prev, updateState(readTaskListState(prev), change)));

  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const users = useOwnerFilterOptions();
  const list = useCollectTasks(toTaskQuery(state));
  const rows = list.data?.items ?? [];
  const total = list.data?.totalCount ?? 0;
  const following = rows.some((t) => isUnfinished(t.taskStatus));

  // Products collected by tasks that just finished belong in the collection list: refresh it when more succeed.
  const queryClient = useQueryClient();
  const succeeded = rows.filter((t) => t.taskStatus === TaskStatus.Succeeded).length;
  useEffect(() => {
    if (succeeded) void queryClient.invalidateQueries({ queryKey: collectKeys.lists() });
  }, [succeeded, queryClient]);

  useEffect(() => {
    if (!list.data || list.isPlaceholderData) return;
    const lastPage = Math.max(1, Math.ceil(total / state.pageSize));
    if (state.page > lastPage) update({ page: lastPage });
  }, [list.data, list.isPlaceholderData, total, state.page, state.pageSize]);

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pendingIds, setPendingIds] = useState<ReadonlySet<string>>(new Set());
  const retry = useReCrawlTasks();

  function runAgain(ids: string[]) {
    setPendingIds((s) => new Set([...s, ...ids]));
    retry.mutate(ids, {
      onSuccess: ({ count }) => {
        if (count) toast.success(`已重新提交 ${count} 个采集任务`);
        else toast.info("没有可以重试的任务（只有已结束的任务可以重试）");
        setSelected(new Set());
      },
      onSettled: () =>
        setPendingIds((s) => {
          const next = new Set(s);
          for (const id of ids) next.delete(id);
          return next;
        }),
    });
  }

  const columns = taskColumns({ onRetry: (t: CollectTask) => runAgain([t.id]), pendingIds, showOwner: isMainAccount });
  const retryable = rows.filter((t) => selected.has(t.id) && canRetry(t)).map((t) => t.id);
  const filtered = hasTaskFilter(state);

  return (
    <Card data-testid="collects-task-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            服务器按链接采集商品的任务。网络错误会自动重试；遇到登录或验证码页面的任务会被拦截，可稍后重试或改用浏览器插件采集。
          </CardDescription>
        </div>
        <div className="flex items-center gap-2">
          {following ? (
            <span className="text-muted-foreground flex items-center gap-1.5 text-xs" data-testid="collect-tasks-following">
              <Spinner className="text-primary" />每 {POLL_MS / 1000} 秒自动刷新
            </span>
          ) : null}
          <RefreshButton fetching={list.isFetching} onRefresh={list.refetch} data-testid="collect-tasks-refresh" />
          <Button asChild>
            <Link to="/collects/collect" data-testid="collect-tasks-go-collect">
              <Plus />
              采集商品
            </Link>
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <DataTableToolbar>
          <SearchInput
            value={state.search}
            onSearch={(search) => update({ search })}
            placeholder="搜索链接或标题"
            aria-label="搜索链接或标题"
            maxLength={200}
            className="sm:w-64"
            data-testid="collect-tasks-search"
          />
          <SearchInput
            plain
            value={state.sku}
            onSearch={(sku) => update({ sku })}
            placeholder="商品ID（精确）"
            aria-label="商品ID"
            maxLength={128}
            className="sm:w-40"
            data-testid="collect-tasks-sku"
          />
          <Select value={state.status} onValueChange={(status) => update({ status })}>
            <SelectTrigger className="w-40" aria-label="任务状态" data-testid="collect-tasks-status-filter">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">全部状态</SelectItem>
              {taskStatusOptions.map((o) => (
                <SelectItem key={o.value} value={String(o.value)} data-testid={`collect-tasks-status-${o.value}`}>
                  {o.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {users ? (
            <Select value={state.user} onValueChange={(user) => update({ user })}>
              <SelectTrigger className="w-40" aria-label="采集人" data-testid="collect-tasks-user-filter">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">全部账号</SelectItem>
                {users.map((u) => (
                  <SelectItem key={u.id} value={u.id}>
                    {u.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          ) : null}
          <DateRangeFilter start={state.start} end={state.end} onChange={(range) => update(range)} testId="collect-tasks-date" />
          <Button
            variant="ghost"
            disabled={!filtered}
            onClick={() =>
              setParams(() =>
                writeTaskListState(new URLSearchParams(), { ...readTaskListState(new URLSearchParams()), pageSize: state.pageSize }),
              )
            }
            data-testid="collect-tasks-reset"
          >
            <RotateCcw />
            重置
          </Button>
          <Button
            variant="outline"
            className="ml-auto"
            disabled={!retryable.length || retry.isPending}
            onClick={() => runAgain(retryable)}
            data-testid="collect-tasks-retry-selected"
          >
            <RotateCcw />
            重试选中{retryable.length ? `（${retryable.length}）` : ""}
          </Button>
        </DataTableToolbar>

        <DataTable
          aria-label="采集任务列表"
          columns={columns}
          rows={rows}
          rowKey={(t) => t.id}
          loading={list.isFetching && (rows.length === 0 || list.isPlaceholderData)}
          emptyText={filtered ? "没有符合条件的采集任务" : "还没有采集任务，在“商品采集”页粘贴商品链接即可创建"}
          selection={{ selected, onChange: setSelected }}
          pagination={{
            page: state.page,
            pageSize: state.pageSize,
            total,
            pageSizeOptions: TASK_PAGE_SIZES,
            onChange: (page, pageSize) => update(pageSize === state.pageSize ? { page } : { page: 1, pageSize }),
          }}
          className="[&_table]:min-w-[1060px] [&_table]:table-fixed"
        />
      </CardContent>
    </Card>
  );
}
