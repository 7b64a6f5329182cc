// Margin that follows the rate (issue 32): the margin drift of listings (GetMarginDrift: a page's named listings for
// the margin column, or the list's filter with a margin filter), and 重新定价 (Reprice: a dry run's preview, then the
// batch with the dialog's Idempotency-Key) and its undo (UndoReprice). Both refresh the listing queries.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { api } from "../../../lib/feature-api.ts";
import { liveProgressMeta } from "../../../lib/live-progress.ts";
import { useSubmitKey } from "../../../lib/query-client.ts";
import { listingKeys, useListingMutation, type ListingKind } from "./listings.ts";

const calls = (kind: ListingKind) => (kind === "cbt" ? api.meliStatNewListing : api.meliStatListing);
export type MarginDriftQuery = Parameters<typeof api.meliStatListing.getMarginDrift>[0];
export type RepriceBody = Parameters<typeof api.meliStatListing.reprice>[0];

const getMarginDriftQueryOptions = (kind: ListingKind, q: MarginDriftQuery) =>
  queryOptions({
    queryKey: [...listingKeys.all, kind, "marginDrift", q] as const,
    queryFn: ({ signal }) => calls(kind).getMarginDrift(q, { signal }),
    placeholderData: keepPreviousData,
    meta: liveProgressMeta("task"),
  });

export const useMarginDrift = (kind: ListingKind, q: MarginDriftQuery, enabled = true) =>
  useQuery({ ...getMarginDriftQueryOptions(kind, q), enabled });

/** Reprice's dry run: what it would set (nothing changed). */
export const previewReprice = (kind: ListingKind, body: RepriceBody) => calls(kind).reprice({ ...body, dryRun: true });

export function useReprice(kind: ListingKind) {
  const run = useSubmitKey((body: RepriceBody, o: CallOptions) => calls(kind).reprice({ ...body, dryRun: false }, o));
  return useListingMutation(run, "success");
}

export function useUndoReprice(kind: ListingKind) {
  const run = useSubmitKey((taskId: string, o: CallOptions) => calls(kind).undoReprice({ taskId }, o));
  return useListingMutation(run, "success");
}
