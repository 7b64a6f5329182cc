// The sub-account screen's URL: the list's schema (useListUrlState: ?q=&active=&page=&size=, broken values fall back to
// the defaults), the tab (?tab=) and the statistics' date range (?from=&to=).
import { z } from "zod";
import { PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { choiceParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";

export type SubAccountsTab = "list" | "stats";

export const subUserListSchema = z.object({
  /** Part of the user name, email, phone or remark. */
  q: textParam(100),
  /** all, active or inactive. */
  active: choiceParam(["active", "inactive"]),
  page: pageParam(),
  size: pageSizeParam(PAGE_SIZE_OPTIONS, 10),
});
export type SubUserListState = z.output<typeof subUserListSchema>;

export function readTab(params: URLSearchParams): SubAccountsTab {
  return params.get("tab") === "stats" ? "stats" : "list";
}

/** The GetSubUsers query of a list state. */
export function toSubUsersQuery(state: SubUserListState) {
  return {
    ...(state.q.trim() ? { Search: state.q.trim() } : {}),
    ...(state.active === "all" ? {} : { IsActive: state.active === "active" }),
    SkipCount: (state.page - 1) * state.size,
    MaxResultCount: state.size,
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
