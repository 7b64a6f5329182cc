// The publish records (GetPublishBatchesByPage, GetPublishBatchListings): refetched when the live progress stream
// reports a batch ("publishBatch"); while the stream is down and a batch shown is queued or running, asked again.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { api } from "../../../lib/feature-api.ts";
import { liveProgressMeta, pollUnlessLive } from "../../../lib/live-progress.ts";

/** How often a screen with a running batch asks again while the live progress stream is down. */
export const BATCH_POLL_MS = 2000;

export type PublishBatchesQuery = Parameters<typeof api.meliStatNew.getPublishBatchesByPage>[0];
export type BatchListingsQuery = Parameters<typeof api.meliStatNew.getPublishBatchListings>[0];

export const publishBatchKeys = {
  all: ["publish-batches"] as const,
  list: (q: PublishBatchesQuery) => [...publishBatchKeys.all, "list", q] as const,
  listings: (q: BatchListingsQuery) => [...publishBatchKeys.all, "listings", q] as const,
};

export const isBatchRunning = (status: number) => status === PublishBatchStatus.Queued || status === PublishBatchStatus.Running;
export const isListingWaiting = (status: number) => status === ListingStatus.Pending || status === ListingStatus.Publishing;

export const getPublishBatchesQueryOptions = (q: PublishBatchesQuery) =>
  queryOptions({
    queryKey: publishBatchKeys.list(q),
    queryFn: ({ signal }) => api.meliStatNew.getPublishBatchesByPage(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("publishBatch"),
    refetchInterval: (query) => (query.state.data?.items.some((b) => isBatchRunning(b.status)) ? pollUnlessLive(BATCH_POLL_MS) : false),
  });

export const usePublishBatches = (q: PublishBatchesQuery, enabled = true) => useQuery({ ...getPublishBatchesQueryOptions(q), enabled });

export const getBatchListingsQueryOptions = (q: BatchListingsQuery) =>
  queryOptions({
    queryKey: publishBatchKeys.listings(q),
    queryFn: ({ signal }) => api.meliStatNew.getPublishBatchListings(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("publishBatch"),
    refetchInterval: (query) => (query.state.data?.items.some((l) => isListingWaiting(l.status)) ? pollUnlessLive(BATCH_POLL_MS) : false),
  });

export const useBatchListings = (q: BatchListingsQuery | null) =>
  useQuery({ ...getBatchListingsQueryOptions(q ?? { batchId: "" }), enabled: !!q });
