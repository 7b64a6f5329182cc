// The task list's URL schema (useListUrlState: each key is its search param, broken values fall back to the defaults)
// and the GetTaskInfoByPage query it turns into.
import { z } from "zod";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { ALL, choiceParam, dateParam, idParam, pageParam, pageSizeParam } from "../../components/list/url-params.ts";
import { localDayRange } from "../../lib/format.ts";

export const TASK_PAGE_SIZES = [20, 50, 100];

/** ?type=&status=&user=&from=&to=&page=&size= */
export const taskListSchema = z.object({
  type: choiceParam(Object.values(TaskType)),
  status: choiceParam(Object.values(TaskStatus)),
  /** The creator's id (main accounts). */
  user: idParam(),
  from: dateParam(),
  to: dateParam(),
  page: pageParam(),
  size: pageSizeParam(TASK_PAGE_SIZES, 20),
});
export type TaskListState = z.output<typeof taskListSchema>;

/** GetTaskInfoByPage's query of a list state (the days are the browser's local days). */
export function toTaskQuery(s: TaskListState) {
  const { from, to } = localDayRange(s.from, s.to);
  return {
    ...(s.type !== ALL ? { TaskType: Number(s.type) } : {}),
    ...(s.status !== ALL ? { TaskStatus: Number(s.status) } : {}),
    ...(s.user !== ALL ? { UserId: s.user } : {}),
    ...(from ? { StartDate: from } : {}),
    ...(to ? { EndDate: to } : {}),
    Sorting: "creationTime desc",
    SkipCount: (s.page - 1) * s.size,
    MaxResultCount: s.size,
  };
}
