// A list's page kept within its total: the URL lists' and the local ones' (a dialog's or a tab's own paging).
import { useEffect } from "react";

/** The total a query settled on, or undefined while it is loading, showing the previous page's data, or only a cap. */
export const settledTotal = (query: { data?: { totalCount: number }; isPlaceholderData: boolean }, capped = false) =>
  query.data && !query.isPlaceholderData && !capped ? query.data.totalCount : undefined;

/** A page past the end (after a delete, a narrower filter or an old link) moves to the last page once the total is
 *  known (settledTotal). setPage must keep its identity (a state setter, or the list's own setPage). */
export function useKeepPageInRange(paging: { page: number; size: number }, total: number | undefined, setPage: (page: number) => void) {
  const lastPage = total === undefined ? undefined : Math.max(1, Math.ceil(total / paging.size));
  const { page } = paging;
  useEffect(() => {
    if (lastPage !== undefined && page > lastPage) setPage(lastPage);
  }, [lastPage, page, setPage]);
}
