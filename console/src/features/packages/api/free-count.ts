// The free sub-account number every company has without packages (setting SubAccount.FreeCount, issue 28): read and
// set by the host on the package screen (SetValueByKey checks it on the server). Unset means no limit, and then no
// package can be bought.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import { api } from "../../../lib/feature-api.ts";
import { packageKeys } from "./packages.ts";

/** Under the settings root ("settings"), so the 系统配置 screen's saves refresh it too. */
const freeCountKey = ["settings", "value", SettingKeys.freeSubAccounts] as const;

export const useFreeCount = () =>
  useQuery({
    queryKey: freeCountKey,
    queryFn: ({ signal }) => api.settings.getValueByKey({ key: SettingKeys.freeSubAccounts }, { signal }),
  });

export function useSaveFreeCount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: number | null) =>
      api.settings.setValueByKey({ key: SettingKeys.freeSubAccounts, value: value === null ? null : String(value) }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["settings"] }),
        queryClient.invalidateQueries({ queryKey: packageKeys.all }),
      ]),
  });
}
