// The clear-data tasks started from this screen: each polls the task centre until it has finished and shows
// 进行中 (with its progress) / 已完成 / 失败. A finished task reloads the list (cleared fields change).
import { useQueryClient } from "@tanstack/react-query";
import { CircleCheck, CircleX, X } from "lucide-react";
import { useEffect } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { useTask } from "../../lib/task-queries.ts";
import { subUserKeys } from "./api/get-sub-users.ts";
import { isTaskFinished, taskState, taskStateLabel, type TaskState } from "./task-status.ts";

export type TrackedClearTask = { taskId: string; userName: string };

const badgeVariant: Record<TaskState, "default" | "success" | "destructive" | "secondary"> = {
  running: "default",
  succeeded: "success",
  failed: "destructive",
  cancelled: "secondary",
};

export function ClearTaskList({ tasks, onDismiss }: { tasks: TrackedClearTask[]; onDismiss: (taskId: string) => void }) {
  if (tasks.length === 0) return null;
  return (
    <ul className="flex flex-col gap-2" aria-label="清除数据任务" data-testid="clear-tasks">
      {tasks.map((t) => (
        <ClearTaskItem key={t.taskId} task={t} onDismiss={() => onDismiss(t.taskId)} />
      ))}
    </ul>
  );
}

function ClearTaskItem({ task, onDismiss }: { task: TrackedClearTask; onDismiss: () => void }) {
  const { data } = useTask(TaskType.ClearSubAccountInfo, task.taskId);
  const queryClient = useQueryClient();
  const state = taskState(data?.taskStatus);
  const finished = isTaskFinished(state);

  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: subUserKeys.all });
  }, [finished, queryClient]);

  return (
    <li
      className="bg-muted/40 flex items-center gap-3 rounded-md border px-3 py-2 text-sm"
      data-testid="clear-task-status"
      data-task-id={task.taskId}
      data-status={state}
    >
      {state === "running" ? (
        <Spinner className="text-primary" />
      ) : state === "succeeded" ? (
        <CircleCheck aria-hidden="true" className="text-success size-4" />
      ) : (
        <CircleX aria-hidden="true" className="text-destructive size-4" />
      )}
      <span className="min-w-0 flex-1 truncate">
        清除子账号 <span className="font-medium">{task.userName}</span> 的数据
        {data?.taskRemark ? <span className="text-muted-foreground ml-2 text-xs">{data.taskRemark}</span> : null}
      </span>
      {state === "running" && data ? <span className="text-muted-foreground text-xs tabular-nums">{data.progress}%</span> : null}
      <Badge variant={badgeVariant[state]} data-testid="clear-task-state">
        {taskStateLabel[state]}
      </Badge>
      {finished ? (
        <Button variant="ghost" size="icon" className="size-7" aria-label="关闭" onClick={onDismiss}>
          <X />
        </Button>
      ) : null}
    </li>
  );
}
