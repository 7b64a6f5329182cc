// What a list screen hands its DataTable from the page query and the list's paging: the rows, whether to show the
// spinner and the pager. `<DataTable {...listTable(query, listState, SIZES)} … />`; a screen that shows other rows
// (listing-centre's expanded sites) sets `rows` after the spread.
import type { DataTablePagination } from "#shared/ui/data-table.tsx";

/** What a list reads of its page query (useQuery's answer). */
export type PageQuery<T> = {
  data?: { items: T[]; totalCount: number };
  isFetching: boolean;
  isPlaceholderData: boolean;
};

/** The list's page and size and the pager's change: useListUrlState's answer, or `{ state: paging, onPageChange }` for a
 *  list that pages on its own (useLocalPaging). */
export type ListPaging = {
  state: { page: number; size: number };
  onPageChange: (page: number, size: number) => void;
};

export type ListTable<T> = { rows: T[]; loading: boolean; pagination: DataTablePagination };

/** Without pageSizeOptions the pager offers DataTable's default sizes. */
export function listTable<T>(query: PageQuery<T>, list: ListPaging, pageSizeOptions?: number[]): ListTable<T> {
  return {
    rows: query.data?.items ?? [],
    // The spinner only while no page of this list's own is at hand: the first read, or a new page or filter still
    // showing the previous rows. A refetch in the background (polling, 刷新, a change elsewhere) keeps what is shown,
    // an empty list's text included, so a polled empty list does not blink.
    loading: query.isFetching && (!query.data || query.isPlaceholderData),
    pagination: {
      page: list.state.page,
      pageSize: list.state.size,
      total: query.data?.totalCount ?? 0,
      onChange: list.onPageChange,
      ...(pageSizeOptions ? { pageSizeOptions } : {}),
    },
  };
}
