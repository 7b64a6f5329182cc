// The shop group's size charts for the publish screen (MeliSizeChart GetMeliSizeCharts), and pulling them from Mercado
// Libre for the chosen category (PullMeliChart).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

export const sizeChartKeys = {
  all: ["size-charts"] as const,
  group: (accountGroupId: string) => [...sizeChartKeys.all, accountGroupId] as const,
};

export const getSizeChartsQueryOptions = (accountGroupId: string) =>
  queryOptions({
    queryKey: sizeChartKeys.group(accountGroupId),
    queryFn: ({ signal }) => api.meliSizeChart.getMeliSizeCharts({ accountGroupId }, { signal }),
  });

export const useSizeCharts = (accountGroupId: string, enabled: boolean) =>
  useQuery({ ...getSizeChartsQueryOptions(accountGroupId), enabled: enabled && !!accountGroupId });

export const pullSizeCharts = (p: { accountGroupId: string; cateId: string }) =>
  api.meliSizeChart.pullMeliChart({ AccountGroupId: p.accountGroupId, Categories: [p.cateId] });

export function usePullSizeCharts({ mutationConfig }: MutationHookOptions<typeof pullSizeCharts> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: pullSizeCharts,
        onSuccess: (_r, p) => queryClient.invalidateQueries({ queryKey: sizeChartKeys.group(p.accountGroupId) }),
      },
      mutationConfig,
    ),
  );
}
