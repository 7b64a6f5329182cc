// The collection tasks (GetCollectTasks): while any task on the page is still waiting or running, the page follows it.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { CollectTask } from "#shared/contract/collect.ts";
import { api } from "../../../lib/feature-api.ts";
import { isUnfinished } from "../labels.ts";
import { liveProgressMeta, pollUnlessLive } from "../../../lib/live-progress.ts";

/** How often a list with unfinished tasks or URLs asks again while the live progress stream is down (a crawl
 * reports through its task-centre record, so a task event refetches the list). */
export const POLL_MS = 3000;

export type CollectTasksQuery = Parameters<typeof api.collect.getCollectTasks>[0];

export const collectTaskKeys = {
  all: ["collect-tasks"] as const,
  lists: () => [...collectTaskKeys.all, "list"] as const,
  list: (q: CollectTasksQuery) => [...collectTaskKeys.lists(), q] as const,
};

/** Whether a page of tasks or queued URLs still has one waiting or running. */
export const anyUnfinished = (items: { status?: number; taskStatus?: number }[] | undefined) =>
  !!items?.some((i) => isUnfinished(i.status ?? i.taskStatus ?? 0));

const getCollectTasksQueryOptions = (q: CollectTasksQuery) =>
  queryOptions({
    queryKey: collectTaskKeys.list(q),
    queryFn: ({ signal }) => api.collect.getCollectTasks(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("task"),
    refetchInterval: (query) => (anyUnfinished(query.state.data?.items as CollectTask[] | undefined) ? pollUnlessLive(POLL_MS) : false),
  });

export const useCollectTasks = (q: CollectTasksQuery) => useQuery(getCollectTasksQueryOptions(q));
