// Background task records (spec §3 background task, §7 TaskInfo): what users see of the jobs they started.
import { z } from "zod";
import { id, isoDate, pagedQuery } from "./common.ts";
import { TaskStatus, TaskType } from "./enums.ts";

/** A query integer that must be one of an enum's values. */
const enumValue = (e: Record<string, number>) => {
  const values = Object.values(e);
  return z.coerce
    .number()
    .int()
    .refine((v) => values.includes(v), `must be one of ${values.join(", ")}`);
};

const taskInfo = z.object({
  id: z.string(),
  taskType: z.number().int(),
  taskStatus: z.number().int(),
  content: z.string(),
  creationTime: z.string(),
  creatorId: z.string().nullable(),
  /** The creator's user name; null for a task the system started or whose creator is gone. */
  creatorName: z.string().nullable(),
  lastUpdateTime: z.string(),
  taskRemark: z.string().nullable(),
  /** 0 to 100. */
  progress: z.number().int(),
});
export type TaskInfo = z.infer<typeof taskInfo>;

export const getTaskInfoByPageQuery = pagedQuery(["creationTime", "lastUpdateTime", "taskType", "taskStatus", "progress"]).extend({
  TaskType: enumValue(TaskType).optional(),
  TaskStatus: enumValue(TaskStatus).optional(),
  /** Creation time from (inclusive). */
  StartDate: isoDate.optional(),
  /** Creation time up to (inclusive). */
  EndDate: isoDate.optional(),
  /** The creator (a main account's filter; a sub-account sees only its own tasks whatever it names). */
  UserId: id.optional(),
});

/** totalCount is exact up to TASK_COUNT_CAP matching tasks, then capped (totalCountCapped), as the product list. */
export const TASK_COUNT_CAP = 1_000;
export const taskInfoPage = z.object({
  items: z.array(taskInfo),
  totalCount: z.number().int(),
  totalCountCapped: z.boolean(),
});
export type TaskInfoPage = z.infer<typeof taskInfoPage>;

/**
 * The task types a failed task of can be run again from the task centre: a crawl (1) and a URL import (2) keep their
 * input as collection tasks linked to the record, so their failed ones are crawled again. The other jobs' input
 * (an export's selection, a translation's products…) lives only in the queued job, which the queue already retried,
 * so they are started again from their own screens.
 */
const RETRYABLE_TASK_TYPES: readonly number[] = [TaskType.Collect, TaskType.ImportUrls];
export const canRetryTask = (t: Pick<TaskInfo, "taskType" | "taskStatus">) =>
  t.taskStatus === TaskStatus.Failed && RETRYABLE_TASK_TYPES.includes(t.taskType);

export const retryTaskInput = z.object({ id });
/** How many collection tasks were queued again. */
export const retryTaskResult = z.object({ count: z.number().int() });
