// The product bulk calls and their undo as they run (spec §3 Bulk edits; issue 29). A selection of up to
// BULK_EDIT_TASK_THRESHOLD products is changed in the call, one recorded statement (recordBulkEdit). A larger one is a
// task (TaskType.BulkEditProducts): the call records the edit (no rows yet), queues a job and answers the task's id at
// once; the job lists the selection once, numbered in id order (product_edit_targets, in the first batch's
// transaction), then runs the edit's own statement over each next BULK_EDIT_BATCH_SIZE of them, reached by their key,
// each batch one transaction that backs its rows up under the edit's one id (the statement trigger), takes its targets
// off the list, counts them on the edit and the task and announces the progress. An undo of an edit larger than the threshold is a task the same way. While a
// tenant's task runs, its other bulk edits and undos are refused (edits.ts refuseWhileEditTaskRuns). A batch that
// fails for a reason the seller can act on (the label deleted, the owner's limit reached) ends the task at once as
// partial, saying how many were changed and that the rest were not; any other failure is retried by the queue from the
// last committed batch (the task's resume point), and settled as partial after the last attempt.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { rowsOf, type Database, type Tx } from "../../db/client.ts";
import { taskInfos, users } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, saveTaskState } from "../../jobs/tasks.ts";
import { emitProgress } from "../../jobs/progress.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import {
  BULK_EDIT_BATCH_SIZE,
  BULK_EDIT_TASK_THRESHOLD,
  productEditKindName,
  type BulkEditResult,
  type ProductSelection,
} from "#shared/contract/product.ts";
import { selectionWhere } from "./filter.ts";
import { bulkEditPlan, bulkEditPlans, type BulkEditBody, type BulkEditKind, type BulkEditPlan, type BulkScope } from "./bulk.ts";
import {
  dropEditTargets,
  dropExpiredBackups,
  insertEditRecord,
  listEditTargets,
  lockTenantBulkEdits,
  markUndone,
  recordBulkEdit,
  refuseWhileEditTaskRuns,
  restoreEdit,
  undoableEdit,
  updateRecorded,
} from "./edits.ts";

const BULK_EDIT_JOB = "products.bulkEdit";

/** A bulk edit task's job: which edit (or undo), of whom, over which selection (the call's body). */
type BulkEditJob = { tenantId: string; taskId: string; userId: string; editId: string; op: "edit" | "undo"; kind: string; body: unknown };

/** The task's resume point and counts (task_infos.state), written with each batch. */
export type BulkEditTaskState = {
  op: "edit" | "undo";
  kind: string;
  editId: string;
  /** Rows changed (restored) so far, and by how many batches. */
  count: number;
  batches: number;
  /** An edit's batches in all, once the first lists its selection (product_edit_targets); null until then. */
  batchTotal: number | null;
  /** Tasks queued before the selection was listed: the ids ending each batch's id range (the batches done stand). */
  bounds?: string[] | null;
  /** For an undo: how many rows the edit had changed. */
  total: number | null;
  outcome: "running" | "succeeded" | "partial" | "failed";
  /** Why the task stopped short. */
  reason: string | null;
};

export type ProductBulkEditDeps = {
  database: Database;
  jobs: Jobs;
  log: FastifyBaseLogger;
  /** Tests only: a lower threshold and batch size (config.bulkEditTask). */
  bulkEditTask?: { threshold: number; batchSize: number };
};

const scopeOf = (ctx: CallContext): BulkScope => ({ tx: ctx.tx, tenantId: ctx.tenantId, user: ctx.user! });

/** An edit's progress: its batches done of all; an undo's: rows restored of the edit's. */
function progressOf(s: BulkEditTaskState): number {
  if (s.outcome === "succeeded") return 100;
  const share = s.op === "undo" ? s.count / Math.max(1, s.total ?? 1) : s.batchTotal ? s.batches / s.batchTotal : 0;
  return Math.min(99, Math.floor(share * 100));
}

