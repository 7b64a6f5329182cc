// The task centre's list (GetTaskInfoByPage): while a task on the page is waiting or running, the page asks again.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { taskKeys } from "../../../lib/task-queries.ts";
import { isTaskRunning } from "../labels.ts";

/** How often a page with running tasks asks again. */
export const TASKS_POLL_MS = 2000;

export type TasksQuery = Parameters<typeof api.tasks.getTaskInfoByPage>[0];

export const taskListKeys = {
  lists: () => [...taskKeys.all, "list"] as const,
  list: (q: TasksQuery) => [...taskListKeys.lists(), q] as const,
};

export const getTasksQueryOptions = (q: TasksQuery) =>
  queryOptions({
    queryKey: taskListKeys.list(q),
    queryFn: ({ signal }) => api.tasks.getTaskInfoByPage(q, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((t) => isTaskRunning(t.taskStatus)) ? TASKS_POLL_MS : false),
  });

export const useTasks = (q: TasksQuery) => useQuery(getTasksQueryOptions(q));
