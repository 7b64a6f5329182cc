// The newest category task (a sync or the Chinese names), live while it runs: its content, status, progress bar and
// remark. When it ends the screen's counts and categories are read again.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { ProgressBar, taskState } from "../../components/task/task-progress.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { isTaskDone } from "../../lib/task-queries.ts";
import { categorySyncKeys } from "./api/get-sync-status.ts";

const statusText: Record<number, [string, "secondary" | "default" | "success" | "destructive"]> = {
  [TaskStatus.Pending]: ["排队中", "secondary"],
  [TaskStatus.Running]: ["进行中", "default"],
  [TaskStatus.Succeeded]: ["已完成", "success"],
  [TaskStatus.Failed]: ["失败", "destructive"],
  [TaskStatus.Cancelled]: ["已取消", "secondary"],
};

export function SyncTaskStatus({ task }: { task: TaskInfo | null | undefined }) {
  const queryClient = useQueryClient();
  const done = isTaskDone(task);
  // A task that ends while the screen is open changes what the other queries show.
  useEffect(() => {
    if (done) void queryClient.invalidateQueries({ queryKey: categorySyncKeys.all, predicate: (q) => q.queryKey[1] !== "latest-task" });
  }, [done, task?.id, queryClient]);

  if (!task) return <p className="text-muted-foreground text-sm">尚未同步过类目</p>;
  const [label, tone] = statusText[task.taskStatus] ?? [`状态 ${task.taskStatus}`, "secondary"];
  const value = taskState(task).progress;
  return (
    <div className="flex flex-col gap-2 rounded-md border p-3 text-sm" data-testid="category-task" data-status={task.taskStatus}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={tone} data-testid="category-task-status">
          {label}
        </Badge>
        <span className="min-w-0 flex-1 truncate" title={task.content ?? undefined}>
          {task.content}
        </span>
        <span className="text-muted-foreground text-xs">{formatDateTime(task.lastUpdateTime)}</span>
      </div>
      <div className="flex items-center gap-2">
        <ProgressBar
          value={value}
          failed={task.taskStatus === TaskStatus.Failed}
          label="同步进度"
          className="flex-1"
          testId="category-task-progress"
        />
        <span className="text-muted-foreground w-10 text-right text-xs tabular-nums">{value}%</span>
      </div>
      {task.taskRemark ? <p className="text-muted-foreground text-xs">{task.taskRemark}</p> : null}
    </div>
  );
}
