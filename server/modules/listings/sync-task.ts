// BatchSyncMeliStat and AddSyncStatTask (spec §7): a task and its job, which reads the listings a chunk at a time
// (sync-read.ts), several chunks side by side. AddSyncStatTask with a period makes the job queue the group's next full
// sync when it ends: the queue runs without pg-boss schedules, so a periodic sync is a chain of delayed jobs.
import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { listings, meliAccountGroups, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import { PUBLISH_CONCURRENCY } from "../publishing/index.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import {
  BATCH_SYNC_MAX_LISTINGS,
  type AddSyncTaskRequest,
  type BatchSyncRequest,
  type ListingTaskResult,
  type SyncReport,
} from "#shared/contract/listing-sync.ts";
import { visibleGroup } from "./import.ts";
import { chunks, pool, VISITS_IDS } from "./market-reads.ts";
import { listingWhere, type ListingKind } from "./list.ts";
import { refColumns, type ListingRef, type SyncChunk } from "./sync-read.ts";

export const LISTING_SYNC_JOB = "listings.sync";

export type SyncJob = {
  tenantId: string;
  taskId: string;
  creatorId: string | null;
  /** The listings to read (BatchSyncMeliStat), or every listing of groupId (AddSyncStatTask). */
  listingIds?: string[];
  groupId?: string;
  /** AddSyncStatTask's period: the job queues the next full sync this many hours after it ends. */
  everyHours?: number | null;
};

/** The content of a periodic full sync's task names its group (how a newer schedule of the group is found). */
const periodicPrefix = (groupName: string) => `定时全量同步店铺在线商品：${groupName}（每 `;

export type ListingSyncTaskDeps = { database: Database; jobs: Jobs; log: FastifyBaseLogger; syncChunk: SyncChunk };

