// Task records: what a user sees of a background job (spec §3 background task). Jobs create one when queued and update
// it as they run; the task centre lists them.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";
import { taskInfos } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { emitProgress } from "./progress.ts";
import { TaskStatus, type TaskType } from "#shared/contract/enums.ts";

export async function createTask(
  tx: Tx,
  t: { tenantId: string; taskType: TaskType; content: string; creatorId: string | null },
): Promise<string> {
  const id = randomUUID();
  await tx.insert(taskInfos).values({ ...t, id, taskStatus: TaskStatus.Pending });
  await emitProgress(tx, {
    tenantId: t.tenantId,
    creatorId: t.creatorId,
    kind: "task",
    id,
    taskType: t.taskType,
    status: TaskStatus.Pending,
    progress: 0,
  });
  return id;
}

export async function updateTask(
  db: Db,
  tenantId: string,
  taskId: string,
  change: { taskStatus?: TaskStatus; progress?: number; taskRemark?: string | null; content?: string },
): Promise<void> {
  await inScope(db, { tenantId }, async (tx) => {
    const [t] = await tx
      .update(taskInfos)
      .set({ ...change, lastUpdateTime: new Date() })
      .where(and(eq(taskInfos.tenantId, tenantId), eq(taskInfos.id, taskId)))
      .returning({
        creatorId: taskInfos.creatorId,
        taskType: taskInfos.taskType,
        status: taskInfos.taskStatus,
        progress: taskInfos.progress,
      });
    // Every task's progress reaches the open streams (modules/events), whichever job wrote it.
    if (t) await emitProgress(tx, { tenantId, kind: "task", id: taskId, ...t });
  });
}

/**
 * A job's resume point on its task (task_infos.state, never shown), written in the transaction that stores what the
 * point says is done, so a retried job goes on from there and never does the stored part again.
 */
export async function saveTaskState(tx: Tx, tenantId: string, taskId: string, state: unknown): Promise<void> {
  await tx
    .update(taskInfos)
    .set({ state })
    .where(and(eq(taskInfos.tenantId, tenantId), eq(taskInfos.id, taskId)));
}

/** The task's resume point (null: the job starts from the beginning). */
export async function readTaskState<T>(db: Db, tenantId: string, taskId: string): Promise<T | null> {
  const [t] = await inScope(db, { tenantId }, (tx) =>
    tx
      .select({ state: taskInfos.state })
      .from(taskInfos)
      .where(and(eq(taskInfos.tenantId, tenantId), eq(taskInfos.id, taskId))),
  );
  return (t?.state as T | undefined) ?? null;
}
