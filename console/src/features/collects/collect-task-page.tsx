// /collects/task (spec §2, cached): collection task monitoring. The tasks filtered by the spec §3 task filter (status,
// URL/title search, source item id, dates, owner for main accounts; kept in the URL), paged on the server, with their
// status and the crawler's message in Chinese; the page follows itself every few seconds while a task on it is still
// waiting or running; finished tasks can be run again (ReCrawlTasks), one by one or the chosen ones.
import { useQueryClient } from "@tanstack/react-query";
import { Plus, RotateCcw } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import type { CollectTask } from "#shared/contract/collect.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { listTable } from "../../components/list/list-table.ts";
import { FollowingRefresh } from "../../components/list/following-refresh.tsx";
import { ListToolbar } from "../../components/list/list-toolbar.tsx";
import { useOwnerFilterOptions } from "../../components/list/owner-filter.ts";
import { useListSelection } from "../../components/list/use-list-selection.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useUserStore } from "../../stores/user.ts";
import { POLL_MS, useCollectTasks } from "./api/get-collect-tasks.ts";
import { collectKeys } from "./api/get-collects.ts";
import { useReCrawlTasks } from "./api/start-collecting.ts";
import { taskFilters } from "./collect-filters.ts";
import { isUnfinished } from "./labels.ts";
import { TASK_PAGE_SIZES, taskListSchema, toTaskQuery } from "./search-params.ts";
import { canRetry, taskColumns } from "./task-columns.tsx";

export default function CollectTaskPage({ route }: PageProps) {
  const listState = useListUrlState(taskListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;

  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const users = useOwnerFilterOptions();
  const list = useCollectTasks(toTaskQuery(state));
  const table = listTable(list, listState, TASK_PAGE_SIZES);
  const { rows } = table;
  const following = rows.some((t) => isUnfinished(t.taskStatus));

  // Products collected by tasks that just finished belong in the collection list: refresh it when more succeed.
  const queryClient = useQueryClient();
  const succeeded = rows.filter((t) => t.taskStatus === TaskStatus.Succeeded).length;
  useEffect(() => {
    if (succeeded) void queryClient.invalidateQueries({ queryKey: collectKeys.lists() });
  }, [succeeded, queryClient]);

  useKeepPageInRange(listState.state, settledTotal(list), listState.setPage);

  const selection = useListSelection(listState.filterKey);
  const [pendingIds, setPendingIds] = useState<ReadonlySet<string>>(new Set());
  const retry = useReCrawlTasks();

  function runAgain(ids: string[]) {
    setPendingIds((s) => new Set([...s, ...ids]));
    retry.mutate(ids, {
      onSuccess: ({ count }) => {
        if (count) toast.success(`已重新提交 ${count} 个采集任务`);
        else toast.info("没有可以重试的任务（只有已结束的任务可以重试）");
        selection.clear();
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
  const retryable = rows.filter((t) => selection.selected.has(t.id) && canRetry(t)).map((t) => t.id);

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
          <FollowingRefresh list={list} following={following} pollMs={POLL_MS} testId="collect-tasks" />
          <Button asChild>
            <Link to="/collects/collect" data-testid="collect-tasks-go-collect">
              <Plus />
              采集商品
            </Link>
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <ListToolbar filters={taskFilters(users)} {...listState.toolbar} resetTestId="collect-tasks-reset">
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
        </ListToolbar>

        <DataTable
          aria-label="采集任务列表"
          columns={columns}
          {...table}
          rowKey={(t) => t.id}
          emptyText={filtered ? "没有符合条件的采集任务" : "还没有采集任务，在“商品采集”页粘贴商品链接即可创建"}
          selection={selection.table(rows.map((t) => t.id))}
          className="[&_table]:min-w-[1060px] [&_table]:table-fixed"
        />
      </CardContent>
    </Card>
  );
}
