// @vitest-environment happy-dom
// The list kit's URL state as a screen uses it: the schema's defaults and fallbacks, defaults left out of the URL,
// changes going back to page 1, the reset, the page clamp and the selection reset on a new filter.
import { act, cleanup, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ALL, choiceParam, dateParam, idParam, isGuid, pageParam, pageSizeParam, textParam } from "./url-params.ts";
import { useListSelection } from "./use-list-selection.ts";
import { useKeepPageInRange } from "./use-keep-page-in-range.ts";
import {
  defaultListState,
  hasListFilter,
  readListState,
  useListUrlState,
  useReplaceSearchParams,
  writeListState,
} from "./use-list-url-state.ts";

afterEach(cleanup);

const ID = "3FA85F64-5717-4562-B3FC-2C963F66AFA6";
const schema = z.object({
  q: textParam(10),
  status: choiceParam([1, 2]),
  user: idParam(),
  from: dateParam(),
  sort: choiceParam(["name asc", "name desc"], ""),
  page: pageParam(),
  size: pageSizeParam([10, 20, 50], 20),
});

describe("the URL schema", () => {
  it("reads defaults for missing and broken params", () => {
    const empty = { q: "", status: ALL, user: ALL, from: "", sort: "", page: 1, size: 20 };
    expect(defaultListState(schema)).toEqual(empty);
    expect(readListState(schema, new URLSearchParams("status=3&user=bob&from=2024-02-30&sort=x&page=0&size=7"))).toEqual(empty);
    expect(readListState(schema, new URLSearchParams(`q=abcdefghijklmn&status=2&user=${ID}&from=2024-02-29&page=4&size=50`))).toEqual({
      ...empty,
      q: "abcdefghij",
      status: "2",
      user: ID.toLowerCase(),
      from: "2024-02-29",
      page: 4,
      size: 50,
    });
  });

  it("leaves defaults out of the URL, trims text and keeps params it does not own", () => {
    const state = { ...defaultListState(schema), q: " shoe ", status: "1", page: 1 };
    expect(writeListState(schema, new URLSearchParams("tab=groups&page=3"), state).toString()).toBe("tab=groups&q=shoe&status=1");
  });

  it("tells a filter from paging and sorting", () => {
    const state = defaultListState(schema);
    expect(hasListFilter(schema, { ...state, page: 3, size: 50, sort: "name asc" })).toBe(false);
    expect(hasListFilter(schema, { ...state, q: "  " })).toBe(false);
    expect(hasListFilter(schema, { ...state, status: "1" })).toBe(true);
  });

  it("checks GUIDs in any case", () => {
    expect(isGuid(ID)).toBe(true);
    expect(isGuid(ID.toLowerCase())).toBe(true);
    expect(isGuid("3fa85f64")).toBe(false);
  });
});

function renderList(url: string, total?: { value: number | undefined }) {
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;
  return renderHook(
    () => {
      const list = useListUrlState(schema, useReplaceSearchParams());
      useKeepPageInRange(list.state, total?.value, list.setPage);
      const selection = useListSelection(list.filterKey);
      const location = useLocation();
      return { list, selection, url: location.pathname + location.search };
    },
    { wrapper },
  );
}

describe("useListUrlState", () => {
  it("goes back to page 1 on a filter change, keeps the filters on a page change", () => {
    const { result } = renderList("/shops?page=3&status=1");
    expect(result.current.list.state).toMatchObject({ page: 3, status: "1" });
    act(() => result.current.list.update({ page: 4 }));
    expect(result.current.url).toBe("/shops?page=4&status=1");
    act(() => result.current.list.update({ q: "bag" }));
    expect(result.current.url).toBe("/shops?status=1&q=bag");
    expect(result.current.list.filtered).toBe(true);
  });

  it("starts again at page 1 when the page size changes", () => {
    const { result } = renderList("/shops?page=3");
    act(() => result.current.list.onPageChange(3, 50));
    expect(result.current.url).toBe("/shops?size=50");
    act(() => result.current.list.onPageChange(2, 50));
    expect(result.current.url).toBe("/shops?size=50&page=2");
  });

  it("resets every filter and the order, keeping the page size", () => {
    const { result } = renderList("/shops?q=bag&status=2&sort=name+asc&page=2&size=50");
    act(() => result.current.list.reset());
    expect(result.current.url).toBe("/shops?size=50");
    expect(result.current.list.filtered).toBe(false);
  });

  it("moves a page past the end to the last page once the total is known", () => {
    const total: { value: number | undefined } = { value: undefined };
    const { result, rerender } = renderList("/shops?page=5", total);
    expect(result.current.list.state.page).toBe(5);
    total.value = 45;
    rerender();
    expect(result.current.url).toBe("/shops?page=3");
    total.value = 0;
    rerender();
    expect(result.current.url).toBe("/shops");
  });

  it("starts a new selection when the filter changes, not when the page does", () => {
    const { result } = renderList("/shops");
    act(() => result.current.selection.table(["a", "b"]).onChange(new Set(["a"])));
    act(() => result.current.list.update({ page: 2 }));
    expect([...result.current.selection.selected]).toEqual(["a"]);
    act(() => result.current.selection.selectAllMatching());
    expect(result.current.selection.count(120)).toBe(120);
    expect([...result.current.selection.table(["c", "d"]).selected]).toEqual(["c", "d"]);
    act(() => result.current.list.update({ status: "2" }));
    expect(result.current.selection.selected.size).toBe(0);
    expect(result.current.selection.allMatching).toBe(false);
  });

  it("drops a deleted row from the selection", () => {
    const { result } = renderList("/shops");
    act(() => result.current.selection.table(["a", "b"]).onChange(new Set(["a", "b"])));
    act(() => result.current.selection.deselect("a"));
    expect([...result.current.selection.selected]).toEqual(["b"]);
  });
});
