// Putting queued URLs back in the queue and deleting them; the queue's queries follow whatever the outcome.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { urlKeys } from "./get-url-queue.ts";

/** The given URLs, or (ids null) every failed one. */
export const reCrawlUrls = (ids: string[] | null) => api.aquiredUrl.reCrwalUrls({ ids });
export const deleteUrls = (ids: string[]) => api.aquiredUrl.delete({ ids });

function useInvalidateUrls() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: urlKeys.all });
}

export function useReCrawlUrls({ mutationConfig }: MutationHookOptions<typeof reCrawlUrls> = {}) {
  const invalidate = useInvalidateUrls();
  return useMutation(withCallerConfig({ mutationFn: reCrawlUrls, onSettled: invalidate }, mutationConfig));
}

export function useDeleteUrls({ mutationConfig }: MutationHookOptions<typeof deleteUrls> = {}) {
  const invalidate = useInvalidateUrls();
  return useMutation(withCallerConfig({ mutationFn: deleteUrls, onSettled: invalidate }, mutationConfig));
}
