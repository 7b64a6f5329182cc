// The host's maintenance tasks on one tenant (restore or purge deleted products, clear the call log, clear the
// tenant's data) share one runner. A task is a list of steps, each ONE set-based statement over one table (answering
// how many rows it changed), each run in its own transaction that also records the step as done on the task
// (task_infos.state), its progress and remark, and announces them: a retried job goes on from the first step not
// committed, and a step is never done twice. The task record is the host's (its task centre and event stream show it);
// its state names the tenant worked on, and one such task per tenant runs at a time.
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { rowsOf, type Database, type Tx } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, saveTaskState } from "../../jobs/tasks.ts";
import { emitProgress } from "../../jobs/progress.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";

/** One statement over one table; answers the rows it changed. */
type Step = { label: string; run(tx: Tx): Promise<number> };

/** What a kind of task does with its parameters: its steps in order and the remark its counts make once done. */
export type TaskPlan = { steps: Step[]; done(counts: number[]): string };

export type AdminTaskState<P = unknown> = {
  kind: string;
  /** The tenant worked on. */
  tenantId: string;
  params: P;
  /** The next step to run; steps before it are committed. */
  step: number;
  /** Rows changed by each step done. */
  counts: number[];
  outcome: "running" | "succeeded" | "failed";
  reason: string | null;
};

type AdminJob = { taskId: string };

const ADMIN_TASK_JOB = "tenantAdmin.task";
const TASK_TYPES = [TaskType.Maintenance, TaskType.PurgeDeletedProducts];

/** Rows of a data-modifying statement, counted in the database (the same on both drivers). */
export async function countOf(tx: Tx, statement: ReturnType<typeof sql>): Promise<number> {
  const [r] = rowsOf<{ n: number }>(
    await tx.execute(sql`with changed as (${statement} returning 1) select count(*)::int as n from changed`),
  );
  return Number(r?.n ?? 0);
}

