// The listing centre's calls (MeliStat for local shops' listings, MeliStatNew for cross-border ones): the list and its
// tab counts, refetched when a task reports progress (a batch edit or a sync changes rows; polled while the stream is
// down and a task of this screen runs), a listing's call log, single edits, batch edits and syncs. Every edit refreshes
// the listing queries whatever its outcome: a refused edit may still have re-read the listing.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type UseMutationOptions } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { api } from "../../../lib/feature-api.ts";
import { liveProgressMeta } from "../../../lib/live-progress.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

/** Which group of calls a list uses: local shops (MeliStat) or cross-border shops (MeliStatNew). */
export type ListingKind = "local" | "cbt";
const calls = (kind: ListingKind) => (kind === "cbt" ? api.meliStatNewListing : api.meliStatListing);

export type ListingsQuery = Parameters<typeof api.meliStatListing.getMeliStatsByPage>[0];
export type ListingGroupQuery = Parameters<typeof api.meliStatListing.getMeliStatGroupInfo>[0];
type Calls = typeof api.meliStatListing;
type BodyOf<C extends keyof Calls> = Parameters<Calls[C]>[0];

/** A page of one listing's calls. */
export type ListingLogsQuery = { listingId: string; page: number; size: number };

export const listingKeys = {
  all: ["listings"] as const,
  list: (kind: ListingKind, q: ListingsQuery) => [...listingKeys.all, kind, "list", q] as const,
  groups: (kind: ListingKind, q: ListingGroupQuery) => [...listingKeys.all, kind, "groups", q] as const,
  meliPricePreview: (kind: ListingKind, ids: string[], limitMinPrice: number | null) =>
    [...listingKeys.all, kind, "meliPricePreview", ids, limitMinPrice] as const,
  logs: (q: ListingLogsQuery) => [...listingKeys.all, "logs", q] as const,
  log: (id: string) => [...listingKeys.all, "log", id] as const,
};

