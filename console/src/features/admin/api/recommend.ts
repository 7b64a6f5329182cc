// The host's recommend set (issue 19 Agency): which agency recommended a tenant (GetRecommendInfo) and setting or
// clearing it (SetRecommendTenant); the candidate agencies come from GetTenantNameBySearch.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SetRecommendInput } from "#shared/contract/agency.ts";
import { api } from "../../../lib/feature-api.ts";

const recommendKeys = {
  all: ["admin-recommend"] as const,
  info: (tenantId: string) => [...recommendKeys.all, "info", tenantId] as const,
  search: (text: string) => [...recommendKeys.all, "search", text] as const,
};

export const useRecommendInfo = (tenantId: string | null) =>
  useQuery({
    queryKey: recommendKeys.info(tenantId ?? ""),
    queryFn: ({ signal }) => api.hostedAgency.getRecommendInfo({ TenantId: tenantId! }, { signal }),
    enabled: !!tenantId,
  });

export const useTenantNameSearch = (text: string, enabled: boolean) =>
  useQuery({
    queryKey: recommendKeys.search(text),
    queryFn: ({ signal }) => api.hosted.getTenantNameBySearch({ search: text }, { signal }),
    enabled,
  });

export function useSetRecommend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: SetRecommendInput) => api.hostedAgency.setRecommendTenant(v),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recommendKeys.all }),
  });
}
