// The task centre's list (GetTaskInfoByPage): refetched when the live progress stream reports a task; while the stream
// is down and a task on the page is waiting or running, the page asks again.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { liveProgressMeta, pollUnlessLive } from "../../../lib/live-progress.ts";
import { taskKeys } from "../../../lib/task-queries.ts";
import { isTaskRunning } from "../labels.ts";

/** How often a page with running tasks asks again while the live progress stream is down. */
export const TASKS_POLL_MS = 2000;

export type TasksQuery = Parameters<typeof api.tasks.getTaskInfoByPage>[0];

const taskListKeys = {
  lists: () => [...taskKeys.all, "list"] as const,
  list: (q: TasksQuery) => [...taskListKeys.lists(), q] as const,
};

const getTasksQueryOptions = (q: TasksQuery) =>
  queryOptions({
    queryKey: taskListKeys.list(q),
    queryFn: ({ signal }) => api.tasks.getTaskInfoByPage(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("task"),
    refetchInterval: (query) => (query.state.data?.items.some((t) => isTaskRunning(t.taskStatus)) ? pollUnlessLive(TASKS_POLL_MS) : false),
  });

export const useTasks = (q: TasksQuery) => useQuery(getTasksQueryOptions(q));
