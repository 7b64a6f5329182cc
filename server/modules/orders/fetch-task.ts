// FetchOrders: the caller's shops' orders bought in a range, as a task with live progress. A retried job goes on after
// the last page it stored (the resume point on its task, task_infos.state).
import { and, eq } from "drizzle-orm";
import type { Database, Tx } from "../../db/client.ts";
import { meliAccountGroups, meliAccounts } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, badRequest, notFound } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createTask, readTaskState, saveTaskState, updateTask } from "../../jobs/tasks.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { FETCH_ORDERS_MAX_DAYS, type FetchOrdersResult } from "#shared/contract/orders.ts";
import type { PullPoint } from "./pull.ts";
import type { OrderRefresh } from "./refresh.ts";
import { visibleOrderGroups } from "./list.ts";

export const ORDER_FETCH_JOB = "orders.fetch";

export type FetchJob = {
  tenantId: string;
  taskId: string;
  creatorId: string;
  from: string;
  to: string | null;
  groups: { groupId: string; accountIds: string[] | null }[];
};

/**
 * FetchOrders' resume point on its task (task_infos.state): the group it is in (by its place in the job's groups),
 * the totals of the groups before it and that group's own point, saved with each stored page. The queue retries a
 * failed job with the same data: the retry reads the point and goes on with the search after the last stored page.
 */
type Done = { read: number; stored: number; withoutShipment: number };
type FetchPoint = { group: number; before: Done; pull: PullPoint | null };

/** What a fetch has done: `before` a group's pull plus the pull's totals so far (older resume points lack a count). */
const sum = (before: Done, pull: Partial<Done> | null): Done => ({
  read: before.read + (pull?.read ?? 0),
  stored: before.stored + (pull?.stored ?? 0),
  withoutShipment: (before.withoutShipment ?? 0) + (pull?.withoutShipment ?? 0),
});

