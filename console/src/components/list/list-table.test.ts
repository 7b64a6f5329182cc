// The table wiring a list screen spreads into DataTable: its rows and pager from the page query and the list's paging,
// and the spinner only while no settled page of the list is at hand.
import { describe, expect, it } from "vitest";
import { listTable, type PageQuery } from "./list-table.ts";

const page = (items: string[], totalCount = items.length) => ({ items, totalCount });
const query = (q: Partial<PageQuery<string>>): PageQuery<string> => ({ isFetching: false, isPlaceholderData: false, ...q });
const changes: [number, number][] = [];
const list = { state: { page: 3, size: 50 }, onPageChange: (p: number, s: number) => void changes.push([p, s]) };

describe("listTable", () => {
  it("hands over the page's rows and a pager on the list's page, size and total", () => {
    const table = listTable(query({ data: page(["a", "b"], 120) }), list, [20, 50, 100]);
    expect(table.rows).toEqual(["a", "b"]);
    expect(table.loading).toBe(false);
    const { onChange, ...pager } = table.pagination;
    expect(pager).toEqual({ page: 3, pageSize: 50, total: 120, pageSizeOptions: [20, 50, 100] });
    onChange(1, 100);
    expect(changes).toEqual([[1, 100]]);
  });

  it("leaves the page sizes to DataTable when the list names none", () => {
    expect("pageSizeOptions" in listTable(query({ data: page([]) }), list).pagination).toBe(false);
  });

  it("has no rows and a zero total before the first answer, and spins while it is read", () => {
    const table = listTable(query({ isFetching: true }), list);
    expect(table.rows).toEqual([]);
    expect(table.pagination.total).toBe(0);
    expect(table.loading).toBe(true);
  });

  it("spins while a new page or filter still shows the previous rows", () => {
    expect(listTable(query({ data: page(["old"]), isFetching: true, isPlaceholderData: true }), list).loading).toBe(true);
  });

  it("keeps what is shown, an empty list too, while its own page is read again in the background", () => {
    expect(listTable(query({ data: page(["a"]), isFetching: true }), list).loading).toBe(false);
    expect(listTable(query({ data: page([]), isFetching: true }), list).loading).toBe(false);
  });
});
