// The tenant's collect settings (GetCollectConfig / UpdateCollcetConfig, also kept in the config store for other
// screens, spec §3) and the infringement rule (Get/UpdateInfringementRuleSetting). A save puts the answer in the cache.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { useConfigStore } from "../../../stores/config.ts";

const collectSettingKeys = {
  config: ["collect-config"] as const,
  rule: ["infringement-rule-setting"] as const,
};

const getCollectConfigQueryOptions = () =>
  queryOptions({
    queryKey: collectSettingKeys.config,
    queryFn: async ({ signal }) => {
      const config = await api.collect.getCollectConfig({ signal });
      useConfigStore.getState().setCollectConfig(config);
      return config;
    },
  });

const getInfringementRuleQueryOptions = () =>
  queryOptions({ queryKey: collectSettingKeys.rule, queryFn: ({ signal }) => api.collect.getInfringementRuleSetting({ signal }) });

export const useCollectConfig = () => useQuery(getCollectConfigQueryOptions());

export const useInfringementRule = () => useQuery(getInfringementRuleQueryOptions());

export const updateCollectConfig = (body: Parameters<typeof api.collect.updateCollcetConfig>[0]) => api.collect.updateCollcetConfig(body);
export const updateInfringementRule = (body: Parameters<typeof api.collect.updateInfringementRuleSetting>[0]) =>
  api.collect.updateInfringementRuleSetting(body);

export function useUpdateCollectConfig({ mutationConfig }: MutationHookOptions<typeof updateCollectConfig> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: updateCollectConfig,
        onSuccess: (config) => {
          queryClient.setQueryData(getCollectConfigQueryOptions().queryKey, config);
          useConfigStore.getState().setCollectConfig(config);
        },
      },
      mutationConfig,
    ),
  );
}

export function useUpdateInfringementRule({ mutationConfig }: MutationHookOptions<typeof updateInfringementRule> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: updateInfringementRule,
        onSuccess: (rule) => void queryClient.setQueryData(getInfringementRuleQueryOptions().queryKey, rule),
      },
      mutationConfig,
    ),
  );
}
