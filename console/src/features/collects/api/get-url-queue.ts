// The URL queue (api.aquiredUrl): the queued URLs, their counts by state, and URLs per day. The list and the counts
// ask again while anything is waiting or running.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AquiredUrl } from "#shared/contract/collect.ts";
import { api } from "../../../lib/feature-api.ts";
import { anyUnfinished, POLL_MS } from "./get-collect-tasks.ts";

export type UrlListQuery = Parameters<typeof api.aquiredUrl.getList>[0];
export type UrlFilter = Parameters<typeof api.aquiredUrl.getStatics>[0];

export const urlKeys = {
  all: ["aquired-urls"] as const,
  lists: () => [...urlKeys.all, "list"] as const,
  list: (q: UrlListQuery) => [...urlKeys.lists(), q] as const,
  statics: (f: UrlFilter) => [...urlKeys.all, "statics", f] as const,
  daily: (days: number) => [...urlKeys.all, "daily", days] as const,
};

const getQueuedUrlsQueryOptions = (q: UrlListQuery) =>
  queryOptions({
    queryKey: urlKeys.list(q),
    queryFn: ({ signal }) => api.aquiredUrl.getList(q, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anyUnfinished(query.state.data?.items as AquiredUrl[] | undefined) ? POLL_MS : false),
  });

const getUrlCountsQueryOptions = (f: UrlFilter) =>
  queryOptions({
    queryKey: urlKeys.statics(f),
    queryFn: ({ signal }) => api.aquiredUrl.getStatics(f, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const s = query.state.data;
      return s && s.pending + s.running > 0 ? POLL_MS : false;
    },
  });

/** URLs per day over the last `days` days (UTC days, as the server counts them). */
const getUrlsPerDayQueryOptions = (days: number) =>
  queryOptions({
    queryKey: urlKeys.daily(days),
    queryFn: ({ signal }) =>
      api.aquiredUrl.getUrlSatatics({ startDate: new Date(Date.now() - (days - 1) * 86_400_000).toISOString() }, { signal }),
  });

export const useQueuedUrls = (q: UrlListQuery) => useQuery(getQueuedUrlsQueryOptions(q));

export const useUrlCounts = (f: UrlFilter) => useQuery(getUrlCountsQueryOptions(f));

export const useUrlsPerDay = (days: number) => useQuery(getUrlsPerDayQueryOptions(days));
