// The collected products: the list (GetCollect), one collection fresh from the server (the edit dialog needs its
// current concurrency stamp), and every id matching a filter (for "select all matching").
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { MAX_PAGE_SIZE } from "#shared/contract/common.ts";
import { api } from "../../../lib/feature-api.ts";

export type CollectsQuery = Parameters<typeof api.collect.getCollect>[0];
/** A list query without its paging: what "every collection matching" means. */
export type CollectsFilter = Omit<CollectsQuery, "skipCount" | "maxResultCount" | "sorting">;

export const collectKeys = {
  all: ["collects"] as const,
  lists: () => [...collectKeys.all, "list"] as const,
  list: (q: CollectsQuery) => [...collectKeys.lists(), q] as const,
  detail: (id: string) => [...collectKeys.all, "detail", id] as const,
};

const getCollectsQueryOptions = (q: CollectsQuery) =>
  queryOptions({
    queryKey: collectKeys.list(q),
    queryFn: ({ signal }) => api.collect.getCollect(q, { signal }),
    placeholderData: keepPreviousData,
  });

const getCollectQueryOptions = (id: string | null) =>
  queryOptions({
    queryKey: collectKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api.collect.getCollectById({ id: id! }, { signal }),
    enabled: !!id,
    staleTime: 0,
  });

export const useCollects = (q: CollectsQuery) => useQuery(getCollectsQueryOptions(q));

export const useCollect = (id: string | null) => useQuery(getCollectQueryOptions(id));

/** The ids of every collection matching a filter, read a thousand at a time (to a short page: a capped total is only
 *  a lower bound). */
export async function fetchAllCollectIds(filter: CollectsFilter): Promise<string[]> {
  const ids: string[] = [];
  for (let skip = 0; ; skip += MAX_PAGE_SIZE) {
    const page = await api.collect.getCollect({ ...filter, skipCount: skip, maxResultCount: MAX_PAGE_SIZE, sorting: "creationTime desc" });
    for (const c of page.items) ids.push(c.id);
    if (page.items.length < MAX_PAGE_SIZE || (!page.totalCountCapped && skip + MAX_PAGE_SIZE >= page.totalCount)) return ids;
  }
}
