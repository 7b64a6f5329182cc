// Starting the host's category jobs: the sync of one site or all (UpdateAllCategory: trees, attributes and fees) and
// the Chinese names (AckCategory). The server answers the job already running instead of starting a second one.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { categorySyncKeys } from "./get-sync-status.ts";

/** Without a site: every site. */
export const startSync = (site?: number) => api.meliCategory.updateAllCategory(site ? { sites: [site] } : {});
export const startChineseNames = () => api.meliCategory.ackCategory({});

function useFollowTask() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: categorySyncKeys.latestTask() });
}

export function useStartSync({ mutationConfig }: MutationHookOptions<typeof startSync> = {}) {
  const follow = useFollowTask();
  return useMutation(withCallerConfig({ mutationFn: startSync, onSuccess: () => follow() }, mutationConfig));
}

export function useStartChineseNames({ mutationConfig }: MutationHookOptions<typeof startChineseNames> = {}) {
  const follow = useFollowTask();
  return useMutation(withCallerConfig({ mutationFn: startChineseNames, onSuccess: () => follow() }, mutationConfig));
}
