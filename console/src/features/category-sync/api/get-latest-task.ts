// The newest category task (sync or Chinese names, one at a time on the server), asked again while it runs so the
// screen shows its progress live, also when it was started elsewhere (the first start, another host tab).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { TaskType } from "#shared/contract/enums.ts";
import { api } from "../../../lib/feature-api.ts";
import { liveProgressMeta, pollUnlessLive } from "../../../lib/live-progress.ts";
import { isTaskDone } from "../../../lib/task-queries.ts";
import { categorySyncKeys } from "./get-sync-status.ts";

const POLL_MS = 1000;

const getLatestTaskQueryOptions = () =>
  queryOptions({
    queryKey: categorySyncKeys.latestTask(),
    queryFn: async ({ signal }) => {
      const page = await api.tasks.getTaskInfoByPage(
        { TaskType: TaskType.SyncCategories, Sorting: "creationTime desc", SkipCount: 0, MaxResultCount: 1 },
        { signal },
      );
      return page.items[0] ?? null;
    },
    staleTime: 0,
    meta: liveProgressMeta("task"),
    refetchInterval: (query) => (query.state.data && !isTaskDone(query.state.data) ? pollUnlessLive(POLL_MS) : false),
  });

export const useLatestTask = () => useQuery(getLatestTaskQueryOptions());
