// The task table's columns: type, content and remark, status, progress, creator (main accounts), times, and the row's
// action: 重试 for a failed task whose type can run again, 下载 for a finished export or 批量打单 of the viewer's own.
import { canRetryTask, type TaskInfo } from "#shared/contract/tasks.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { ProgressBar, taskState } from "../../components/task/task-progress.tsx";
import { taskHasFile } from "../../lib/export-download.ts";
import { formatDateTime } from "../../lib/format.ts";
import { isTaskRunning, taskStatusLabel, taskStatusTones, taskTypeLabel } from "./labels.ts";

export type TaskRowActions = {
  onRetry: (task: TaskInfo) => void;
  onDownload: (task: TaskInfo) => void;
  /** Rows whose retry or download is on its way. */
  pendingIds: ReadonlySet<string>;
  /** The viewer: only the task's creator may download its file. */
  userId: string | null;
  showCreator: boolean;
};

/** A finished task with a file (an export, 批量打单's PDF) the viewer started (the download answers only the creator). */
export const canDownload = (t: TaskInfo, userId: string | null) =>
  taskHasFile(t.taskType) && t.taskStatus === TaskStatus.Succeeded && !!userId && t.creatorId === userId;

function Progress({ task }: { task: TaskInfo }) {
  const { progress: value } = taskState(task);
  return (
    <div className="flex items-center gap-2" data-testid="task-progress" data-progress={value}>
      <ProgressBar value={value} failed={task.taskStatus === TaskStatus.Failed} label="任务进度" className="h-1.5 flex-1" />
      <span className="text-muted-foreground w-9 text-right text-xs tabular-nums">{value}%</span>
    </div>
  );
}

export function taskColumns(a: TaskRowActions): DataTableColumn<TaskInfo>[] {
  const columns: (DataTableColumn<TaskInfo> | null)[] = [
    {
      id: "type",
      header: "任务类型",
      width: 120,
      cell: (t) => (
        <Badge variant="outline" data-testid="task-type">
          {taskTypeLabel(t.taskType)}
        </Badge>
      ),
    },
    {
      id: "content",
      header: "任务内容",
      cell: (t) => (
        <div className="flex min-w-0 flex-col gap-0.5" data-testid={`task-row-${t.id}`}>
          <span className="line-clamp-2 font-medium" title={t.content}>
            {t.content || "-"}
          </span>
          {t.taskRemark ? (
            <span
              className={cn("line-clamp-2 text-xs", t.taskStatus === TaskStatus.Failed ? "text-destructive" : "text-muted-foreground")}
              title={t.taskRemark}
              data-testid="task-remark"
            >
              {t.taskRemark}
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: "status",
      header: "状态",
      width: 96,
      cell: (t) => (
        <Badge variant={taskStatusTones[t.taskStatus] ?? "outline"} data-testid="task-status" data-status={t.taskStatus}>
          {isTaskRunning(t.taskStatus) ? <Spinner /> : null}
          {taskStatusLabel(t.taskStatus)}
        </Badge>
      ),
    },
    { id: "progress", header: "进度", width: 150, cell: (t) => <Progress task={t} /> },
    a.showCreator
      ? { id: "creator", header: "创建人", width: 100, cell: (t) => <span className="block truncate">{t.creatorName ?? "系统"}</span> }
      : null,
    {
      id: "time",
      header: "创建 / 更新时间",
      width: 150,
      cell: (t) => (
        <div className="text-muted-foreground flex flex-col text-xs whitespace-nowrap tabular-nums">
          <span>{formatDateTime(t.creationTime)}</span>
          <span>{formatDateTime(t.lastUpdateTime)}</span>
        </div>
      ),
    },
    {
      id: "actions",
      header: "操作",
      width: 80,
      cell: (t) => {
        const action = canRetryTask(t)
          ? { text: "重试", run: a.onRetry, testId: `task-retry-${t.id}` }
          : canDownload(t, a.userId)
            ? { text: "下载", run: a.onDownload, testId: `task-download-${t.id}` }
            : null;
        if (!action) return <span className="text-muted-foreground text-xs">-</span>;
        return (
          <Button
            variant="ghost"
            size="sm"
            className="text-primary hover:text-primary -ml-2 h-7 px-2"
            loading={a.pendingIds.has(t.id)}
            onClick={() => action.run(t)}
            data-testid={action.testId}
          >
            {action.text}
          </Button>
        );
      },
    },
  ];
  return columns.filter((c): c is DataTableColumn<TaskInfo> => c !== null);
}
