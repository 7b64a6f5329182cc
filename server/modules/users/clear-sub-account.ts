// ClearSubAccountInfo: the call queues a job and answers its task; the job runs each area's data cleaner
// (extensions.ts UserDataCleaner) in one transaction, and the task centre shows what was cleared.
import type { Database } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { UserDataCleaner } from "./extensions.ts";
import { findSubUser } from "./sub-users.ts";

const CLEAR_SUB_ACCOUNT_JOB = "clear-sub-account-info";
type ClearJob = { tenantId: string; taskId: string; userId: string };

type ClearDeps = {
  database: Database;
  jobs: Jobs;
  /** What ClearSubAccountInfo clears, in this order: each area's rows of the user. */
  userDataCleaners: UserDataCleaner[];
};

export function createClearSubAccount({ database, jobs, userDataCleaners }: ClearDeps) {
  /** Queues the clearing of a sub-account's data; the task centre shows its progress. */
  async function clearSubAccountInfo(ctx: CallContext, userId: string) {
    const tenantId = ctx.user!.tenantId;
    const target = await findSubUser(ctx.tx, tenantId, userId);
    if (target.isMainAccount) throw businessError("不能清空主账号的数据");
    const taskId = await createTask(ctx.tx, {
      tenantId,
      taskType: TaskType.ClearSubAccountInfo,
      content: `清空子账号 ${target.userName} 的数据`,
      creatorId: ctx.user!.id,
    });
    await jobs.send<ClearJob>(CLEAR_SUB_ACCOUNT_JOB, { tenantId, taskId, userId: target.id }, { tx: ctx.tx });
    return { taskId };
  }

  /** The clearing job: each data cleaner in turn, in one transaction; the task says what was cleared. */
  async function clearSubAccount({ tenantId, taskId, userId }: ClearJob) {
    const db = database.db;
    await updateTask(db, tenantId, taskId, { taskStatus: TaskStatus.Running, progress: 0 });
    try {
      const summary: string[] = [];
      await inScope(db, { tenantId }, async (tx) => {
        for (const cleaner of userDataCleaners) {
          const n = await cleaner.clear(tx, tenantId, userId);
          summary.push(`${cleaner.label} ${n}`);
        }
      });
      await updateTask(db, tenantId, taskId, {
        taskStatus: TaskStatus.Succeeded,
        progress: 100,
        taskRemark: `已清理：${summary.join("，")}`,
      });
    } catch (err) {
      await updateTask(db, tenantId, taskId, {
        taskStatus: TaskStatus.Failed,
        taskRemark: err instanceof Error ? err.message : String(err),
      });
      throw err;
    }
  }

  return { clearSubAccountInfo, worker: worker<ClearJob>(CLEAR_SUB_ACCOUNT_JOB, clearSubAccount) };
}
