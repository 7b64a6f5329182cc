// A transfer as a task (spec §3 background task) in the host's task centre with live progress. The call checks its
// input, counts what there is to do and creates the task with its steps (steps.ts) and its job, in its own
// transaction, so a refused call leaves nothing. The job runs one unit of work per transaction (a chunk of products, a
// labels copy, the shop groups' move) and stores, in that same transaction, where it got to, the counts and the
// progress (announced when it commits): a job retried after a crash goes on from the last unit it committed.
import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, taskInfos } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError } from "../../http/errors.ts";
import { emitProgress } from "../../jobs/progress.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, saveTaskState } from "../../jobs/tasks.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { TaskStatus, type TaskType } from "#shared/contract/enums.ts";
import type { TransferTaskResult } from "#shared/contract/tenant-transfer.ts";
import { countsText, noCounts, runUnit, stepNames, type Counts, type Step } from "./steps.ts";

const TRANSFER_JOB = "tenantTransfer.run";

/** The task's resume point and counts (task_infos.state), written with each unit of work. */
type TransferState = {
  /** What the task does, in words ("复制商品：甲 → 乙"). */
  title: string;
  steps: Step[];
  /** The step running, and how far a chunked step got (its last source id). */
  step: number;
  after: string | null;
  /** Units done per step (rows for a chunked step). */
  done: number[];
  counts: Counts;
  outcome: "running" | "succeeded" | "failed";
  reason: string | null;
};

type TransferJob = { taskId: string };

export type TransferRunnerDeps = {
  database: Database;
  jobs: Jobs;
  log: FastifyBaseLogger;
  secrets: SecretBox;
  /** Source rows per transaction of a chunked step (default 5,000). */
  chunkSize?: number;
};

function progressOf(s: TransferState): number {
  if (s.outcome === "succeeded") return 100;
  const total = s.steps.reduce((n, st) => n + Math.max(1, st.total), 0);
  const done = s.done.reduce((n, d, i) => n + Math.min(d, Math.max(1, s.steps[i].total)), 0);
  return Math.min(99, Math.floor((done / total) * 100));
}

function taskView(s: TransferState): { taskStatus: TaskStatus; remark: string } {
  if (s.outcome === "succeeded") return { taskStatus: TaskStatus.Succeeded, remark: `${s.title}：已完成，${countsText(s.counts)}` };
  if (s.outcome === "failed")
    return { taskStatus: TaskStatus.Failed, remark: `${s.title}：未完成（${s.reason ?? "未知原因"}）；已处理：${countsText(s.counts)}` };
  const st = s.steps[s.step];
  const where = st ? `正在处理${stepNames[st.kind]}（${s.done[s.step]}/${Math.max(1, st.total)}）` : "收尾中";
  return { taskStatus: TaskStatus.Running, remark: `${s.title}：${where}` };
}

export function createTransferRunner(deps: TransferRunnerDeps) {
  const db = deps.database.db;
  const unitDeps = { secrets: deps.secrets, chunkSize: deps.chunkSize ?? 5000 };

  /** The task and its job, in the call's transaction; answers the task's id and how many rows it goes through. */
  async function startTransfer(ctx: CallContext, taskType: TaskType, title: string, steps: Step[]): Promise<TransferTaskResult> {
    const taskId = await createTask(ctx.tx, { tenantId: ctx.tenantId, taskType, content: title, creatorId: ctx.user!.id });
    const state: TransferState = {
      title,
      steps,
      step: 0,
      after: null,
      done: steps.map(() => 0),
      counts: noCounts(),
      outcome: "running",
      reason: null,
    };
    await saveTaskState(ctx.tx, ctx.tenantId, taskId, state);
    await ctx.tx
      .update(taskInfos)
      .set({ taskRemark: `${title}：排队中…` })
      .where(and(eq(taskInfos.tenantId, ctx.tenantId), eq(taskInfos.id, taskId)));
    await deps.jobs.send<TransferJob>(TRANSFER_JOB, { taskId }, { tx: ctx.tx });
    return { taskId, total: steps.reduce((n, s) => n + s.total, 0) };
  }

  /** The task row, locked (one unit of a task at a time), with its state and who started it. */
  async function lockTask(tx: Tx, taskId: string) {
    const [t] = await tx
      .select({ state: taskInfos.state, creatorId: taskInfos.creatorId, taskType: taskInfos.taskType })
      .from(taskInfos)
      .where(and(eq(taskInfos.tenantId, HOST_TENANT_ID), eq(taskInfos.id, taskId)))
      .for("update");
    return t ? { ...t, state: t.state as TransferState | null } : null;
  }

  async function writeTask(tx: Tx, taskId: string, t: { creatorId: string | null; taskType: number }, s: TransferState) {
    const { taskStatus, remark } = taskView(s);
    const progress = progressOf(s);
    await saveTaskState(tx, HOST_TENANT_ID, taskId, s);
    await tx
      .update(taskInfos)
      .set({ taskStatus, progress, taskRemark: remark, lastUpdateTime: new Date() })
      .where(and(eq(taskInfos.tenantId, HOST_TENANT_ID), eq(taskInfos.id, taskId)));
    await emitProgress(tx, {
      tenantId: HOST_TENANT_ID,
      creatorId: t.creatorId,
      kind: "task",
      id: taskId,
      taskType: t.taskType,
      status: taskStatus,
      progress,
      total: s.steps.reduce((n, st) => n + st.total, 0),
      success: s.done.reduce((n, d) => n + d, 0),
    });
  }

  /** One unit of the task's current step; answers whether the task has ended. */
  async function runOneUnit(job: TransferJob): Promise<boolean> {
    return inScope(db, hostAllScope, async (tx) => {
      const t = await lockTask(tx, job.taskId);
      const s = t?.state;
      if (!t || !s || s.outcome !== "running") return true;
      const step = s.steps[s.step];
      if (step) {
        const r = await runUnit(tx, unitDeps, step, s.after, s.counts);
        s.done[s.step] += r.units;
        s.after = r.stepDone ? null : r.after;
        if (r.stepDone) s.step += 1;
      }
      if (s.step >= s.steps.length) s.outcome = "succeeded";
      await writeTask(tx, job.taskId, t, s);
      return s.outcome !== "running";
    });
  }

  /** Ends the task as failed, saying why; what its committed units did stands (and the remark says what that was). */
  async function settleFailed(job: TransferJob, reason: string): Promise<void> {
    await inScope(db, hostAllScope, async (tx) => {
      const t = await lockTask(tx, job.taskId);
      if (!t?.state || t.state.outcome !== "running") return;
      t.state.outcome = "failed";
      t.state.reason = reason;
      await writeTask(tx, job.taskId, t, t.state);
    });
  }

  async function runJob(job: TransferJob): Promise<void> {
    for (;;) {
      let finished: boolean;
      try {
        finished = await runOneUnit(job);
      } catch (err) {
        // A refusal (the owner removed meanwhile, the seller connected to the destination meanwhile) would come again.
        if (err instanceof AppError) return settleFailed(job, err.message);
        deps.log.warn({ err, taskId: job.taskId }, "transfer unit failed; the queue retries it");
        throw err;
      }
      if (finished) return;
    }
  }

  return {
    startTransfer,
    workers: [
      worker<TransferJob>(TRANSFER_JOB, runJob, {
        heartbeatSeconds: 10,
        onLastFailure: (job, err) => settleFailed(job, `多次重试后仍未完成：${err instanceof Error ? err.message : String(err)}`),
      }),
    ],
  };
}
