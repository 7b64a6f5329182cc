// A background task followed from the screen that started it (an export, a translation, a sub-account's data clear):
// GetTaskInfoByPage of its type, newest first, found by id, asked again until it has finished. Shared because several
// features start tasks and features do not import each other.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { api } from "./feature-api.ts";
import { liveProgressMeta, pollUnlessLive } from "./live-progress.ts";

/** How often a task is asked for again while it runs and the live progress stream is down. */
const TASK_POLL_MS = 1500;

/** Succeeded, failed or cancelled. A task not listed yet (queued a moment ago) is still to come. */
export const isTaskDone = (t: TaskInfo | null | undefined) =>
  !!t && (t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed || t.taskStatus === TaskStatus.Cancelled);

export const taskKeys = {
  all: ["tasks"] as const,
  detail: (taskType: number, taskId: string) => [...taskKeys.all, taskType, taskId] as const,
  /** The newest tasks of a type (a screen's strip of recent tasks). */
  recent: (taskType: number) => [...taskKeys.all, taskType, "recent"] as const,
};

/** The task, or null while the task centre does not list it yet; nothing is asked without an id. */
const getTaskQueryOptions = (taskType: number, taskId: string | null) =>
  queryOptions({
    queryKey: taskKeys.detail(taskType, taskId ?? ""),
    queryFn: async ({ signal }) => {
      const page = await api.tasks.getTaskInfoByPage(
        { TaskType: taskType, Sorting: "creationTime desc", SkipCount: 0, MaxResultCount: 50 },
        { signal },
      );
      return page.items.find((t) => t.id === taskId) ?? null;
    },
    enabled: !!taskId,
    staleTime: 0,
    meta: liveProgressMeta("task"),
    refetchInterval: (query) => (isTaskDone(query.state.data) ? false : pollUnlessLive(TASK_POLL_MS)),
  });

export const useTask = (taskType: number, taskId: string | null) => useQuery(getTaskQueryOptions(taskType, taskId));