export function createOrderFetch(deps: {
  database: Database;
  jobs: Jobs;
  pullGroup: OrderRefresh["pullGroup"];
  scheduleTick: (tx?: Tx) => Promise<void>;
}) {
  const db = deps.database.db;

  async function fetchOrders(ctx: CallContext, q: { StartTime?: Date; EndTime?: Date; GroupId?: string }): Promise<FetchOrdersResult> {
    const to = q.EndTime ?? null;
    const from = q.StartTime ?? new Date((to?.getTime() ?? Date.now()) - 7 * 86_400_000);
    if (to && from >= to) throw badRequest("开始时间须早于结束时间");
    if ((to?.getTime() ?? Date.now()) - from.getTime() > FETCH_ORDERS_MAX_DAYS * 86_400_000) {
      throw badRequest(`一次最多拉取 ${FETCH_ORDERS_MAX_DAYS} 天的订单`);
    }
    const u = ctx.user!;
    const owned = u.isMainAccount || u.isHost ? null : u.id;
    const groups = await ctx.tx
      .select({ id: meliAccountGroups.id, name: meliAccountGroups.name })
      .from(meliAccountGroups)
      .where(and(visibleOrderGroups(ctx), q.GroupId ? eq(meliAccountGroups.id, q.GroupId) : undefined));
    if (q.GroupId && !groups.length) throw notFound("店铺不存在");
    const accounts = await ctx.tx
      .select({ id: meliAccounts.id, groupId: meliAccounts.groupId })
      .from(meliAccounts)
      .where(
        and(
          eq(meliAccounts.tenantId, ctx.tenantId),
          eq(meliAccounts.isEnabled, true),
          eq(meliAccounts.isReceiveOrder, true),
          owned ? eq(meliAccounts.ownerId, owned) : undefined,
        ),
      );
    const jobGroups = groups
      .map((g) => ({ groupId: g.id, accountIds: accounts.filter((a) => a.groupId === g.id).map((a) => a.id) }))
      .filter((g) => g.accountIds.length);
    if (!jobGroups.length) throw badRequest(q.GroupId ? "该店铺未开启接收订单" : "没有开启接收订单的店铺");
    const taskId = await createTask(ctx.tx, {
      tenantId: ctx.tenantId,
      taskType: TaskType.SyncOrders,
      content: `拉取订单：${groups.length === 1 ? groups[0].name : `${jobGroups.length} 个店铺`}（${from.toISOString().slice(0, 10)} 至 ${to ? to.toISOString().slice(0, 10) : "现在"}）`,
      creatorId: u.id,
    });
    await deps.jobs.send<FetchJob>(
      ORDER_FETCH_JOB,
      {
        tenantId: ctx.tenantId,
        taskId,
        creatorId: u.id,
        from: from.toISOString(),
        to: to?.toISOString() ?? null,
        groups: jobGroups.map((g) => ({ ...g, accountIds: owned ? g.accountIds : null })),
      },
      { tx: ctx.tx },
    );
    await deps.scheduleTick(ctx.tx);
    return { taskId };
  }

  async function runFetch(job: FetchJob) {
    const task = (change: Parameters<typeof updateTask>[3]) => updateTask(db, job.tenantId, job.taskId, change);
    const resume = await readTaskState<FetchPoint>(db, job.tenantId, job.taskId);
    const done: Done = { read: 0, stored: 0, withoutShipment: 0 };
    if (resume) Object.assign(done, sum(resume.before, resume.pull));
    const remark = () =>
      `已读取 ${done.read} 个订单，新增或更新 ${done.stored} 个` +
      (done.withoutShipment
        ? `；${done.withoutShipment} 个订单的物流（地址、运单、发货时限）美客多拒绝读取，订单已保存但缺少物流信息，可稍后重新拉取`
        : "");
    await task(
      resume
        ? { taskStatus: TaskStatus.Running, taskRemark: `继续拉取（${remark()}）` }
        : { taskStatus: TaskStatus.Running, progress: 0, taskRemark: "开始拉取" },
    );
    let lastReport = 0;
    try {
      for (const [i, g] of job.groups.entries()) {
        if (resume && i < resume.group) continue;
        const before = resume && i === resume.group ? resume.before : { ...done };
        const point = {
          resume: resume && i === resume.group ? resume.pull : null,
          save: (tx: Tx, p: PullPoint) =>
            saveTaskState(
              tx,
              job.tenantId,
              job.taskId,
              (p.next ? { group: i, before, pull: p } : { group: i + 1, before: sum(before, p), pull: null }) satisfies FetchPoint,
            ),
        };
        const r = await deps.pullGroup(
          job.tenantId,
          g.groupId,
          { by: "created", from: new Date(job.from), to: job.to ? new Date(job.to) : undefined },
          g.accountIds,
          async (p) => {
            Object.assign(done, sum(before, p));
            if (Date.now() - lastReport < 500) return;
            lastReport = Date.now();
            const share = p.total ? Math.min(1, p.read / p.total) : 1;
            await task({ progress: Math.min(99, Math.floor(((i + share) * 100) / job.groups.length)), taskRemark: remark() });
          },
          point,
        );
        Object.assign(done, sum(before, r));
      }
    } catch (err) {
      // The queue retries (from the resume point); its last attempt's failure fails the task (fetchFailed).
      if (err instanceof MeliApiError && err.retryable) throw err;
      await fetchFailed(job, err);
      if (!(err instanceof AppError)) throw err;
      return;
    }
    // Orders stored without their shipment are a partial pull: the task says so and fails (never a plain success).
    await task({ taskStatus: done.withoutShipment ? TaskStatus.Failed : TaskStatus.Succeeded, progress: 100, taskRemark: remark() });
  }

  /** The task of a fetch that stops: failed, with what it read before. */
  async function fetchFailed(job: FetchJob, err: unknown) {
    const point = await readTaskState<FetchPoint>(db, job.tenantId, job.taskId);
    const read = (point?.before.read ?? 0) + (point?.pull?.read ?? 0);
    const stored = (point?.before.stored ?? 0) + (point?.pull?.stored ?? 0);
    await updateTask(db, job.tenantId, job.taskId, {
      taskStatus: TaskStatus.Failed,
      progress: 100,
      taskRemark: `已读取 ${read} 个订单，新增或更新 ${stored} 个；拉取中止：${err instanceof Error ? err.message : String(err)}`,
    });
  }

  return { fetchOrders, runFetch, fetchFailed };
}
