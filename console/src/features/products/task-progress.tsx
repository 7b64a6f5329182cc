// A background task started from this screen (an export, a translation), followed through the task centre until it
// has finished (lib/task-queries.ts); shown as a progress bar.
import { TaskStatus } from "@shared/contract/enums.ts";
import type { TaskInfo } from "@shared/contract/tasks.ts";
import { cn } from "@shared/ui/cn.ts";
import { isTaskDone, useTask } from "../../lib/task-queries.ts";

export type TaskState = {
  task: TaskInfo | null;
  done: boolean;
  succeeded: boolean;
  failed: boolean;
};

export function useTaskProgress(taskId: string | null, taskType: number): TaskState {
  const task = useTask(taskType, taskId).data ?? null;
  const done = isTaskDone(task);
  const succeeded = task?.taskStatus === TaskStatus.Succeeded;
  return { task, done, succeeded, failed: done && !succeeded };
}

const statusText: Record<number, string> = {
  [TaskStatus.Pending]: "排队中",
  [TaskStatus.Running]: "进行中",
  [TaskStatus.Succeeded]: "已完成",
  [TaskStatus.Failed]: "失败",
  [TaskStatus.Cancelled]: "已取消",
};

export function TaskProgress({ state, testId }: { state: TaskState; testId: string }) {
  const t = state.task;
  const progress = state.succeeded ? 100 : Math.max(0, Math.min(100, t?.progress ?? 0));
  return (
    <div className="flex flex-col gap-2" data-testid={testId} data-status={t?.taskStatus ?? 0} data-progress={progress}>
      <div className="flex items-center justify-between text-sm">
        <span>{t ? (statusText[t.taskStatus] ?? `状态 ${t.taskStatus}`) : "任务已提交，等待开始..."}</span>
        <span className="text-muted-foreground tabular-nums">{progress}%</span>
      </div>
      <div
        className="bg-muted h-2 overflow-hidden rounded-full"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        aria-label="任务进度"
      >
        <div
          className={cn("h-full rounded-full transition-[width]", state.failed ? "bg-destructive" : "bg-primary")}
          style={{ width: `${progress}%` }}
        />
      </div>
      {t?.taskRemark ? (
        <p className={cn("text-xs", state.failed ? "text-destructive" : "text-muted-foreground")} data-testid={`${testId}-remark`}>
          {t.taskRemark}
        </p>
      ) : null}
    </div>
  );
}
