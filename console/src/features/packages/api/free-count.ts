// The free sub-account number every company has without packages (setting SubAccount.FreeCount, issue 28): read and
// set by the host on the package screen (SetValueByKey checks it on the server). Unset means no limit, and then no
// package can be bought.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";
import { packageKeys } from "./packages.ts";

const getFreeCountQueryOptions = () =>
  queryOptions({
    queryKey: packageKeys.freeCount(),
    queryFn: ({ signal }) => api.settings.getValueByKey({ key: SettingKeys.freeSubAccounts }, { signal }),
  });

export const useFreeCount = () => useQuery(getFreeCountQueryOptions());

/** null removes the limit. */
export const saveFreeCount = (value: number | null) =>
  api.settings.setValueByKey({ key: SettingKeys.freeSubAccounts, value: value === null ? null : String(value) });

/** Every setting (系统配置 lists it) and the package screens (the allowance) follow. */
export function useSaveFreeCount({ mutationConfig }: MutationHookOptions<typeof saveFreeCount> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: saveFreeCount,
        onSuccess: () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: sharedKeys.settings }),
            queryClient.invalidateQueries({ queryKey: packageKeys.all }),
          ]),
      },
      mutationConfig,
    ),
  );
}