/** The task's status and remark: a task that stopped short is Failed with a remark saying what is done and what is not. */
function taskView(s: BulkEditTaskState): { taskStatus: TaskStatus; remark: string } {
  const name = productEditKindName(s.kind);
  const verb = s.op === "undo" ? "恢复" : "修改";
  const what = s.op === "undo" ? `撤销${name}` : name;
  if (s.outcome === "running")
    return {
      taskStatus: TaskStatus.Running,
      remark: `${what}进行中：已${verb} ${s.count} 个商品${s.total ? `，共 ${s.total} 个` : s.batchTotal ? `（第 ${s.batches}/${s.batchTotal} 批）` : ""}`,
    };
  if (s.outcome === "succeeded") return { taskStatus: TaskStatus.Succeeded, remark: `${what}已完成：${verb}了 ${s.count} 个商品` };
  const rest =
    s.op === "undo" ? `其余 ${Math.max(0, (s.total ?? 0) - s.count)} 个未恢复，可再次撤销` : "其余商品未修改；已修改的部分可撤销";
  return {
    taskStatus: TaskStatus.Failed,
    remark:
      s.outcome === "partial"
        ? `${what}部分完成：已${verb} ${s.count} 个商品，${rest}（${s.reason ?? "未知原因"}）`
        : `${what}失败：没有商品被${verb}（${s.reason ?? "未知原因"}）`,
  };
}

/** The user who started a task, as the selection's visibility needs them (gone: the task cannot go on). */
export async function editorScope(tx: Tx, tenantId: string, userId: string): Promise<BulkScope> {
  const [user] = await tx
    .select({ id: users.id, isMainAccount: users.isMainAccount, isHost: users.isHost })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), eq(users.isDeleted, false)));
  if (!user) throw notFound("发起任务的用户已不存在");
  return { tx, tenantId, user };
}

