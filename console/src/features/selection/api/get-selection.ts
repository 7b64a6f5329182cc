// The selection library (/proudcts/selection, host only): watched competitor listings with their trend. The list asks
// again while a listing's read is due (just added, or 加入选品库 again to read it now), so its row fills in by itself.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { CompetitorListing } from "#shared/contract/selection.ts";
import { api } from "../../../lib/feature-api.ts";

export type SelectionQuery = Parameters<typeof api.meliSelectionSku.getMeliSelectionSku>[0];

/** How often the list asks again while a read is due. */
const SELECTION_POLL_MS = 3000;
/** A read this long overdue is not waited for (the job is failing or the workers are down): the host refreshes by hand. */
const WAIT_AT_MOST_MS = 10 * 60_000;
/** How far the browser's clock may be behind the server's (the next read is set by the server's). */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Whether a listing's read is due now: never read, or asked to be read again, and not read since. */
export function readDue(l: Pick<CompetitorListing, "lastReadTime" | "nextReadTime">, now = Date.now()): boolean {
  const next = Date.parse(l.nextReadTime);
  if (!(next <= now + CLOCK_SKEW_MS) || now - next > WAIT_AT_MOST_MS) return false;
  return !l.lastReadTime || Date.parse(l.lastReadTime) < next;
}

export const selectionKeys = {
  all: ["selection"] as const,
  list: (q: SelectionQuery) => [...selectionKeys.all, "list", q] as const,
};

const getSelectionQueryOptions = (q: SelectionQuery) =>
  queryOptions({
    queryKey: selectionKeys.list(q),
    queryFn: ({ signal }) => api.meliSelectionSku.getMeliSelectionSku(q, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((l) => readDue(l)) ? SELECTION_POLL_MS : false),
  });

export const useSelection = (q: SelectionQuery) => useQuery(getSelectionQueryOptions(q));
