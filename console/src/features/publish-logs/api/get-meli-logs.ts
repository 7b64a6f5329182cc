// The listing log (/proudcts/publish-logs, MeliStatLog): the calls made to Mercado Libre, newest first, and one call's
// request and answer when the row is opened.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export type MeliLogsQuery = Parameters<typeof api.meliStatLog.getLogsByPage>[0];

const meliLogKeys = {
  all: ["meli-logs"] as const,
  list: (q: MeliLogsQuery) => [...meliLogKeys.all, "list", q] as const,
  detail: (id: string) => [...meliLogKeys.all, "detail", id] as const,
};

const getMeliLogsQueryOptions = (q: MeliLogsQuery) =>
  queryOptions({
    queryKey: meliLogKeys.list(q),
    queryFn: ({ signal }) => api.meliStatLog.getLogsByPage(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useMeliLogs = (q: MeliLogsQuery) => useQuery(getMeliLogsQueryOptions(q));

/** A stored call does not change: kept while the page lives. */
const getMeliLogDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: meliLogKeys.detail(id),
    queryFn: ({ signal }) => api.meliStatLog.getLogDetail({ id }, { signal }),
    staleTime: Infinity,
  });

export const useMeliLogDetail = (id: string | null) => useQuery({ ...getMeliLogDetailQueryOptions(id ?? ""), enabled: !!id });
