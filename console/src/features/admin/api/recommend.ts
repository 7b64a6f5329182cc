// The host's recommend set (issue 19 Agency): which agency recommended a tenant (GetRecommendInfo) and setting or
// clearing it (SetRecommendTenant); the candidate agencies come from GetTenantNameBySearch.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SetRecommendInput } from "#shared/contract/agency.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

const recommendKeys = {
  all: ["admin-recommend"] as const,
  info: (tenantId: string) => [...recommendKeys.all, "info", tenantId] as const,
  search: (text: string) => [...recommendKeys.all, "search", text] as const,
};

const getRecommendInfoQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: recommendKeys.info(tenantId),
    queryFn: ({ signal }) => api.hostedAgency.getRecommendInfo({ TenantId: tenantId }, { signal }),
  });

/** Nothing is asked without a tenant. */
export const useRecommendInfo = (tenantId: string | null) =>
  useQuery({ ...getRecommendInfoQueryOptions(tenantId ?? ""), enabled: !!tenantId });

const getTenantNameSearchQueryOptions = (text: string) =>
  queryOptions({
    queryKey: recommendKeys.search(text),
    queryFn: ({ signal }) => api.hosted.getTenantNameBySearch({ search: text }, { signal }),
  });

export const useTenantNameSearch = (text: string, enabled: boolean) => useQuery({ ...getTenantNameSearchQueryOptions(text), enabled });

export const setRecommend = (v: SetRecommendInput) => api.hostedAgency.setRecommendTenant(v);

export function useSetRecommend({ mutationConfig }: MutationHookOptions<typeof setRecommend> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: setRecommend, onSettled: () => queryClient.invalidateQueries({ queryKey: recommendKeys.all }) },
      mutationConfig,
    ),
  );
}
