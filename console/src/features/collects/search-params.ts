// The collection list's, the task list's and the URL queue's URL schemas (useListUrlState: each key is its search param, broken values
// fall back to the defaults) and the server queries they turn into.
import { z } from "zod";
import { CollectStatus, PlatformType, TaskStatus } from "#shared/contract/enums.ts";
import {
  ALL,
  choiceParam,
  dateParam,
  idParam,
  infringementParam,
  pageParam,
  pageSizeParam,
  textParam,
} from "../../components/list/url-params.ts";
import { localDayRange } from "../../lib/format.ts";
import { urlStatusOptions } from "./labels.ts";

/** Page sizes of the collection list; from VIRTUALIZE_FROM on, the table renders only the rows in view. */
export const COLLECT_PAGE_SIZES = [20, 50, 100, 200, 500];
export const VIRTUALIZE_FROM = 100;
export const TASK_PAGE_SIZES = [20, 50, 100];

/** ?q=&sku=&status=&platform=&infr=&user=&from=&to=&page=&size= */
export const collectListSchema = z.object({
  /** Part of the title. */
  q: textParam(200),
  /** The source item id (exact). */
  sku: textParam(128),
  status: choiceParam(Object.values(CollectStatus)),
  platform: choiceParam(Object.values(PlatformType)),
  infr: infringementParam(),
  /** An owner's id (main accounts). */
  user: idParam(),
  /** Creation days, yyyy-mm-dd. */
  from: dateParam(),
  to: dateParam(),
  page: pageParam(),
  size: pageSizeParam(COLLECT_PAGE_SIZES, 20),
});
export type CollectListState = z.output<typeof collectListSchema>;

/** A local day range as the collection calls name it (startDate/endDate). */
function collectDates(start: string, end: string): { startDate?: string; endDate?: string } {
  const { from, to } = localDayRange(start, end);
  return { ...(from ? { startDate: from } : {}), ...(to ? { endDate: to } : {}) };
}

/** GetCollect's filter (no paging) of a list state. */
export function toCollectFilter(s: CollectListState) {
  return {
    ...collectDates(s.from, s.to),
    ...(s.status !== ALL ? { status: Number(s.status) } : {}),
    ...(s.platform !== ALL ? { platformType: Number(s.platform) } : {}),
    ...(s.infr !== ALL ? { hasInfringement: s.infr === "yes" } : {}),
    ...(s.user !== ALL ? { userId: s.user } : {}),
    ...(s.q.trim() ? { title: s.q.trim() } : {}),
    ...(s.sku.trim() ? { sku: s.sku.trim() } : {}),
  };
}

export function toCollectQuery(s: CollectListState) {
  return { ...toCollectFilter(s), skipCount: (s.page - 1) * s.size, maxResultCount: s.size, sorting: "creationTime desc" };
}

/** ?q=&sku=&status=&user=&from=&to=&page=&size= */
export const taskListSchema = z.object({
  /** Part of the URL or title. */
  q: textParam(200),
  sku: textParam(128),
  status: choiceParam(Object.values(TaskStatus)),
  user: idParam(),
  from: dateParam(),
  to: dateParam(),
  page: pageParam(),
  size: pageSizeParam(TASK_PAGE_SIZES, 20),
});
export type TaskListState = z.output<typeof taskListSchema>;

/** GetCollectTasks' query of a list state (PascalCase query names). */
export function toTaskQuery(s: TaskListState) {
  const range = collectDates(s.from, s.to);
  return {
    ...(s.status !== ALL ? { TaskStatus: Number(s.status) } : {}),
    ...(s.q.trim() ? { Search: s.q.trim() } : {}),
    ...(s.sku.trim() ? { Sku: s.sku.trim() } : {}),
    ...(range.startDate ? { StartDate: range.startDate } : {}),
    ...(range.endDate ? { EndDate: range.endDate } : {}),
    ...(s.user !== ALL ? { UserId: s.user } : {}),
    Sorting: "creationTime desc",
    SkipCount: (s.page - 1) * s.size,
    MaxResultCount: s.size,
  };
}

export const URL_QUEUE_PAGE_SIZES = [10, 20, 50, 100];

/** The URL queue on /collects/collect: ?q=&status=&page=&size= */
export const urlQueueSchema = z.object({
  /** Part of the URL. */
  q: textParam(200),
  status: choiceParam(urlStatusOptions.map((o) => o.value)),
  page: pageParam(),
  size: pageSizeParam(URL_QUEUE_PAGE_SIZES, 10),
});
export type UrlQueueState = z.output<typeof urlQueueSchema>;

/** GetList's query of the queue's state, newest first. */
export function toUrlQueueQuery(s: UrlQueueState) {
  return {
    ...(s.status !== ALL ? { status: Number(s.status) } : {}),
    ...(s.q.trim() ? { search: s.q.trim() } : {}),
    skipCount: (s.page - 1) * s.size,
    maxResultCount: s.size,
    sorting: "creationTime desc",
  };
}
