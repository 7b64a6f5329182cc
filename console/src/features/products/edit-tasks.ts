// Bulk edits (and undos) over more products than BULK_EDIT_TASK_THRESHOLD run as tasks (TaskType.BulkEditProducts):
// the product list shows each one's progress in a strip above the table, live, whether it was started here or before
// the seller left the page and came back. Which strips show, and for which ended tasks the list refreshes.
import { TaskType } from "#shared/contract/enums.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { isTaskDone } from "../../lib/task-queries.ts";

export const EDIT_TASK_TYPE = TaskType.BulkEditProducts;
/** A task that ended this long before the page opened still shows (the browser's clock may differ from the server's). */
export const ENDED_SHOWN_MS = 60_000;

const endedSince = (t: TaskInfo, since: number) => isTaskDone(t) && Date.parse(t.lastUpdateTime) >= since;

/**
 * The strips to show, newest first: every task still running, and those that ended since `since` (while the page was
 * open: its outcome, partial or not, stays until the seller closes it). Older ended tasks are the task centre's.
 */
export function editTaskStrips(tasks: readonly TaskInfo[], since: number, closed: ReadonlySet<string>): TaskInfo[] {
  return tasks.filter((t) => !closed.has(t.id) && (!isTaskDone(t) || endedSince(t, since)));
}

/** Tasks that ended since `since` and the list has not refreshed for yet: the rows and the undo button change then. */
export function tasksToRefreshFor(tasks: readonly TaskInfo[], since: number, refreshed: ReadonlySet<string>): string[] {
  return tasks.filter((t) => endedSince(t, since) && !refreshed.has(t.id)).map((t) => t.id);
}
