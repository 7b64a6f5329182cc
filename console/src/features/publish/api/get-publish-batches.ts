// The publish records (GetPublishBatchesByPage, GetPublishBatchListings) and the batch just submitted (GetPublishBatch):
// refetched when the live progress stream reports a batch ("publishBatch"); while the stream is down and a batch shown
// is queued or running, asked again (shared/publish/batch.ts says which are).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { isBatchRunning, isListingWaiting } from "#shared/publish/batch.ts";
import { api } from "../../../lib/feature-api.ts";
import { liveProgressMeta, pollUnlessLive } from "../../../lib/live-progress.ts";

/** How often a screen with a running batch asks again while the live progress stream is down. */
export const BATCH_POLL_MS = 2000;

export type PublishBatchesQuery = Parameters<typeof api.meliStatNew.getPublishBatchesByPage>[0];
export type BatchListingsQuery = Parameters<typeof api.meliStatNew.getPublishBatchListings>[0];

export const publishBatchKeys = {
  all: ["publish-batches"] as const,
  list: (q: PublishBatchesQuery) => [...publishBatchKeys.all, "list", q] as const,
  one: (batchId: string) => [...publishBatchKeys.all, "one", batchId] as const,
  listings: (q: BatchListingsQuery) => [...publishBatchKeys.all, "listings", q] as const,
};

const getPublishBatchesQueryOptions = (q: PublishBatchesQuery) =>
  queryOptions({
    queryKey: publishBatchKeys.list(q),
    queryFn: ({ signal }) => api.meliStatNew.getPublishBatchesByPage(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("publishBatch"),
    refetchInterval: (query) => (query.state.data?.items.some((b) => isBatchRunning(b.status)) ? pollUnlessLive(BATCH_POLL_MS) : false),
  });

export const usePublishBatches = (q: PublishBatchesQuery, enabled = true) => useQuery({ ...getPublishBatchesQueryOptions(q), enabled });

/** One of the caller's batches by its id (GetPublishBatch): the publish screen follows the batch it submitted. */
const getPublishBatchQueryOptions = (batchId: string) =>
  queryOptions({
    queryKey: publishBatchKeys.one(batchId),
    queryFn: ({ signal }) => api.meliStatNew.getPublishBatch({ batchId }, { signal }),
    meta: liveProgressMeta("publishBatch"),
    refetchInterval: (query) => (query.state.data && isBatchRunning(query.state.data.status) ? pollUnlessLive(BATCH_POLL_MS) : false),
  });

export const usePublishBatch = (batchId: string) => useQuery(getPublishBatchQueryOptions(batchId));

const getBatchListingsQueryOptions = (q: BatchListingsQuery) =>
  queryOptions({
    queryKey: publishBatchKeys.listings(q),
    queryFn: ({ signal }) => api.meliStatNew.getPublishBatchListings(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("publishBatch"),
    refetchInterval: (query) => (query.state.data?.items.some((l) => isListingWaiting(l.status)) ? pollUnlessLive(BATCH_POLL_MS) : false),
  });

export const useBatchListings = (q: BatchListingsQuery | null) =>
  useQuery({ ...getBatchListingsQueryOptions(q ?? { batchId: "" }), enabled: !!q });
