// A long task started from a screen (an export, a translation, an order pull, a listing batch), followed live through
// the task centre (lib/task-queries.ts: refetched by the event stream, polled while it is down) until it has finished.
// One way to show it, in the two shapes the screens need: a dialog (the task is the dialog's whole point: export,
// translate) and a strip above a list (the list stays usable while the task runs: 拉取订单, a listing batch). A task
// that ends partly done is Failed with a remark saying so and what is missing ("部分完成：成功 8，失败 2 …"): the
// remark is always shown, in red when the task failed, so a partial result still says partial.
import { Download, X } from "lucide-react";
import type { UseMutationResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { taskStatusLabel } from "../../lib/labels.ts";
import { handleServerError } from "../../lib/response-handler.ts";
import { isTaskDone, useTask } from "../../lib/task-queries.ts";

export type TaskState = {
  /** The task, or null while the task centre does not list it yet. */
  task: TaskInfo | null;
  done: boolean;
  succeeded: boolean;
  /** Ended without succeeding: failed (a partial result too), or cancelled. */
  failed: boolean;
  /** 0..100; a succeeded task is at 100 whatever it last reported. */
  progress: number;
};

/** The state of a task of this type as it is now (nothing is asked without an id). */
export function taskState(task: TaskInfo | null): TaskState {
  const done = isTaskDone(task);
  const succeeded = task?.taskStatus === TaskStatus.Succeeded;
  const progress = succeeded ? 100 : Math.max(0, Math.min(100, task?.progress ?? 0));
  return { task, done, succeeded, failed: done && !succeeded, progress };
}

export function useTaskProgress(taskId: string | null, taskType: number): TaskState {
  return taskState(useTask(taskType, taskId).data ?? null);
}

/** The bar itself (also the task list's progress column and a publish batch's strip). */
export function ProgressBar(p: { value: number; failed?: boolean; label: string; className?: string; testId?: string }) {
  return (
    <div
      className={cn("bg-muted h-2 overflow-hidden rounded-full", p.className)}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={p.value}
      aria-label={p.label}
      data-testid={p.testId}
    >
      <div
        className={cn("h-full rounded-full transition-[width]", p.failed ? "bg-destructive" : "bg-primary")}
        style={{ width: `${p.value}%` }}
      />
    </div>
  );
}

/** The progress block of a dialog or a form: status and percent, the bar, the remark. */
export function TaskProgress({
  state,
  testId,
  pendingText = "任务已提交，等待开始...",
}: {
  state: TaskState;
  testId: string;
  /** Shown until the task centre lists the task. */
  pendingText?: string;
}) {
  const t = state.task;
  return (
    <div className="flex flex-col gap-2" data-testid={testId} data-status={t?.taskStatus ?? 0} data-progress={state.progress}>
      <div className="flex items-center justify-between text-sm">
        <span data-testid={`${testId}-status`}>{t ? taskStatusLabel(t.taskStatus) : pendingText}</span>
        <span className="text-muted-foreground tabular-nums">{state.progress}%</span>
      </div>
      <ProgressBar value={state.progress} failed={state.failed} label="任务进度" />
      {t?.taskRemark ? (
        <p className={cn("text-xs", state.failed ? "text-destructive" : "text-muted-foreground")} data-testid={`${testId}-remark`}>
          {t.taskRemark}
        </p>
      ) : null}
    </div>
  );
}

/** A file made by the task, saved once it succeeded (the export download hooks: `{taskId, taskRemark}` → the name). */
export type TaskDownload = Pick<UseMutationResult<string, unknown, { taskId: string; taskRemark?: string | null }>, "isPending" | "mutate">;

export type TaskProgressDialogProps = {
  state: TaskState;
  onClose: () => void;
  /** The title while the task runs, once it succeeded, once it failed (the running one when not given). */
  titles: { running: string; succeeded?: string; failed?: string };
  description: ReactNode;
  /** The progress block's; the dialog's is `${testId}-dialog`. */
  testId: string;
  /** The close button once the task has ended (while it runs it is 后台运行); primary when nothing else is offered. */
  closeText?: string;
  closePrimary?: boolean;
  /** Offered once the task succeeded: 下载文件 saves it, with a toast saying the name or why it failed. */
  download?: { mutation: TaskDownload; testId: string };
};

/** The dialog variant: the task is what the dialog is about; closing it leaves the task running in the background. */
export function TaskProgressDialog(p: TaskProgressDialogProps) {
  const { state, download } = p;
  const title = (state.succeeded && p.titles.succeeded) || (state.failed && p.titles.failed) || p.titles.running;
  return (
    <Dialog open onOpenChange={(open) => !open && p.onClose()}>
      <DialogContent className="sm:max-w-md" data-testid={`${p.testId}-dialog`}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{p.description}</DialogDescription>
        </DialogHeader>
        <TaskProgress state={state} testId={p.testId} />
        <DialogFooter>
          <Button variant={state.done && p.closePrimary ? "default" : "outline"} onClick={p.onClose}>
            {state.done ? (p.closeText ?? "关闭") : "后台运行"}
          </Button>
          {state.succeeded && state.task && download ? (
            <Button
              loading={download.mutation.isPending}
              onClick={() =>
                download.mutation.mutate(
                  { taskId: state.task!.id, taskRemark: state.task!.taskRemark },
                  {
                    onSuccess: (name) => toast.success(`已下载 ${name}`),
                    onError: (e) => void (handleServerError(e) || toast.error("下载失败，请稍后重试")),
                  },
                )
              }
              data-testid={download.testId}
            >
              <Download />
              下载文件
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** An export's dialog: follows the export task, then offers its file. */
export function ExportTaskDialog(p: {
  taskId: string;
  taskType: number;
  /** The title while it runs (正在导出 …). */
  title: string;
  description: ReactNode;
  download: TaskDownload;
  testId: string;
  onClose: () => void;
}) {
  return (
    <TaskProgressDialog
      state={useTaskProgress(p.taskId, p.taskType)}
      onClose={p.onClose}
      titles={{ running: p.title, succeeded: "导出完成", failed: "导出失败" }}
      description={p.description}
      testId={`${p.testId}-progress`}
      download={{ mutation: p.download, testId: `${p.testId}-download` }}
    />
  );
}

export type TaskProgressStripProps = {
  state: TaskState;
  /** What the task does (拉取订单, 改价 …): the strip's name and its bar's. */
  label: string;
  /** Shown until the task reports a remark. */
  pendingText: string;
  testId: string;
  taskId?: string;
  /** Links or buttons beside the remark (e.g. to the task centre). */
  actions?: ReactNode;
  onClose: () => void;
};

/** The strip variant, above a list: the task's name, its remark (red when it failed) and a thin bar, until closed. */
export function TaskProgressStrip(p: TaskProgressStripProps) {
  const { state } = p;
  return (
    <div
      className="flex flex-col gap-1.5 rounded-md border px-3 py-2 text-sm"
      data-testid={p.testId}
      data-task={p.taskId}
      data-status={state.task?.taskStatus ?? 0}
      data-progress={state.progress}
    >
      <div className="flex items-center gap-2">
        {state.done ? null : <Spinner />}
        <span className="font-medium">{p.label}</span>
        <span
          className={cn("min-w-0 flex-1 truncate", state.failed ? "text-destructive" : "text-muted-foreground")}
          title={state.task?.taskRemark ?? undefined}
          data-testid={`${p.testId}-remark`}
        >
          {state.task?.taskRemark ?? p.pendingText}
        </span>
        {p.actions}
        <Button variant="ghost" size="icon" className="size-6" aria-label="关闭进度" onClick={p.onClose}>
          <X className="size-3.5" />
        </Button>
      </div>
      <ProgressBar value={state.progress} failed={state.failed} label={`${p.label}进度`} className="h-1.5" />
    </div>
  );
}