export function createListingSyncTasks(deps: ListingSyncTaskDeps) {
  const db = deps.database.db;

  async function batchSync(ctx: CallContext, kind: ListingKind, input: BatchSyncRequest): Promise<ListingTaskResult> {
    const where = and(
      listingWhere(ctx, kind, input.filter ?? {}),
      input.ids?.length ? inArray(listings.id, input.ids) : undefined,
      isNotNull(listings.itemId),
    );
    const rows = await ctx.tx
      .select({ id: listings.id })
      .from(listings)
      .where(where)
      .orderBy(asc(listings.accountGroupId), asc(listings.id))
      .limit(BATCH_SYNC_MAX_LISTINGS);
    if (!rows.length) throw businessError("没有可同步的在线商品（所选刊登不存在或尚未上架）", "Listing.NothingToSync");
    const taskId = await createTask(ctx.tx, {
      tenantId: ctx.tenantId,
      taskType: TaskType.SyncListings,
      content: `同步在线商品：${rows.length} 个`,
      creatorId: ctx.user!.id,
    });
    await deps.jobs.send<SyncJob>(
      LISTING_SYNC_JOB,
      { tenantId: ctx.tenantId, taskId, creatorId: ctx.user!.id, listingIds: rows.map((r) => r.id) },
      { tx: ctx.tx },
    );
    return { taskId, total: rows.length };
  }

  async function addSyncTask(ctx: CallContext, kind: ListingKind, input: AddSyncTaskRequest): Promise<ListingTaskResult> {
    const group = await visibleGroup(ctx, kind, input.accountGroupId);
    const [{ n }] = await ctx.tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(listings)
      .where(and(eq(listings.tenantId, ctx.tenantId), eq(listings.accountGroupId, group.id), isNotNull(listings.itemId)));
    const taskId = await queueGroupSync(ctx.tx, ctx.tenantId, group, ctx.user!.id, input.everyHours ?? null, 0);
    return { taskId, total: n };
  }

  async function queueGroupSync(
    tx: Tx,
    tenantId: string,
    group: { id: string; name: string },
    creatorId: string | null,
    everyHours: number | null,
    afterSeconds: number,
  ): Promise<string> {
    const taskId = await createTask(tx, {
      tenantId,
      taskType: TaskType.SyncListings,
      content: everyHours ? `${periodicPrefix(group.name)}${everyHours} 小时）` : `全量同步店铺在线商品：${group.name}`,
      creatorId,
    });
    await deps.jobs.send<SyncJob>(
      LISTING_SYNC_JOB,
      { tenantId, taskId, creatorId, groupId: group.id, everyHours },
      { tx, startAfterSeconds: afterSeconds || undefined },
    );
    return taskId;
  }

  /**
   * Whether a periodic sync of the group was started after this task's (its tasks are newer): the newest
   * AddSyncStatTask's chain is the group's schedule. The queue runs without pg-boss schedules (schedule: false), so a
   * periodic sync is a delayed job that queues the next one; two chains of one group become one this way.
   */
  async function superseded(tenantId: string, taskId: string, groupName: string): Promise<boolean> {
    return inScope(db, { tenantId }, async (tx) => {
      // Compared in SQL: creation times have microseconds, a Date only milliseconds.
      const own = tx
        .select({ at: taskInfos.creationTime })
        .from(taskInfos)
        .where(and(eq(taskInfos.tenantId, tenantId), eq(taskInfos.id, taskId)));
      const [newer] = await tx
        .select({ id: taskInfos.id })
        .from(taskInfos)
        .where(
          and(
            eq(taskInfos.tenantId, tenantId),
            eq(taskInfos.taskType, TaskType.SyncListings),
            ne(taskInfos.id, taskId),
            sql`starts_with(${taskInfos.content}, ${periodicPrefix(groupName)})`,
            sql`${taskInfos.creationTime} > (${own})`,
          ),
        )
        .limit(1);
      return !!newer;
    });
  }

  async function runSync(job: SyncJob): Promise<void> {
    const { tenantId, taskId } = job;
    const task = (change: Parameters<typeof updateTask>[3]) => updateTask(db, tenantId, taskId, change);
    const found = await inScope(db, { tenantId }, async (tx) => {
      const group = job.groupId
        ? (
            await tx
              .select({ id: meliAccountGroups.id, name: meliAccountGroups.name })
              .from(meliAccountGroups)
              .where(and(eq(meliAccountGroups.tenantId, tenantId), eq(meliAccountGroups.id, job.groupId)))
          )[0]
        : null;
      const refs = await tx
        .select(refColumns)
        .from(listings)
        .where(
          and(
            eq(listings.tenantId, tenantId),
            isNotNull(listings.itemId),
            job.listingIds ? inArray(listings.id, job.listingIds) : eq(listings.accountGroupId, job.groupId!),
          ),
        )
        .orderBy(asc(listings.accountGroupId), asc(listings.id));
      return { group, refs: refs as ListingRef[] };
    });
    if (job.groupId && !found.group) {
      // The shop group is gone: the periodic sync ends with it.
      await task({ taskStatus: TaskStatus.Failed, progress: 100, taskRemark: "店铺不存在" });
      return;
    }
    if (job.groupId && job.everyHours && (await superseded(tenantId, taskId, found.group!.name))) {
      // A later AddSyncStatTask of the group started its own periodic sync: this chain ends here.
      await task({ taskStatus: TaskStatus.Succeeded, progress: 100, taskRemark: "已由新的定时同步取代" });
      return;
    }
    await task({ taskStatus: TaskStatus.Running, progress: 0, taskRemark: "开始同步" });
    const report: SyncReport = { total: found.refs.length, synced: 0, deleted: 0, failed: 0 };
    const byGroup = new Map<string, ListingRef[]>();
    for (const r of found.refs) byGroup.set(r.accountGroupId, [...(byGroup.get(r.accountGroupId) ?? []), r]);
    const work = [...byGroup].flatMap(([groupId, refs]) => chunks(refs, VISITS_IDS).map((c) => ({ groupId, refs: c })));
    let lastReport = Date.now();
    let stopReason: string | null = null;
    /** Mercado Libre's reasons for the listings it did not answer (the first few, each once). */
    const reasons: string[] = [];
    await pool(work, PUBLISH_CONCURRENCY, async (w) => {
      const c = await deps.syncChunk(tenantId, w.groupId, w.refs, job.creatorId).catch((err: unknown) => {
        deps.log.warn({ err, taskId }, "listing sync chunk failed");
        // Mercado Libre's reason (a MeliApiError: 重新授权, a refusal) is the task's to show.
        if (err instanceof Error && "kind" in err) stopReason ??= err.message;
        return { synced: 0, deleted: 0, failed: w.refs.length, reasons: [] };
      });
      report.synced += c.synced;
      report.deleted += c.deleted;
      report.failed += c.failed;
      for (const r of c.reasons) if (reasons.length < 3 && !reasons.includes(r)) reasons.push(r);
      if (Date.now() - lastReport > 500) {
        lastReport = Date.now();
        const done = report.synced + report.deleted + report.failed;
        await task({ progress: Math.min(99, Math.floor((done * 100) / Math.max(1, report.total))) });
      }
    });
    const why = [...(stopReason ? [stopReason] : []), ...reasons.filter((r) => r !== stopReason)];
    const remark = `共 ${report.total} 个：已同步 ${report.synced}，美客多已删除 ${report.deleted}，失败 ${report.failed}${why.length ? `（${why.join("；")}）` : ""}`;
    // Any listing not synced fails the task (a partial result is not a success: the console shows it red, with the
    // remark saying what was synced, what failed and Mercado Libre's reason).
    await task({
      taskStatus: report.failed > 0 ? TaskStatus.Failed : TaskStatus.Succeeded,
      progress: 100,
      taskRemark: remark,
    });
    if (job.groupId && job.everyHours && found.group) {
      // The next full sync of the group: a delayed job of the same chain (the queue runs without pg-boss schedules).
      await inScope(db, { tenantId }, (tx) =>
        queueGroupSync(tx, tenantId, found.group!, job.creatorId, job.everyHours!, job.everyHours! * 3600),
      );
    }
  }

  return { batchSync, addSyncTask, runSync };
}
