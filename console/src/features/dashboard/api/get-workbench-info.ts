// The workbench's figures (GetWorkbenchInfo) over the last `days` days.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

const workbenchKeys = {
  all: ["workbench"] as const,
  info: (days: number) => [...workbenchKeys.all, "info", days] as const,
};

const getWorkbenchInfoQueryOptions = (days: number) =>
  queryOptions({
    queryKey: workbenchKeys.info(days),
    queryFn: ({ signal }) => api.workbench.getWorkbenchInfo({ Days: days }, { signal }),
    placeholderData: keepPreviousData,
    // The workbench is a cached tab: figures are re-read each time it is shown again.
    staleTime: 0,
  });

export const useWorkbenchInfo = (days: number) => useQuery(getWorkbenchInfoQueryOptions(days));
