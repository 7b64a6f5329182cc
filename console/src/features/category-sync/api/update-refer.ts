// A category's reference name for sellers (UpdateRefer; blank clears it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { categorySyncKeys } from "./get-sync-status.ts";

export const updateRefer = (q: { site: number; cateId: string; refer: string }) => api.meliCategory.updateRefer(q);

export function useUpdateRefer({ mutationConfig }: MutationHookOptions<typeof updateRefer> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: updateRefer, onSuccess: () => queryClient.invalidateQueries({ queryKey: categorySyncKeys.categoryLists() }) },
      mutationConfig,
    ),
  );
}
