// The shop group's size charts for the publish screen (MeliSizeChart GetMeliSizeCharts), pulling them from Mercado
// Libre for the chosen category (PullMeliChart), creating one from the products' sizes (CreateMeliChart), and the
// products' variants the sizes come from (GetProductById, the first products of the selection).
import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateMeliChartBody } from "#shared/contract/size-charts.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { publishInputKeys } from "./get-publish-inputs.ts";

const sizeChartKeys = {
  all: ["size-charts"] as const,
  group: (accountGroupId: string) => [...sizeChartKeys.all, accountGroupId] as const,
};

const getSizeChartsQueryOptions = (accountGroupId: string) =>
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

export const createSizeChart = (body: CreateMeliChartBody) => api.meliSizeChart.createMeliChart(body);

/** Creates (or completes) a chart; the group's list is read again so the new chart can be picked. */
export function useCreateSizeChart({ mutationConfig }: MutationHookOptions<typeof createSizeChart> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: createSizeChart,
        onSuccess: (_r, p) => queryClient.invalidateQueries({ queryKey: sizeChartKeys.group(p.accountGroupId) }),
      },
      mutationConfig,
    ),
  );
}

/** How many of the selected products the new chart's sizes are read from. */
const SIZE_SOURCE_PRODUCTS = 20;

const getProductVariantsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: publishInputKeys.productDetail(id),
    queryFn: ({ signal }) => api.product.getProductById({ id }, { signal }),
    staleTime: 60_000,
  });

/** The variants (option names and values) of the first products of the selection, read only while `enabled`. */
export function useSelectionVariants(productIds: readonly string[], enabled: boolean) {
  const ids = productIds.slice(0, SIZE_SOURCE_PRODUCTS);
  return useQueries({
    queries: ids.map((id) => ({ ...getProductVariantsQueryOptions(id), enabled })),
    combine: (results) => ({
      isLoading: results.some((r) => r.isLoading),
      variants: results.flatMap((r) => (r.data?.variants ?? []).map((v) => ({ keys: v.variant_Key, values: v.variant_Values }))),
    }),
  });
}