export function createProductBulkEdits(deps: ProductBulkEditDeps) {
  const db = deps.database.db;
  const threshold = deps.bulkEditTask?.threshold ?? BULK_EDIT_TASK_THRESHOLD;
  const batchSize = deps.bulkEditTask?.batchSize ?? BULK_EDIT_BATCH_SIZE;

  /** Whether more than `threshold` rows match: a count that stops there, so it stays short at any size. */
  async function overThreshold(tx: Tx, plan: BulkEditPlan): Promise<boolean> {
    const [r] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from (select 1 from products where ${plan.where} limit ${threshold + 1}) m`),
    );
    return Number(r?.n ?? 0) > threshold;
  }

  /** Creates the task and queues its job in the call's transaction (both exist exactly when the call commits). */
  async function startTask(ctx: CallContext, state: BulkEditTaskState, body: unknown): Promise<string> {
    const userId = ctx.user!.id;
    const name = productEditKindName(state.kind);
    const taskId = await createTask(ctx.tx, {
      tenantId: ctx.tenantId,
      taskType: TaskType.BulkEditProducts,
      content: state.op === "undo" ? `撤销${name}：恢复 ${state.total} 个商品` : `${name}：超过 ${threshold} 个商品，分批修改`,
      creatorId: userId,
    });
    await ctx.tx
      .update(taskInfos)
      .set({ taskRemark: "排队中…" })
      .where(and(eq(taskInfos.tenantId, ctx.tenantId), eq(taskInfos.id, taskId)));
    await saveTaskState(ctx.tx, ctx.tenantId, taskId, state);
    await deps.jobs.send<BulkEditJob>(
      BULK_EDIT_JOB,
      { tenantId: ctx.tenantId, taskId, userId, editId: state.editId, op: state.op, kind: state.kind, body },
      { tx: ctx.tx },
    );
    return taskId;
  }

  /** A bulk call: in the call up to the threshold, else a task whose id is answered at once. */
  async function runBulkEdit<K extends BulkEditKind>(kind: K, ctx: CallContext, body: BulkEditBody<K>): Promise<BulkEditResult> {
    const plan = await bulkEditPlan(kind, scopeOf(ctx), body);
    if (!(await overThreshold(ctx.tx, plan))) {
      const result = await recordBulkEdit(ctx, plan);
      await plan.check?.(result.count);
      return result;
    }
    const { tx, tenantId } = ctx;
    const userId = ctx.user!.id;
    await lockTenantBulkEdits(tx, tenantId);
    await refuseWhileEditTaskRuns(tx, tenantId);
    await dropExpiredBackups(tx, tenantId, userId);
    const editId = randomUUID();
    // Recorded now with no rows: each batch adds its own; the task ends by dropping it if no row changed.
    await insertEditRecord(tx, tenantId, userId, editId, plan, 0);
    const state: BulkEditTaskState = {
      op: "edit",
      kind,
      editId,
      count: 0,
      batches: 0,
      batchTotal: null,
      total: null,
      outcome: "running",
      reason: null,
    };
    return { count: 0, editId, taskId: await startTask(ctx, state, body) };
  }

  /** UndoProductEdit: in the call up to the threshold, else a task (the edit is marked undone when it ends). */
  async function undoProductEdit(ctx: CallContext, id: string): Promise<{ count: number; taskId?: string }> {
    const edit = await undoableEdit(ctx, id);
    if (edit.rowCount <= threshold) {
      const { restored } = await restoreEdit(ctx, edit);
      await markUndone(ctx, id);
      return { count: restored };
    }
    const [kind] = rowsOf<{ kind: string }>(
      await ctx.tx.execute(sql`select kind from product_edits where tenant_id = ${ctx.tenantId} and id = ${id}`),
    );
    const state: BulkEditTaskState = {
      op: "undo",
      kind: kind?.kind ?? "",
      editId: id,
      count: 0,
      batches: 0,
      batchTotal: null,
      total: edit.rowCount,
      outcome: "running",
      reason: null,
    };
    return { count: 0, taskId: await startTask(ctx, state, null) };
  }

  /** Writes the task's counts, status and remark in the batch's transaction, and announces them when it commits. */
  async function writeTask(tx: Tx, job: BulkEditJob, s: BulkEditTaskState): Promise<void> {
    const { taskStatus, remark } = taskView(s);
    const progress = progressOf(s);
    await saveTaskState(tx, job.tenantId, job.taskId, s);
    await tx
      .update(taskInfos)
      .set({ taskStatus, progress, taskRemark: remark, lastUpdateTime: new Date() })
      .where(and(eq(taskInfos.tenantId, job.tenantId), eq(taskInfos.id, job.taskId)));
    await emitProgress(tx, {
      tenantId: job.tenantId,
      creatorId: job.userId,
      kind: "task",
      id: job.taskId,
      taskType: TaskType.BulkEditProducts,
      status: taskStatus,
      progress,
      total: s.total ?? undefined,
      success: s.count,
    });
  }

  /** The task's state, read in the batch's transaction (a retried job goes on from the last committed batch). */
  async function readState(tx: Tx, job: BulkEditJob): Promise<BulkEditTaskState | null> {
    const [row] = await tx
      .select({ state: taskInfos.state })
      .from(taskInfos)
      .where(and(eq(taskInfos.tenantId, job.tenantId), eq(taskInfos.id, job.taskId)));
    return (row?.state as BulkEditTaskState | undefined) ?? null;
  }

  /**
   * One batch of an edit: the next batchSize of its listed targets that still match, recorded under the edit; answers
   * whether it was the last. The first lists the selection (one pass over it, by whatever index its filter has).
   */
  async function editBatch(ctx: BulkScope, job: BulkEditJob, s: BulkEditTaskState): Promise<boolean> {
    const body = bulkEditPlans[job.kind as BulkEditKind].input.parse(job.body) as ProductSelection;
    if (s.batchTotal == null) {
      // A task queued before the selection was listed goes on past the id range its done batches ended at.
      const after = s.bounds && s.batches > 0 ? (s.bounds[s.batches - 1] ?? null) : null;
      const listed = await listEditTargets(ctx.tx, job.tenantId, job.editId, selectionWhere(ctx, body), after);
      s.batchTotal = Math.max(1, Math.ceil(listed / batchSize));
      s.batches = 0;
      s.bounds = null;
    }
    const i = s.batches;
    const plan = await bulkEditPlan(job.kind, ctx, body);
    const batch = { tenantId: job.tenantId, from: i * batchSize, to: (i + 1) * batchSize };
    const count = await updateRecorded(ctx.tx, job.editId, plan, job.userId, batch);
    await plan.check?.(count);
    if (count)
      await ctx.tx.execute(sql`update product_edits set row_count = row_count + ${count}::int
        where tenant_id = ${job.tenantId} and id = ${job.editId}::uuid`);
    s.count += count;
    return i + 1 >= s.batchTotal;
  }

  /** One batch of an undo: the next backups by id restored; the last marks the edit undone. */
  async function undoBatch(ctx: BulkScope, job: BulkEditJob, s: BulkEditTaskState): Promise<boolean> {
    const [edit] = rowsOf<{ columns: string[]; rowCount: number }>(
      await ctx.tx.execute(sql`select columns, row_count as "rowCount" from product_edits
        where tenant_id = ${job.tenantId} and id = ${job.editId}::uuid`),
    );
    if (!edit) throw notFound("批量修改不存在");
    const { restored, taken } = await restoreEdit(ctx, { id: job.editId, columns: edit.columns, rowCount: edit.rowCount }, batchSize);
    s.count += restored;
    if (taken < batchSize) await markUndone(ctx, job.editId);
    return taken < batchSize;
  }

  /** Ends the task short: partial (some rows changed) or failed, saying why; an edit that changed nothing is dropped. */
  async function settleShort(job: BulkEditJob, reason: string): Promise<void> {
    await inScope(db, { tenantId: job.tenantId }, async (tx) => {
      await lockTenantBulkEdits(tx, job.tenantId);
      const s = await readState(tx, job);
      if (!s || s.outcome !== "running") return;
      s.outcome = s.count > 0 ? "partial" : "failed";
      s.reason = reason;
      if (job.op === "edit") await dropEditTargets(tx, job.tenantId, job.editId);
      if (job.op === "edit" && s.count === 0)
        await tx.execute(sql`delete from product_edits where tenant_id = ${job.tenantId} and id = ${job.editId}::uuid and row_count = 0`);
      await writeTask(tx, job, s);
    });
  }

  async function runJob(job: BulkEditJob): Promise<void> {
    for (;;) {
      let finished: boolean;
      try {
        finished = await inScope(db, { tenantId: job.tenantId }, async (tx) => {
          await lockTenantBulkEdits(tx, job.tenantId);
          const s = await readState(tx, job);
          if (!s || s.outcome !== "running") return true;
          const ctx = await editorScope(tx, job.tenantId, job.userId);
          const last = job.op === "edit" ? await editBatch(ctx, job, s) : await undoBatch(ctx, job, s);
          s.batches += 1;
          if (last) {
            s.outcome = "succeeded";
            if (job.op === "edit" && s.count === 0)
              await tx.execute(sql`delete from product_edits where tenant_id = ${job.tenantId} and id = ${job.editId}::uuid`);
          }
          await writeTask(tx, job, s);
          return last;
        });
      } catch (err) {
        // A refusal the seller can act on would be refused again: the task ends here, the batches before it stand.
        if (err instanceof AppError) return settleShort(job, err.message);
        deps.log.warn({ err, taskId: job.taskId, op: job.op }, "bulk edit batch failed; the queue retries it");
        throw err;
      }
      if (finished) return;
    }
  }

  const call =
    <K extends BulkEditKind>(kind: K) =>
    (ctx: CallContext, body: BulkEditBody<K>) =>
      runBulkEdit(kind, ctx, body);
  return {
    batchUpdateProductSamePrice: call("BatchUpdateProductSamePrice"),
    batchUpdateProductPrice: call("BatchUpdateProductPrice"),
    batchUpdateProductWeight: (
      ctx: CallContext,
      body: BulkEditBody<"BatchUpdateProductWeight">,
      kind: "BatchUpdateProductWeight" | "WebBatchUpdateProductWeight",
    ) => runBulkEdit(kind, ctx, body),
    batchUpdateProductStatus: call("BatchUpdateProductStatus"),
    batchUpdateProductCategory: call("BatchUpdateProductCategory"),
    replaceKeyword: call("ReplaceKeyword"),
    linkProductLabel: call("LinkProductLabel"),
    cancelLinkProductLabel: call("CancelLinkProductLabel"),
    assignProduct: call("AssignProduct"),
    deleteProducts: call("DeleteProducts"),
    batchDeleteProducts: call("BatchDeleteProducts"),
    undoProductEdit,
    workers: [
      worker<BulkEditJob>(BULK_EDIT_JOB, runJob, {
        // Two tenants' tasks side by side; one tenant's batches take its bulk-edit lock one at a time anyway.
        concurrency: 2,
        heartbeatSeconds: 10,
        onLastFailure: (job, err) => settleShort(job, `多次重试后仍未完成：${err instanceof Error ? err.message : String(err)}`),
      }),
    ],
  };
}
