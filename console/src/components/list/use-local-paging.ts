// The paging of a list inside a drawer or a dialog, kept in the component rather than the URL: such a list belongs to
// the row it was opened for, so its page is neither a link nor something the back button should step through, and
// closing it forgets it (reset). It changes like a URL list's (useListUrlState): a new page size starts at page 1.
import { useCallback, useState } from "react";

export function useLocalPaging(initialSize: number) {
  const [paging, setPaging] = useState({ page: 1, size: initialSize });
  const setPage = useCallback((page: number) => setPaging((p) => (p.page === page ? p : { ...p, page })), []);
  /** The table pager's change. */
  const onPageChange = useCallback(
    (page: number, size: number) => setPaging((p) => (size === p.size ? { ...p, page } : { page: 1, size })),
    [],
  );
  /** Back to the first page at the first size (the drawer or dialog closed). */
  const reset = useCallback(() => setPaging({ page: 1, size: initialSize }), [initialSize]);
  return { ...paging, setPage, onPageChange, reset };
}
