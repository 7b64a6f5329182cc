// /proudcts/publish-logs' URL state: the shop group, the call days and the page.
import { z } from "zod";
import { PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { ALL, dateParam, idParam, pageParam, pageSizeParam } from "../../components/list/url-params.ts";
import { localDayRange } from "../../lib/format.ts";
import type { MeliLogsQuery } from "./api/get-meli-logs.ts";

/** ?shop=&from=&to=&page=&size= */
export const publishLogListSchema = z.object({
  /** A shop group's id. */
  shop: idParam(),
  /** Call days, yyyy-mm-dd. */
  from: dateParam(),
  to: dateParam(),
  page: pageParam(),
  size: pageSizeParam(PAGE_SIZE_OPTIONS, 50),
});
export type PublishLogListState = z.output<typeof publishLogListSchema>;

/** GetLogsByPage's query, newest first. */
export function toMeliLogsQuery(s: PublishLogListState): MeliLogsQuery {
  const range = localDayRange(s.from, s.to);
  return {
    ...(s.shop !== ALL ? { AccountgroupId: s.shop } : {}),
    ...(range.from ? { StartTime: range.from } : {}),
    ...(range.to ? { EndTime: range.to } : {}),
    Sorting: "creationTime desc",
    SkipCount: (s.page - 1) * s.size,
    MaxResultCount: s.size,
  };
}
