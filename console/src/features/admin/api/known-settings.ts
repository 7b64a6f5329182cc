// Every setting the product reads, with its meaning and value now (GetKnownSettings), and setting one by key
// (SetValueByKey: the server checks the key's rule; null removes it so the default applies).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SetSettingValueInput } from "#shared/contract/setting-registry.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { settingKeys } from "./get-settings.ts";

const getKnownSettingsQueryOptions = () =>
  queryOptions({ queryKey: settingKeys.known(), queryFn: ({ signal }) => api.settings.getKnownSettings({ signal }) });

export const useKnownSettings = () => useQuery(getKnownSettingsQueryOptions());

export const setSettingValue = (body: SetSettingValueInput) => api.settings.setValueByKey(body);

/** Every settings query follows (the list below, the FAQ, the package screen's free number). */
export function useSetSettingValue({ mutationConfig }: MutationHookOptions<typeof setSettingValue> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: setSettingValue, onSuccess: () => queryClient.invalidateQueries({ queryKey: settingKeys.all }) },
      mutationConfig,
    ),
  );
}