export const getListingsQueryOptions = (kind: ListingKind, q: ListingsQuery) =>
  queryOptions({
    queryKey: listingKeys.list(kind, q),
    queryFn: ({ signal }) => calls(kind).getMeliStatsByPage(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("task", "publishBatch"),
  });

export const useListings = (kind: ListingKind, q: ListingsQuery, enabled = true) =>
  useQuery({ ...getListingsQueryOptions(kind, q), enabled });

const getListingGroupsQueryOptions = (kind: ListingKind, q: ListingGroupQuery) =>
  queryOptions({
    queryKey: listingKeys.groups(kind, q),
    queryFn: ({ signal }) => calls(kind).getMeliStatGroupInfo(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("task", "publishBatch"),
  });

export const useListingGroups = (kind: ListingKind, q: ListingGroupQuery) => useQuery(getListingGroupsQueryOptions(kind, q));

export const LOG_PAGE_SIZE = 20;

/** The Mercado Libre calls made for one listing, newest first (MeliStatLog GetLogsByPage). */
const getListingLogsQueryOptions = (q: ListingLogsQuery) =>
  queryOptions({
    queryKey: listingKeys.logs(q),
    queryFn: ({ signal }) =>
      api.meliStatLog.getLogsByPage(
        { ListingId: q.listingId, Sorting: "creationTime desc", SkipCount: (q.page - 1) * q.size, MaxResultCount: q.size },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/** The drawer's listing (none while it is closed) at its page. */
export const useListingLogs = (listingId: string | null, paging: { page: number; size: number }) =>
  useQuery({ ...getListingLogsQueryOptions({ listingId: listingId ?? "", ...paging }), enabled: !!listingId });

/** One call's request and answer (MeliStatLog GetLogDetail): a stored call does not change. */
const getListingLogDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: listingKeys.log(id),
    queryFn: ({ signal }) => api.meliStatLog.getLogDetail({ id }, { signal }),
    staleTime: Infinity,
  });

export const useListingLogDetail = (id: string | null) => useQuery({ ...getListingLogDetailQueryOptions(id ?? ""), enabled: !!id });

/** `refresh`: "settled" for a call that may change a listing even when refused (a single edit stores the reason): its
 *  caller reacts once the lists are read again. "success" for a batch (refused as a whole, or started as a task that
 *  has changed nothing yet): the lists are read again behind it, and its caller shows the started task at once instead
 *  of after every open listing query has come back. */
export function useListingMutation<V, R>(
  run: (input: V) => Promise<R>,
  refresh: "settled" | "success",
  mutationConfig?: Omit<UseMutationOptions<R, Error, V>, "mutationFn">,
) {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: listingKeys.all });
  return useMutation(
    withCallerConfig(
      { mutationFn: run, ...(refresh === "settled" ? { onSettled: invalidate } : { onSuccess: () => void invalidate() }) },
      mutationConfig,
    ),
  );
}

/** A listing hook's options: the caller's, for the call `Call` makes with the hook's kind bound. */
type ListingMutationOptions<Call extends (kind: ListingKind, v: never) => Promise<unknown>> = MutationHookOptions<
  (v: Parameters<Call>[1]) => ReturnType<Call>
>;

/** What BatchUpdateMeliPrice would set on a few listings (PreviewMeliPrice: computed now, nothing changed). */
const getMeliPricePreviewQueryOptions = (kind: ListingKind, ids: string[], limitMinPrice: number | null) =>
  queryOptions({
    queryKey: listingKeys.meliPricePreview(kind, ids, limitMinPrice),
    queryFn: ({ signal }) => calls(kind).previewMeliPrice({ ids, limitMinPrice }, { signal }),
    placeholderData: keepPreviousData,
  });

export const useMeliPricePreview = (kind: ListingKind, ids: string[], limitMinPrice: number | null) =>
  useQuery({ ...getMeliPricePreviewQueryOptions(kind, ids, limitMinPrice), enabled: ids.length > 0 });

/** One listing changed on Mercado Libre now (price, stock by the batch call of one id, title, status, sync, delete). */
export type SingleEdit =
  | { edit: "price"; body: BodyOf<"updateMarketPrice"> }
  | { edit: "title"; body: BodyOf<"updateMarketTitle"> }
  | { edit: "status"; body: BodyOf<"upOrDownMarket"> }
  | { edit: "delete"; body: BodyOf<"deleteMarket"> };

export const runSingleEdit = (kind: ListingKind, e: SingleEdit, options?: CallOptions) => {
  const c = calls(kind);
  switch (e.edit) {
    case "price":
      return c.updateMarketPrice(e.body, options);
    case "title":
      return c.updateMarketTitle(e.body, options);
    case "status":
      return c.upOrDownMarket(e.body, options);
    case "delete":
      return c.deleteMarket(e.body, options);
  }
};

export const syncListing = (kind: ListingKind, body: BodyOf<"syncMelistat">) => calls(kind).syncMelistat(body);

/** Removes the records only (RemoveStat / BatchDelete): the listings stay on Mercado Libre. */
export const removeRecords = (kind: ListingKind, ids: string[]) =>
  ids.length === 1 ? calls(kind).removeStat({ id: ids[0] }) : calls(kind).batchDelete({ ids });

export const useSingleEdit = (kind: ListingKind, { mutationConfig }: ListingMutationOptions<typeof runSingleEdit> = {}) =>
  useListingMutation((e: SingleEdit) => runSingleEdit(kind, e), "settled", mutationConfig);

export const useSyncListing = (kind: ListingKind, { mutationConfig }: ListingMutationOptions<typeof syncListing> = {}) =>
  useListingMutation((body: BodyOf<"syncMelistat">) => syncListing(kind, body), "settled", mutationConfig);

export const useRemoveRecords = (kind: ListingKind, { mutationConfig }: ListingMutationOptions<typeof removeRecords> = {}) =>
  useListingMutation((ids: string[]) => removeRecords(kind, ids), "settled", mutationConfig);

/** A batch call: answers a task at once (its jobs change each listing); sent with the dialog's Idempotency-Key. */
export type BatchEdit =
  | { edit: "price"; body: BodyOf<"batchUpdatePriceDirect"> }
  | { edit: "meliPrice"; body: BodyOf<"batchUpdateMeliPrice"> }
  | { edit: "stock"; body: BodyOf<"batchUpdateStock"> }
  | { edit: "title"; body: BodyOf<"batchUpdateTitle"> }
  | { edit: "description"; body: BodyOf<"batchUpdateDescription"> }
  | { edit: "weight"; body: BodyOf<"batchUpdateWeight"> }
  | { edit: "image"; body: BodyOf<"batchUpdateImage"> }
  | { edit: "up"; body: BodyOf<"batchUp"> }
  | { edit: "down"; body: BodyOf<"batchDown"> }
  | { edit: "sync"; body: BodyOf<"batchSyncMeliStat"> };

export function runBatchEdit(kind: ListingKind, e: BatchEdit, options?: CallOptions): Promise<{ taskId: string; total: number }> {
  const c = calls(kind);
  switch (e.edit) {
    case "price":
      return c.batchUpdatePriceDirect(e.body, options);
    case "meliPrice":
      return c.batchUpdateMeliPrice(e.body, options);
    case "stock":
      return c.batchUpdateStock(e.body, options);
    case "title":
      return c.batchUpdateTitle(e.body, options);
    case "description":
      return c.batchUpdateDescription(e.body, options);
    case "weight":
      return c.batchUpdateWeight(e.body, options);
    case "image":
      return c.batchUpdateImage(e.body, options);
    case "up":
      return c.batchUp(e.body, options);
    case "down":
      return c.batchDown(e.body, options);
    case "sync":
      return c.batchSyncMeliStat(e.body, options);
  }
}

/** PullMarketStat: imports a shop group's listings made elsewhere (a task). */
export const pullMarket = (kind: ListingKind, body: BodyOf<"pullMarketStat">, options?: CallOptions) =>
  calls(kind).pullMarketStat(body, options);

export function useBatchEdit(kind: ListingKind, { mutationConfig }: ListingMutationOptions<typeof runBatchEdit> = {}) {
  const run = useSubmitKey((e: BatchEdit, o: CallOptions) => runBatchEdit(kind, e, o));
  return useListingMutation(run, "success", mutationConfig);
}

export function usePullMarket(kind: ListingKind, { mutationConfig }: ListingMutationOptions<typeof pullMarket> = {}) {
  const run = useSubmitKey((body: BodyOf<"pullMarketStat">, o: CallOptions) => pullMarket(kind, body, o));
  return useListingMutation(run, "success", mutationConfig);
}
