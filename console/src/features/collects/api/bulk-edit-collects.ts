// The collection list's bulk actions (delete, set status, move to the product centre, screen for infringement) over
// the chosen ids or every collection matching the filter, sent a thousand ids per call (the calls' limit) with the
// answers summed. The list is reloaded whatever the outcome: a failed slice leaves the earlier ones done.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MAX_PAGE_SIZE } from "#shared/contract/common.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { chunks } from "../format.ts";
import { collectKeys, fetchAllCollectIds, type CollectsFilter } from "./get-collects.ts";

/** Which collections a bulk action works on: the chosen ids, or every one matching the filter. */
export type BulkTarget = { ids: string[] } | { filter: CollectsFilter };
const idsOf = async (t: BulkTarget) => ("ids" in t ? t.ids : fetchAllCollectIds(t.filter));

async function inSlices<R>(ids: string[], run: (slice: string[]) => Promise<R>, sum: (a: R, b: R) => R, empty: R): Promise<R> {
  let total = empty;
  for (const slice of chunks(ids, MAX_PAGE_SIZE)) total = sum(total, await run(slice));
  return total;
}

const addCount = (a: { count: number }, b: { count: number }) => ({ count: a.count + b.count });

export const batchDeleteCollects = async (t: BulkTarget) =>
  inSlices(await idsOf(t), (ids) => api.collect.batchDeleteCollects({ ids }), addCount, { count: 0 });

export const batchUpdateCollectStatus = async ({ target, status }: { target: BulkTarget; status: number }) =>
  inSlices(await idsOf(target), (ids) => api.collect.batchUpdateCollectStatus({ ids, status }), addCount, { count: 0 });

export const migrateToProducts = async (t: BulkTarget) =>
  inSlices(
    await idsOf(t),
    (ids) => api.collect.migrateToProduct({ ids }),
    (a, b) => ({
      successCount: a.successCount + b.successCount,
      ignoreCount: a.ignoreCount + b.ignoreCount,
      productIds: [...a.productIds, ...b.productIds],
    }),
    { successCount: 0, ignoreCount: 0, productIds: [] as string[] },
  );

export const screenCollects = async (t: BulkTarget) =>
  inSlices(
    await idsOf(t),
    (ids) => api.collect.screeningforInfringement({ ids }),
    (a, b) => ({ count: a.count + b.count, flagged: a.flagged + b.flagged }),
    { count: 0, flagged: 0 },
  );

function useInvalidateCollects() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: collectKeys.all });
}

export function useBatchDeleteCollects({ mutationConfig }: MutationHookOptions<typeof batchDeleteCollects> = {}) {
  const invalidate = useInvalidateCollects();
  return useMutation(withCallerConfig({ mutationFn: batchDeleteCollects, onSettled: invalidate }, mutationConfig));
}

export function useBatchUpdateCollectStatus({ mutationConfig }: MutationHookOptions<typeof batchUpdateCollectStatus> = {}) {
  const invalidate = useInvalidateCollects();
  return useMutation(withCallerConfig({ mutationFn: batchUpdateCollectStatus, onSettled: invalidate }, mutationConfig));
}

export function useMigrateToProducts({ mutationConfig }: MutationHookOptions<typeof migrateToProducts> = {}) {
  const invalidate = useInvalidateCollects();
  return useMutation(withCallerConfig({ mutationFn: migrateToProducts, onSettled: invalidate }, mutationConfig));
}

export function useScreenCollects({ mutationConfig }: MutationHookOptions<typeof screenCollects> = {}) {
  const invalidate = useInvalidateCollects();
  return useMutation(withCallerConfig({ mutationFn: screenCollects, onSettled: invalidate }, mutationConfig));
}
