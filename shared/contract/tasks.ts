// Background task records (spec §3 background task, §7 TaskInfo): what users see of the jobs they started.
import { z } from "zod";
import { isoDate, pagedQuery } from "./common.ts";
import { TaskStatus, TaskType } from "./enums.ts";

/** A query integer that must be one of an enum's values. */
const enumValue = (e: Record<string, number>) => {
  const values = Object.values(e);
  return z.coerce
    .number()
    .int()
    .refine((v) => values.includes(v), `must be one of ${values.join(", ")}`);
};

export const taskInfo = z.object({
  id: z.string(),
  taskType: z.number().int(),
  taskStatus: z.number().int(),
  content: z.string(),
  creationTime: z.string(),
  creatorId: z.string().nullable(),
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
});
