// The task centre (spec §7 TaskInfo): a main account (and the host, in its own tenant) sees every task of its tenant, a
// sub-account only the tasks it started. A count capped at TASK_COUNT_CAP and one page query with the creator's name;
// row-level security backs the tenant filter. A failed crawl or URL import is run again through the collection
// centre's re-crawl (RETRYABLE_TASK_TYPES says why only those).
import { and, asc, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { collectTasks, taskInfos, users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, businessError, notFound } from "../../http/errors.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { canRetryTask, TASK_COUNT_CAP, type getTaskInfoByPageQuery, type TaskInfo, type TaskInfoPage } from "#shared/contract/tasks.ts";
import { orderBy } from "../../db/query.ts";

const sortColumns = {
  creationTime: taskInfos.creationTime,
  lastUpdateTime: taskInfos.lastUpdateTime,
  taskType: taskInfos.taskType,
  taskStatus: taskInfos.taskStatus,
  progress: taskInfos.progress,
};

function toTaskInfo(t: typeof taskInfos.$inferSelect, creatorName: string | null): TaskInfo {
  return {
    id: t.id,
    taskType: t.taskType,
    taskStatus: t.taskStatus,
    content: t.content,
    creationTime: t.creationTime.toISOString(),
    creatorId: t.creatorId,
    creatorName,
    lastUpdateTime: t.lastUpdateTime.toISOString(),
    taskRemark: t.taskRemark,
    progress: t.progress,
  };
}

/** The tasks the caller may see: its tenant's for a main account or the host, its own for a sub-account. */
function visibleTasks(ctx: CallContext): SQL {
  const u = ctx.user!;
  const tenant = eq(taskInfos.tenantId, u.tenantId);
  return u.isMainAccount ? tenant : and(tenant, eq(taskInfos.creatorId, u.id))!;
}

async function getTaskInfoByPage(ctx: CallContext, q: z.output<typeof getTaskInfoByPageQuery>): Promise<TaskInfoPage> {
  if (q.StartDate && q.EndDate && q.StartDate > q.EndDate) throw badRequest("开始时间不能晚于结束时间");
  const conditions: SQL[] = [visibleTasks(ctx)];
  if (q.TaskType !== undefined) conditions.push(eq(taskInfos.taskType, q.TaskType));
  if (q.TaskStatus !== undefined) conditions.push(eq(taskInfos.taskStatus, q.TaskStatus));
  if (q.StartDate) conditions.push(gte(taskInfos.creationTime, q.StartDate));
  if (q.EndDate) conditions.push(lte(taskInfos.creationTime, q.EndDate));
  if (q.UserId) conditions.push(eq(taskInfos.creatorId, q.UserId));
  const where = and(...conditions);

  // Counting stops after TASK_COUNT_CAP + 1 rows, so a tenant with years of tasks still counts an index range.
  const limited = ctx.tx
    .select({ one: sql`1` })
    .from(taskInfos)
    .where(where)
    .limit(TASK_COUNT_CAP + 1)
    .as("m");
  const [{ n }] = await ctx.tx.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(limited);
  const capped = n > TASK_COUNT_CAP;
  const totalCount = capped ? TASK_COUNT_CAP : n;
  if (!n || (!capped && q.SkipCount >= n)) return { items: [], totalCount, totalCountCapped: capped };

  const rows = await ctx.tx
    .select({ task: taskInfos, creatorName: users.userName })
    .from(taskInfos)
    .leftJoin(users, and(eq(users.tenantId, taskInfos.tenantId), eq(users.id, taskInfos.creatorId)))
    .where(where)
    .orderBy(orderBy(q.Sorting, sortColumns, desc(taskInfos.creationTime)), desc(taskInfos.creationTime), asc(taskInfos.id))
    .limit(q.MaxResultCount)
    .offset(q.SkipCount);
  return { items: rows.map((r) => toTaskInfo(r.task, r.creatorName)), totalCount, totalCountCapped: capped };
}

export type TaskServiceDeps = {
  /** The collection centre's ReCrawlTasks: runs finished collection tasks the caller owns again. */
  reCrawlTasks: (ctx: CallContext, ids: string[]) => Promise<{ count: number }>;
};

/** Runs a failed crawl or URL import again: its failed collection tasks are queued anew and the record follows them. */
async function retryTask(deps: TaskServiceDeps, ctx: CallContext, taskId: string): Promise<{ count: number }> {
  const [task] = await ctx.tx
    .select({ taskType: taskInfos.taskType, taskStatus: taskInfos.taskStatus })
    .from(taskInfos)
    .where(and(visibleTasks(ctx), eq(taskInfos.id, taskId)));
  if (!task) throw notFound("任务不存在");
  if (!canRetryTask(task)) {
    throw businessError(
      task.taskStatus === TaskStatus.Failed ? "该类任务不能在任务中心重试，请在发起它的页面重新发起" : "只有失败的任务可以重试",
      "Task.NotRetryable",
    );
  }
  const failed = await ctx.tx
    .select({ id: collectTasks.id })
    .from(collectTasks)
    .where(
      and(eq(collectTasks.tenantId, ctx.tenantId), eq(collectTasks.taskInfoId, taskId), eq(collectTasks.taskStatus, TaskStatus.Failed)),
    );
  if (!failed.length) return { count: 0 };
  return deps.reCrawlTasks(
    ctx,
    failed.map((r) => r.id),
  );
}

export function createTaskService(deps: TaskServiceDeps) {
  return {
    getTaskInfoByPage,
    retryTask: (ctx: CallContext, taskId: string) => retryTask(deps, ctx, taskId),
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
