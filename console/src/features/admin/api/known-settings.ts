// Every setting the product reads, with its meaning and value now (GetKnownSettings), and setting one by key
// (SetValueByKey: the server checks the key's rule; null removes it so the default applies).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SetSettingValueInput } from "#shared/contract/setting-registry.ts";
import { api } from "../../../lib/feature-api.ts";
import { settingKeys } from "./get-settings.ts";

const knownKey = [...settingKeys.all, "known"] as const;

export const useKnownSettings = () => useQuery({ queryKey: knownKey, queryFn: ({ signal }) => api.settings.getKnownSettings({ signal }) });

/** Every settings query follows (the list below, the FAQ, the package screen's free number). */
export function useSetSettingValue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetSettingValueInput) => api.settings.setValueByKey(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingKeys.all }),
  });
}