/** Serializes the start of tasks on one tenant (two concurrent calls cannot both find none running). */
async function lockTenant(tx: Tx, tenantId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"tenant-admin:" + tenantId}))`);
}

async function refuseWhileRunning(tx: Tx, tenantId: string) {
  const running = rowsOf<{ id: string }>(
    await tx.execute(sql`select id from task_infos where tenant_id = ${HOST_TENANT_ID}
      and task_type in (${sql.join(
        TASK_TYPES.map((t) => sql`${t}`),
        sql`, `,
      )}) and task_status in (${TaskStatus.Pending}, ${TaskStatus.Running}) and state ->> 'tenantId' = ${tenantId} limit 1`),
  );
  if (running.length) throw new AppError(409, "该公司已有维护任务在进行中，请等待其完成后再试", "TenantAdmin.TaskRunning");
}

function progressOf(s: AdminTaskState, total: number): number {
  if (s.outcome === "succeeded") return 100;
  return Math.min(99, Math.floor((s.step / Math.max(1, total)) * 100));
}

export function createAdminTasks(
  deps: { database: Database; jobs: Jobs; log: FastifyBaseLogger },
  plans: Record<string, (s: AdminTaskState<any>) => TaskPlan>,
) {
  const db = deps.database.db;

  /**
   * Creates the task and queues its job in the call's transaction (both exist exactly when the call commits), unless
   * a maintenance task of the tenant is still pending or running.
   */
  async function start<P>(
    ctx: CallContext,
    t: { kind: string; tenantId: string; params: P; taskType: TaskType; content: string },
  ): Promise<string> {
    await lockTenant(ctx.tx, t.tenantId);
    await refuseWhileRunning(ctx.tx, t.tenantId);
    const taskId = await createTask(ctx.tx, {
      tenantId: HOST_TENANT_ID,
      taskType: t.taskType,
      content: t.content,
      creatorId: ctx.user!.id,
    });
    const state: AdminTaskState<P> = {
      kind: t.kind,
      tenantId: t.tenantId,
      params: t.params,
      step: 0,
      counts: [],
      outcome: "running",
      reason: null,
    };
    await saveTaskState(ctx.tx, HOST_TENANT_ID, taskId, state);
    await deps.jobs.send<AdminJob>(ADMIN_TASK_JOB, { taskId }, { tx: ctx.tx });
    return taskId;
  }

  /** The task's row, locked: one delivery of its job works on it at a time. */
  async function readLocked(tx: Tx, taskId: string) {
    const [row] = rowsOf<{ state: AdminTaskState | null; creatorId: string | null; taskType: number }>(
      await tx.execute(sql`select state, creator_id as "creatorId", task_type as "taskType" from task_infos
        where tenant_id = ${HOST_TENANT_ID} and id = ${taskId}::uuid for update`),
    );
    return row;
  }

  /** Stores the state with the task's status, progress and remark, and announces them when the transaction commits. */
  async function write(tx: Tx, taskId: string, row: { creatorId: string | null; taskType: number }, s: AdminTaskState, plan: TaskPlan) {
    const total = plan.steps.length;
    const progress = progressOf(s, total);
    const taskStatus = s.outcome === "running" ? TaskStatus.Running : s.outcome === "succeeded" ? TaskStatus.Succeeded : TaskStatus.Failed;
    const doneLabels = plan.steps.slice(0, s.step).map((st, i) => `${st.label} ${s.counts[i] ?? 0}`);
    const remark =
      s.outcome === "succeeded"
        ? plan.done(s.counts)
        : s.outcome === "failed"
          ? `未完成：${s.reason ?? "未知原因"}${doneLabels.length ? `；已处理：${doneLabels.join("，")}` : ""}`
          : `进行中（第 ${Math.min(s.step + 1, total)}/${total} 步）${doneLabels.length ? `：已处理 ${doneLabels.join("，")}` : ""}`;
    await saveTaskState(tx, HOST_TENANT_ID, taskId, s);
    await tx.execute(sql`update task_infos set task_status = ${taskStatus}, progress = ${progress}, task_remark = ${remark},
      last_update_time = now() where tenant_id = ${HOST_TENANT_ID} and id = ${taskId}::uuid`);
    await emitProgress(tx, {
      tenantId: HOST_TENANT_ID,
      creatorId: row.creatorId,
      kind: "task",
      id: taskId,
      taskType: row.taskType,
      status: taskStatus,
      progress,
      total,
      success: s.step,
    });
  }

  /** Runs the next step; answers whether the task is over. */
  async function nextStep(job: AdminJob): Promise<boolean> {
    return inScope(db, hostAllScope, async (tx) => {
      const row = await readLocked(tx, job.taskId);
      const s = row?.state;
      if (!row || !s || s.outcome !== "running") return true;
      const plan = plans[s.kind](s);
      if (s.step < plan.steps.length) {
        s.counts[s.step] = await plan.steps[s.step].run(tx);
        s.step += 1;
      }
      if (s.step >= plan.steps.length) s.outcome = "succeeded";
      await write(tx, job.taskId, row, s, plan);
      return s.outcome !== "running";
    });
  }

  /** Shows the task running before its first step (a long first statement would otherwise look queued). */
  async function markRunning(job: AdminJob) {
    await inScope(db, hostAllScope, async (tx) => {
      const row = await readLocked(tx, job.taskId);
      if (!row?.state || row.state.outcome !== "running" || row.state.step > 0) return;
      await write(tx, job.taskId, row, row.state, plans[row.state.kind](row.state));
    });
  }

  async function run(job: AdminJob) {
    await markRunning(job);
    for (;;) {
      try {
        if (await nextStep(job)) return;
      } catch (err) {
        deps.log.warn({ err, taskId: job.taskId }, "tenant maintenance step failed; the queue retries it from the step");
        throw err;
      }
    }
  }

  /** After the queue's last attempt: the task ends as failed, saying why and what was done. */
  async function settleFailed(job: AdminJob, err: unknown) {
    await inScope(db, hostAllScope, async (tx) => {
      const row = await readLocked(tx, job.taskId);
      const s = row?.state;
      if (!row || !s || s.outcome !== "running") return;
      s.outcome = "failed";
      s.reason = `多次重试后仍未完成：${err instanceof Error ? err.message : String(err)}`;
      await write(tx, job.taskId, row, s, plans[s.kind](s));
    });
  }

  return {
    start,
    workers: [worker<AdminJob>(ADMIN_TASK_JOB, run, { heartbeatSeconds: 10, onLastFailure: settleFailed })],
  };
}
