// The sub-accounts of the caller's tenant: the list (GetSubUsers) and one sub-account fresh from the server (the
// edit dialog needs its current concurrency stamp).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export type SubUserListQuery = { Search?: string; IsActive?: boolean; SkipCount: number; MaxResultCount: number };
export type SubUserStatsQuery = { StartDate?: string; EndDate?: string };

export const subUserKeys = {
  all: ["sub-users"] as const,
  lists: () => [...subUserKeys.all, "list"] as const,
  list: (q: SubUserListQuery) => [...subUserKeys.lists(), q] as const,
  details: () => [...subUserKeys.all, "detail"] as const,
  detail: (id: string) => [...subUserKeys.details(), id] as const,
  stats: (q: SubUserStatsQuery) => [...subUserKeys.all, "stats", q] as const,
};

const getSubUsersQueryOptions = (q: SubUserListQuery) =>
  queryOptions({
    queryKey: subUserKeys.list(q),
    queryFn: ({ signal }) => api.user.getSubUsers(q, { signal }),
    placeholderData: keepPreviousData,
  });

const getSubUserQueryOptions = (id: string | null) =>
  queryOptions({
    queryKey: subUserKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api.user.getSubUserById({ id: id! }, { signal }),
    enabled: !!id,
    staleTime: 0,
  });

/** The sub-accounts' figures (GetSubUserStaticInfo) over a date range. */
const getSubUserStatsQueryOptions = (q: SubUserStatsQuery) =>
  queryOptions({
    queryKey: subUserKeys.stats(q),
    queryFn: ({ signal }) => api.user.getSubUserStaticInfo(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useSubUsers = (q: SubUserListQuery) => useQuery(getSubUsersQueryOptions(q));

export const useSubUser = (id: string | null) => useQuery(getSubUserQueryOptions(id));

export const useSubUserStats = (q: SubUserStatsQuery) => useQuery(getSubUserStatsQueryOptions(q));
