// The selection library (/proudcts/selection, host only): watched competitor listings with their trend.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export type SelectionQuery = Parameters<typeof api.meliSelectionSku.getMeliSelectionSku>[0];

export const selectionKeys = {
  all: ["selection"] as const,
  list: (q: SelectionQuery) => [...selectionKeys.all, "list", q] as const,
};

export const getSelectionQueryOptions = (q: SelectionQuery) =>
  queryOptions({
    queryKey: selectionKeys.list(q),
    queryFn: ({ signal }) => api.meliSelectionSku.getMeliSelectionSku(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useSelection = (q: SelectionQuery) => useQuery(getSelectionQueryOptions(q));
