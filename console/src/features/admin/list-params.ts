// A list's filters, sorting and paging as URL search params (?q=&active=&sort=&page=&size=), so a reload or a shared
// link shows the same page (the admin screens are not cached tabs, so the URL is theirs alone). Unknown or broken values
// fall back to the defaults; changing a filter goes back to page 1.
import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";
import { PAGE_SIZE_OPTIONS } from "@shared/ui/data-table.tsx";

export type ActiveFilter = "all" | "active" | "inactive";

export type ListParams = {
  search: string;
  active: ActiveFilter;
  /** One of the list's sort options (its value is the server's Sorting). */
  sort: string;
  /** 1-based. */
  page: number;
  pageSize: number;
};

export const DEFAULT_PAGE_SIZE = 10;

export function readListParams(params: URLSearchParams, sorts: readonly string[]): ListParams {
  const active = params.get("active");
  const sort = params.get("sort") ?? "";
  const page = Number(params.get("page"));
  const size = Number(params.get("size"));
  return {
    search: params.get("q") ?? "",
    active: active === "active" || active === "inactive" ? active : "all",
    sort: sorts.includes(sort) ? sort : (sorts[0] ?? ""),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZE_OPTIONS.includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** The state written onto a copy of the params; defaults are left out so a plain visit keeps a clean URL. */
export function writeListParams(params: URLSearchParams, state: ListParams, sorts: readonly string[]): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: string, value: string | null) => (value === null ? next.delete(key) : next.set(key, value));
  put("q", state.search.trim() ? state.search.trim() : null);
  put("active", state.active === "all" ? null : state.active);
  put("sort", state.sort && state.sort !== sorts[0] ? state.sort : null);
  put("page", state.page > 1 ? String(state.page) : null);
  put("size", state.pageSize !== DEFAULT_PAGE_SIZE ? String(state.pageSize) : null);
  return next;
}

/** The paging part of a server query. */
export const pagingOf = (p: ListParams) => ({ SkipCount: (p.page - 1) * p.pageSize, MaxResultCount: p.pageSize });

/** [state, update]: update merges a change; any change but a page change goes back to page 1. */
export function useListParams(sorts: readonly string[] = []) {
  const [params, setParams] = useSearchParams();
  const state = readListParams(params, sorts);
  const update = useCallback(
    (change: Partial<ListParams>) => {
      setParams(
        (prev) => {
          const current = readListParams(prev, sorts);
          const page = change.page ?? (Object.keys(change).length ? 1 : current.page);
          return writeListParams(prev, { ...current, ...change, page }, sorts);
        },
        { replace: true },
      );
    },
    [setParams, sorts],
  );
  return [state, update] as const;
}
