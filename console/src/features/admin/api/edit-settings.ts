// Saving and deleting a system setting; every setting query (this list and the FAQ's value) follows.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateOrUpdateSettingInput } from "#shared/contract/settings.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { settingKeys } from "./get-settings.ts";

export const saveSetting = (body: CreateOrUpdateSettingInput) => api.settings.createOrUpdate(body);
export const deleteSetting = (id: string) => api.settings.delete({ id });

function useInvalidateSettings() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: settingKeys.all });
}

export function useSaveSetting({ mutationConfig }: MutationHookOptions<typeof saveSetting> = {}) {
  const invalidate = useInvalidateSettings();
  return useMutation(withCallerConfig({ mutationFn: saveSetting, onSuccess: () => invalidate() }, mutationConfig));
}

export function useDeleteSetting({ mutationConfig }: MutationHookOptions<typeof deleteSetting> = {}) {
  const invalidate = useInvalidateSettings();
  return useMutation(withCallerConfig({ mutationFn: deleteSetting, onSuccess: () => invalidate() }, mutationConfig));
}
