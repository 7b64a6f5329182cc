// Editing and deleting one collection. The list is reloaded whatever the outcome; a 409 on a stale edit is the
// dialog's to explain (the global handler leaves it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { collectKeys } from "./get-collects.ts";

export const updateCollect = (body: Parameters<typeof api.collect.updateCollect>[0]) => api.collect.updateCollect(body);
export const deleteCollect = (id: string) => api.collect.deleteCollect({ id });

export function useUpdateCollect({ mutationConfig }: MutationHookOptions<typeof updateCollect> = {}) {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: collectKeys.all });
  return useMutation(withCallerConfig({ mutationFn: updateCollect, onSettled: invalidate }, mutationConfig));
}

export function useDeleteCollect({ mutationConfig }: MutationHookOptions<typeof deleteCollect> = {}) {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: collectKeys.all });
  return useMutation(withCallerConfig({ mutationFn: deleteCollect, onSettled: invalidate }, mutationConfig));
}
