// A batch edit's task (task_infos, TaskType.BatchUpdateListings): its state (BatchEditState in the content) counts each
// listing's outcome, and its progress, status and remark follow from the counts, announced on the progress stream.
import { and, eq, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../../db/client.ts";
import { taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { emitProgress } from "../../jobs/progress.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { BATCH_REFUSALS_KEPT, type BatchEditState } from "#shared/contract/listing-edits.ts";
import type { Edit, Outcome } from "./edit-types.ts";

export const opNames: Record<Edit["op"], string> = {
  price: "改价",
  meliPrice: "按店铺规则改价",
  title: "改标题",
  description: "改描述",
  status: "上下架",
  stock: "改库存",
  weight: "改重量",
  images: "改图片",
  delete: "删除",
};

/** A batch task's progress, status and remark from its counts; the outcome is set once every listing is counted. */
export function taskProgress(s: BatchEditState): { progress: number; taskStatus: number; remark: string } {
  const finished = s.done + s.refused + s.skipped;
  const end = finished >= s.total;
  if (end) s.outcome = s.refused === 0 ? "succeeded" : s.done > 0 ? "partial" : "failed";
  const progress = Math.floor((finished * 100) / s.total);
  // A partial task is not a success: Failed with a remark saying how far it got (TaskStatus has no partial value).
  const taskStatus = !end ? TaskStatus.Running : s.outcome === "succeeded" ? TaskStatus.Succeeded : TaskStatus.Failed;
  const head = !end ? "进行中" : s.outcome === "succeeded" ? "已完成" : s.outcome === "partial" ? "部分完成" : "失败";
  const remark = `${opNames[s.op as Edit["op"]] ?? s.op}${head}：成功 ${s.done}，失败 ${s.refused}，未变化 ${s.skipped}，共 ${s.total}`;
  return { progress, taskStatus, remark };
}

/** Counts one listing's outcome on the task (row-locked: jobs finish side by side) and announces the progress. */
export async function countOutcome(
  db: Db,
  job: { tenantId: string; taskId: string; listingId: string },
  itemId: string | null,
  o: Outcome,
): Promise<void> {
  await inScope(db, { tenantId: job.tenantId }, async (tx) => {
    const [t] = await tx
      .select({ content: taskInfos.content, creatorId: taskInfos.creatorId })
      .from(taskInfos)
      .where(and(eq(taskInfos.tenantId, job.tenantId), eq(taskInfos.id, job.taskId)))
      .for("update");
    if (!t) return;
    const s = JSON.parse(t.content) as BatchEditState;
    if (s.done + s.refused + s.skipped >= s.total) return; // a finished task is not counted twice
    s[o.outcome === "done" ? "done" : o.outcome === "refused" ? "refused" : "skipped"] += 1;
    if (o.outcome === "refused" && s.refusals.length < BATCH_REFUSALS_KEPT)
      s.refusals.push({ listingId: job.listingId, itemId, reason: o.reason ?? "" });
    const { progress, taskStatus, remark } = taskProgress(s);
    await tx
      .update(taskInfos)
      .set({ content: JSON.stringify(s), progress, taskStatus, taskRemark: remark, lastUpdateTime: new Date() })
      .where(and(eq(taskInfos.tenantId, job.tenantId), eq(taskInfos.id, job.taskId)));
    await emitProgress(tx, {
      tenantId: job.tenantId,
      creatorId: t.creatorId,
      kind: "task",
      id: job.taskId,
      taskType: TaskType.BatchUpdateListings,
      status: taskStatus,
      progress,
      total: s.total,
      success: s.done,
      fail: s.refused,
    });
  });
}

/** The batch task's state (task_infos.content of a listing edit task). */
export async function batchEditState(tx: Tx, tenantId: string, taskId: string): Promise<BatchEditState | null> {
  const [r] = rowsOf<{ content: string }>(
    await tx.execute(sql`select content from task_infos where tenant_id = ${tenantId} and id = ${taskId}`),
  );
  return r ? (JSON.parse(r.content) as BatchEditState) : null;
}
