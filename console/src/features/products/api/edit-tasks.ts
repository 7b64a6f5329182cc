// The tenant's (a sub-account: its own) recent bulk edit tasks, newest first: asked again on every task event of the
// live stream, and every 1.5 s while one runs and the stream is down.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { liveProgressMeta, pollUnlessLive } from "../../../lib/live-progress.ts";
import { isTaskDone, taskKeys } from "../../../lib/task-queries.ts";
import { EDIT_TASK_TYPE } from "../edit-tasks.ts";

const POLL_MS = 1500;

const getProductEditTasksQueryOptions = () =>
  queryOptions({
    queryKey: taskKeys.recent(EDIT_TASK_TYPE),
    queryFn: async ({ signal }) =>
      (
        await api.tasks.getTaskInfoByPage(
          { TaskType: EDIT_TASK_TYPE, Sorting: "creationTime desc", SkipCount: 0, MaxResultCount: 10 },
          { signal },
        )
      ).items,
    meta: { ...liveProgressMeta("task"), silent: true },
    refetchInterval: (query) => (query.state.data?.some((t) => !isTaskDone(t)) ? pollUnlessLive(POLL_MS) : false),
  });

export const useProductEditTasks = () => useQuery(getProductEditTasksQueryOptions());
