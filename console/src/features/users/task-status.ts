// What the sub-account screen shows of a ClearSubAccountInfo task while it polls the task centre.
import { TaskStatus } from "#shared/contract/enums.ts";

export type TaskState = "running" | "succeeded" | "failed" | "cancelled";

/** A task not listed yet (queued a moment ago) counts as running. */
export function taskState(status: number | null | undefined): TaskState {
  switch (status) {
    case TaskStatus.Succeeded:
      return "succeeded";
    case TaskStatus.Failed:
      return "failed";
    case TaskStatus.Cancelled:
      return "cancelled";
    default:
      return "running";
  }
}

export const taskStateLabel: Record<TaskState, string> = {
  running: "进行中",
  succeeded: "已完成",
  failed: "失败",
  cancelled: "已取消",
};

export const isTaskFinished = (state: TaskState) => state !== "running";
