// The task centre (spec §7 TaskInfo): a main account (and the host, in its own tenant) sees every task of its tenant, a
// sub-account only the tasks it started. One count and one page query; row-level security backs the tenant filter.
import { and, asc, count, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { taskInfos } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import type { PagedResult } from "../../../shared/contract/common.ts";
import type { getTaskInfoByPageQuery, TaskInfo } from "../../../shared/contract/tasks.ts";
import { orderBy, pageOf } from "../../db/query.ts";

const sortColumns = {
  creationTime: taskInfos.creationTime,
  lastUpdateTime: taskInfos.lastUpdateTime,
  taskType: taskInfos.taskType,
  taskStatus: taskInfos.taskStatus,
  progress: taskInfos.progress,
};

function toTaskInfo(t: typeof taskInfos.$inferSelect): TaskInfo {
  return {
    id: t.id,
    taskType: t.taskType,
    taskStatus: t.taskStatus,
    content: t.content,
    creationTime: t.creationTime.toISOString(),
    creatorId: t.creatorId,
    lastUpdateTime: t.lastUpdateTime.toISOString(),
    taskRemark: t.taskRemark,
    progress: t.progress,
  };
}

export async function getTaskInfoByPage(ctx: CallContext, q: z.output<typeof getTaskInfoByPageQuery>): Promise<PagedResult<TaskInfo>> {
  const u = ctx.user!;
  if (q.StartDate && q.EndDate && q.StartDate > q.EndDate) throw badRequest("开始时间不能晚于结束时间");
  const conditions: SQL[] = [eq(taskInfos.tenantId, u.tenantId)];
  if (!u.isMainAccount) conditions.push(eq(taskInfos.creatorId, u.id));
  if (q.TaskType !== undefined) conditions.push(eq(taskInfos.taskType, q.TaskType));
  if (q.TaskStatus !== undefined) conditions.push(eq(taskInfos.taskStatus, q.TaskStatus));
  if (q.StartDate) conditions.push(gte(taskInfos.creationTime, q.StartDate));
  if (q.EndDate) conditions.push(lte(taskInfos.creationTime, q.EndDate));
  const where = and(...conditions);
  return pageOf(
    ctx.tx,
    taskInfos,
    where,
    {
      skip: q.SkipCount,
      take: q.MaxResultCount,
      order: [orderBy(q.Sorting, sortColumns, desc(taskInfos.creationTime)), desc(taskInfos.creationTime), asc(taskInfos.id)],
    },
    toTaskInfo,
  );
}

export function createTaskService() {
  return { getTaskInfoByPage };
}

export type TaskService = ReturnType<typeof createTaskService>;
