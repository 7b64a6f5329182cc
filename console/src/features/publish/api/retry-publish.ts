// RetryPublish from the publish records: a batch's refused, failed and skipped listings (or the ones picked in its
// drawer) published again with the products as they are now. One Idempotency-Key per retry asked for: sending the same
// retry again after a lost answer is answered by the same batch and retries nothing twice.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { PublishBatch } from "#shared/contract/publish.ts";
import { isBatchRunning } from "#shared/publish/batch.ts";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { publishBatchKeys } from "./get-publish-batches.ts";

export type RetryPublishInput = Parameters<typeof api.meliStatNew.retryPublish>[0];

/** The listings a retry sends again (the server's RETRYABLE_STATUSES). */
export const isListingRetryable = (status: number) =>
  status === ListingStatus.Refused || status === ListingStatus.Failed || status === ListingStatus.Skipped;

/** How many listings of a finished batch a retry would send again (none while it runs). */
export const retryableCount = (b: PublishBatch) => (isBatchRunning(b.status) ? 0 : b.fail + b.skipped);

export const retryPublish = (input: RetryPublishInput, options?: CallOptions) => api.meliStatNew.retryPublish(input, options);

export function useRetryPublish({ mutationConfig }: MutationHookOptions<typeof retryPublish> = {}) {
  const queryClient = useQueryClient();
  const mutationFn = useSubmitKey(retryPublish);
  return useMutation(
    withCallerConfig({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: publishBatchKeys.all }) }, mutationConfig),
  );
}
