// Task records: what a user sees of a background job (spec §3 background task). Jobs create one when queued and update
// it as they run; the task centre lists them.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";
import { taskInfos } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { emitProgress } from "../modules/events/progress.ts";
import { TaskStatus, type TaskType } from "../../shared/contract/enums.ts";

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
