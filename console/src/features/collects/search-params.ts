// The filters and paging of the collection list and the task list as URL search params, so a reload or a shared link
// shows the same page. Unknown or broken values fall back to the defaults; defaults are left out of the URL.
import { TaskStatus } from "@shared/contract/enums.ts";
import { collectStatusOptions, platformOptions } from "./labels.ts";
import { localDayRange, parseLocalDate } from "../../lib/format.ts";

/** Page sizes of the collection list; from VIRTUALIZE_FROM on, the table renders only the rows in view. */
export const COLLECT_PAGE_SIZES = [20, 50, 100, 200, 500];
export const COLLECT_DEFAULT_PAGE_SIZE = 20;
export const VIRTUALIZE_FROM = 100;
export const TASK_PAGE_SIZES = [20, 50, 100];
export const TASK_DEFAULT_PAGE_SIZE = 20;

const ALL = "all";

type Put = (key: string, value: string | null) => void;
const writer = (params: URLSearchParams): [URLSearchParams, Put] => {
  const next = new URLSearchParams(params);
  return [next, (key, value) => (value === null || value === "" ? next.delete(key) : next.set(key, value))];
};

const pageOf = (params: URLSearchParams) => {
  const page = Number(params.get("page"));
  return Number.isInteger(page) && page >= 1 ? page : 1;
};
const sizeOf = (params: URLSearchParams, sizes: number[], fallback: number) => {
  const size = Number(params.get("size"));
  return sizes.includes(size) ? size : fallback;
};
const dateOf = (params: URLSearchParams, key: string) => {
  const v = params.get(key) ?? "";
  return parseLocalDate(v) ? v : "";
};
const oneOf = (params: URLSearchParams, key: string, values: readonly (string | number)[]) => {
  const v = params.get(key) ?? "";
  return values.map(String).includes(v) ? v : ALL;
};
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const userOf = (params: URLSearchParams) => {
  const v = params.get("user") ?? "";
  return GUID.test(v) ? v : ALL;
};
const textOf = (params: URLSearchParams, key: string, max: number) => (params.get(key) ?? "").slice(0, max);

// ---------------------------------------------------------------------------------------------------------------
// The collection list (?from=&to=&status=&platform=&infr=&user=&q=&sku=&page=&size=).

export type CollectListState = {
  /** yyyy-mm-dd or "". */
  start: string;
  end: string;
  /** A CollectStatus value or "all". */
  status: string;
  /** A PlatformType value or "all". */
  platform: string;
  /** Infringement flag: all, yes (has a word), no. */
  infringement: "all" | "yes" | "no";
  /** A user id or "all" (main accounts only). */
  user: string;
  /** Part of the title. */
  title: string;
  /** The source item id (exact). */
  sku: string;
  page: number;
  pageSize: number;
};

export function readCollectListState(params: URLSearchParams): CollectListState {
  const infr = params.get("infr");
  return {
    start: dateOf(params, "from"),
    end: dateOf(params, "to"),
    status: oneOf(
      params,
      "status",
      collectStatusOptions.map((o) => o.value),
    ),
    platform: oneOf(
      params,
      "platform",
      platformOptions.map((o) => o.value),
    ),
    infringement: infr === "yes" || infr === "no" ? infr : ALL,
    user: userOf(params),
    title: textOf(params, "q", 200),
    sku: textOf(params, "sku", 128),
    page: pageOf(params),
    pageSize: sizeOf(params, COLLECT_PAGE_SIZES, COLLECT_DEFAULT_PAGE_SIZE),
  };
}

export function writeCollectListState(params: URLSearchParams, s: CollectListState): URLSearchParams {
  const [next, put] = writer(params);
  put("from", s.start || null);
  put("to", s.end || null);
  put("status", s.status === ALL ? null : s.status);
  put("platform", s.platform === ALL ? null : s.platform);
  put("infr", s.infringement === ALL ? null : s.infringement);
  put("user", s.user === ALL ? null : s.user);
  put("q", s.title.trim() || null);
  put("sku", s.sku.trim() || null);
  put("page", s.page > 1 ? String(s.page) : null);
  put("size", s.pageSize !== COLLECT_DEFAULT_PAGE_SIZE ? String(s.pageSize) : null);
  return next;
}

