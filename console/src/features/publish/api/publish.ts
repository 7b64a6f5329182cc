// The publish screen's calls: the pre-flight check and profit preview (PreflightPublish: nothing is sent to Mercado
// Libre), and Publish (one Idempotency-Key per submitted request: sending the same request again after a lost answer
// is answered by the same batch).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { publishBatchKeys } from "./get-publish-batches.ts";

export type PublishInput = Parameters<typeof api.meliStatNew.publish>[0];

export const preflightPublish = (input: PublishInput) => api.meliStatNew.preflightPublish(input);

export function usePreflightPublish({ mutationConfig }: MutationHookOptions<typeof preflightPublish> = {}) {
  return useMutation(withCallerConfig({ mutationFn: preflightPublish }, mutationConfig));
}

export const publishProducts = (input: PublishInput, options?: CallOptions) => api.meliStatNew.publish(input, options);

export function usePublish({ mutationConfig }: MutationHookOptions<typeof publishProducts> = {}) {
  const queryClient = useQueryClient();
  const mutationFn = useSubmitKey(publishProducts);
  return useMutation(
    withCallerConfig({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: publishBatchKeys.all }) }, mutationConfig),
  );
}
