// /task/list (spec §2 task centre): every background task the user may see (the tenant's for a main account, its own
// for a sub-account) with type, status, progress, content, times and creator, filtered by type, status, creator and
// creation days (kept in the URL), paged on the server. The page asks again every few seconds while one of its tasks
// is waiting or running; a failed crawl or URL import can be retried, a finished export or 批量打单 PDF downloaded by
// its creator.
import { useState } from "react";
import { PRODUCT_EXPORT_KEEP_DAYS } from "#shared/contract/product-export.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { cn } from "#shared/ui/cn.ts";
import { DataTable } from "#shared/ui/data-table.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { listTable } from "../../components/list/list-table.ts";
import { FollowingRefresh } from "../../components/list/following-refresh.tsx";
import { ListToolbar } from "../../components/list/list-toolbar.tsx";
import { useOwnerFilterOptions } from "../../components/list/owner-filter.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState, useReplaceSearchParams } from "../../components/list/use-list-url-state.ts";
import { handleServerError } from "../../lib/response-handler.ts";
import { useUserStore } from "../../stores/user.ts";
import { useDownloadExport } from "./api/download-export.ts";
import { TASKS_POLL_MS, useTasks } from "./api/get-tasks.ts";
import { useRetryTask } from "./api/retry-task.ts";
import { isTaskRunning } from "./labels.ts";
import { TASK_PAGE_SIZES, taskListSchema, toTaskQuery } from "./search-params.ts";
import { taskColumns } from "./task-columns.tsx";
import { taskFilters } from "./task-filters.ts";

export default function TaskListPage({ route }: PageProps) {
  const listState = useListUrlState(taskListSchema, useReplaceSearchParams());
  const { state, filtered } = listState;

  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const userId = useUserStore((s) => s.userInfo?.id ?? null);
  const users = useOwnerFilterOptions();
  const list = useTasks(toTaskQuery(state));
  const table = listTable(list, listState, TASK_PAGE_SIZES);
  const { rows } = table;
  const { total } = table.pagination;
  const capped = list.data?.totalCountCapped ?? false;
  const following = rows.some((t) => isTaskRunning(t.taskStatus));
  // A capped total is only a lower bound: the last page is not known.
  useKeepPageInRange(state, settledTotal(list, capped), listState.setPage);

  const [pendingIds, setPendingIds] = useState<ReadonlySet<string>>(new Set());
  const track = (id: string, on: boolean) =>
    setPendingIds((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const retry = useRetryTask();
  const download = useDownloadExport({
    mutationConfig: {
      onSuccess: (name) => toast.success(`已下载 ${name}`),
      onError: (e) => void (handleServerError(e) || toast.error("下载失败，请稍后重试")),
      meta: { silent: true },
    },
  });

  function onRetry(t: TaskInfo) {
    track(t.id, true);
    retry.mutate(t.id, {
      onSuccess: ({ count }) => void (count ? toast.success(`已重新提交 ${count} 个采集任务`) : toast.info("没有失败的采集任务可以重试")),
      onSettled: () => track(t.id, false),
    });
  }

  function onDownload(t: TaskInfo) {
    track(t.id, true);
    download.mutate({ taskId: t.id, taskType: t.taskType, taskRemark: t.taskRemark }, { onSettled: () => track(t.id, false) });
  }

  const columns = taskColumns({ onRetry, onDownload, pendingIds, userId, showCreator: isMainAccount });

  return (
    <Card data-testid="task-list-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            采集、导入、翻译、导出等后台任务的进度与结果。失败的采集和链接导入可以在这里重试；导出和批量打单完成后由发起人在这里下载文件（保留{" "}
            {PRODUCT_EXPORT_KEEP_DAYS} 天）。
          </CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <FollowingRefresh list={list} following={following} pollMs={TASKS_POLL_MS} testId="tasks" />
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <ListToolbar filters={taskFilters(users)} {...listState.toolbar} resetTestId="tasks-reset">
          <span className="text-muted-foreground ml-auto text-sm" data-testid="tasks-total" data-total={total} data-capped={capped}>
            共 <b className="text-foreground tabular-nums">{`${total.toLocaleString("zh-CN")}${capped ? "+" : ""}`}</b> 个任务
          </span>
        </ListToolbar>

        <DataTable
          aria-label="任务列表"
          columns={columns}
          {...table}
          rowKey={(t) => t.id}
          emptyText={filtered ? "没有符合条件的任务" : "还没有任务，采集、导入、翻译或导出商品后会显示在这里"}
          className={cn(
            "[&_table]:min-w-[960px] [&_table]:table-fixed",
            // The pager's own total cannot say "1,000+"; the line above the table does.
            capped && "[&_[data-slot=pagination-total]]:hidden",
          )}
        />
      </CardContent>
    </Card>
  );
}