/** Whether any filter is set (paging aside). */
export const hasCollectFilter = (s: CollectListState) =>
  !!(s.start || s.end || s.title.trim() || s.sku.trim()) ||
  s.status !== ALL ||
  s.platform !== ALL ||
  s.infringement !== ALL ||
  s.user !== ALL;

/** A local day range as the collection calls name it (startDate/endDate). */
function collectDates(start: string, end: string): { startDate?: string; endDate?: string } {
  const { from, to } = localDayRange(start, end);
  return { ...(from ? { startDate: from } : {}), ...(to ? { endDate: to } : {}) };
}

/** GetCollect's filter (no paging) of a list state. */
export function toCollectFilter(s: CollectListState) {
  return {
    ...collectDates(s.start, s.end),
    ...(s.status !== ALL ? { status: Number(s.status) } : {}),
    ...(s.platform !== ALL ? { platformType: Number(s.platform) } : {}),
    ...(s.infringement !== ALL ? { hasInfringement: s.infringement === "yes" } : {}),
    ...(s.user !== ALL ? { userId: s.user } : {}),
    ...(s.title.trim() ? { title: s.title.trim() } : {}),
    ...(s.sku.trim() ? { sku: s.sku.trim() } : {}),
  };
}
export type CollectFilter = ReturnType<typeof toCollectFilter>;

export function toCollectQuery(s: CollectListState) {
  return { ...toCollectFilter(s), skipCount: (s.page - 1) * s.pageSize, maxResultCount: s.pageSize, sorting: "creationTime desc" };
}
export type CollectQuery = ReturnType<typeof toCollectQuery>;

// ---------------------------------------------------------------------------------------------------------------
// The task list (?status=&q=&sku=&from=&to=&user=&page=&size=).

export type TaskListState = {
  /** A TaskStatus value or "all". */
  status: string;
  /** Part of the URL or title. */
  search: string;
  sku: string;
  start: string;
  end: string;
  user: string;
  page: number;
  pageSize: number;
};

export function readTaskListState(params: URLSearchParams): TaskListState {
  return {
    status: oneOf(params, "status", Object.values(TaskStatus)),
    search: textOf(params, "q", 200),
    sku: textOf(params, "sku", 128),
    start: dateOf(params, "from"),
    end: dateOf(params, "to"),
    user: userOf(params),
    page: pageOf(params),
    pageSize: sizeOf(params, TASK_PAGE_SIZES, TASK_DEFAULT_PAGE_SIZE),
  };
}

export function writeTaskListState(params: URLSearchParams, s: TaskListState): URLSearchParams {
  const [next, put] = writer(params);
  put("status", s.status === ALL ? null : s.status);
  put("q", s.search.trim() || null);
  put("sku", s.sku.trim() || null);
  put("from", s.start || null);
  put("to", s.end || null);
  put("user", s.user === ALL ? null : s.user);
  put("page", s.page > 1 ? String(s.page) : null);
  put("size", s.pageSize !== TASK_DEFAULT_PAGE_SIZE ? String(s.pageSize) : null);
  return next;
}

export const hasTaskFilter = (s: TaskListState) =>
  !!(s.search.trim() || s.sku.trim() || s.start || s.end) || s.status !== ALL || s.user !== ALL;

/** GetCollectTasks' query of a list state (PascalCase query names). */
export function toTaskQuery(s: TaskListState) {
  const range = collectDates(s.start, s.end);
  return {
    ...(s.status !== ALL ? { TaskStatus: Number(s.status) } : {}),
    ...(s.search.trim() ? { Search: s.search.trim() } : {}),
    ...(s.sku.trim() ? { Sku: s.sku.trim() } : {}),
    ...(range.startDate ? { StartDate: range.startDate } : {}),
    ...(range.endDate ? { EndDate: range.endDate } : {}),
    ...(s.user !== ALL ? { UserId: s.user } : {}),
    Sorting: "creationTime desc",
    SkipCount: (s.page - 1) * s.pageSize,
    MaxResultCount: s.pageSize,
  };
}
export type TaskQuery = ReturnType<typeof toTaskQuery>;

/** [state, update] over a reader/writer: update merges a change; any change but a page change goes back to page 1. */
export function updateState<S extends { page: number }>(current: S, change: Partial<S>): S {
  const page = change.page ?? (Object.keys(change).length ? 1 : current.page);
  return { ...current, ...change, page };
}
