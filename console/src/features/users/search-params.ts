// The sub-account list's filters and paging as URL search params (?q=&active=&page=&size=&tab=), so a reload or a
// shared link shows the same page. Unknown or broken values fall back to the defaults.
import { PAGE_SIZE_OPTIONS } from "@shared/ui/data-table.tsx";

export type ActiveFilter = "all" | "active" | "inactive";
export type SubAccountsTab = "list" | "stats";

export type SubUserListState = {
  search: string;
  active: ActiveFilter;
  /** 1-based. */
  page: number;
  pageSize: number;
};

export const DEFAULT_PAGE_SIZE = 10;

export function readListState(params: URLSearchParams): SubUserListState {
  const active = params.get("active");
  const page = Number(params.get("page"));
  const size = Number(params.get("size"));
  return {
    search: params.get("q") ?? "",
    active: active === "active" || active === "inactive" ? active : "all",
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZE_OPTIONS.includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** Writes the list state onto a copy of the params; defaults are left out so a plain visit keeps a clean URL. */
export function writeListState(params: URLSearchParams, state: SubUserListState): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: string, value: string | null) => (value === null ? next.delete(key) : next.set(key, value));
  put("q", state.search.trim() ? state.search.trim() : null);
  put("active", state.active === "all" ? null : state.active);
  put("page", state.page > 1 ? String(state.page) : null);
  put("size", state.pageSize !== DEFAULT_PAGE_SIZE ? String(state.pageSize) : null);
  return next;
}

export function readTab(params: URLSearchParams): SubAccountsTab {
  return params.get("tab") === "stats" ? "stats" : "list";
}

/** The GetSubUsers query of a list state. */
export function toSubUsersQuery(state: SubUserListState) {
  return {
    ...(state.search.trim() ? { Search: state.search.trim() } : {}),
    ...(state.active === "all" ? {} : { IsActive: state.active === "active" }),
    SkipCount: (state.page - 1) * state.pageSize,
    MaxResultCount: state.pageSize,
  };
}

/** The statistics date range (yyyy-mm-dd, blank = open end); without from/to in the URL, the last 30 days. */
export type StatsRange = { start: string; end: string };
export const DEFAULT_STATS_DAYS = 30;

export function readStatsRange(params: URLSearchParams, fallback: StatsRange): StatsRange {
  if (!params.has("from") && !params.has("to")) return fallback;
  return { start: params.get("from") ?? "", end: params.get("to") ?? "" };
}

export function writeStatsRange(params: URLSearchParams, range: StatsRange): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set("from", range.start);
  next.set("to", range.end);
  return next;
}
