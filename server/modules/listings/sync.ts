// The listing centre's sync (spec §7 MeliStat / MeliStatNew SyncMelistat, BatchSyncMeliStat, AddSyncStatTask,
// ClearInvalidStat; PullMarketStat is import.ts). Mercado Libre is read with multiget (GET /items?ids=, 20 ids a call;
// a cross-border listing's site item is read the same way). Items carry no view count: a sync reads the views of the
// items it read from the visits resource (GET /visits/items?ids=, 50 ids a call) with the same seller's token; a
// failed visits call keeps the old views (market-reads.ts). Marketplace calls are never made inside a transaction: a
// job reads what it needs in one short transaction, calls, then writes each answer in another. A listing deleted on
// the marketplace (404 in the multiget, or sub_status "deleted") is kept as Closed with the problem code DELETED_CODE,
// which ClearInvalidStat removes.
import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { listings, meliAccountGroups, meliCategories, products, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import type { MeliClient, MeliExchange } from "../../integrations/mercadolibre/client.ts";
import { loadSessionUser } from "../identity/session-user.ts";
import { exchangeEntry, recordMeliCall } from "../meli-logs/service.ts";
import { PUBLISH_CONCURRENCY } from "../publishing/service.ts";
import { ListingStatus, TaskStatus, TaskType } from "../../../shared/contract/enums.ts";
import {
  BATCH_SYNC_MAX_LISTINGS,
  type AddSyncTaskRequest,
  type BatchSyncRequest,
  type ClearInvalidResult,
  type ListingTaskResult,
  type SyncReport,
} from "../../../shared/contract/listing-sync.ts";
import type { ListingRow } from "../../../shared/contract/listings.ts";
import { createListingImport, visibleGroup } from "./import.ts";
import { chunks, itemValues, MULTIGET_IDS, pool, readItems, readVisits, VISITS_IDS, type ItemRead } from "./market-reads.ts";
import { listingWhere, rowView, type ListingKind } from "./service.ts";
import { productsFollowListings } from "../products/listing-status.ts";

export const LISTING_SYNC_JOB = "listings.sync";
/** Marks a listing found deleted on Mercado Libre (in its problems; status Closed); ClearInvalidStat removes these. */
export const DELETED_CODE = "meli.deleted";
export const DELETED_REASON = "该商品已在美客多删除";

/** What a sync needs of a listing to read its item and log the call. */
const refColumns = {
  id: listings.id,
  itemId: listings.itemId,
  accountGroupId: listings.accountGroupId,
  site: listings.site,
  batchId: listings.batchId,
};

export type ListingSyncDeps = { database: Database; jobs: Jobs; meli: MeliClient; log: FastifyBaseLogger };

type SyncJob = {
  tenantId: string;
  taskId: string;
  creatorId: string | null;
  /** The listings to read (BatchSyncMeliStat), or every listing of groupId (AddSyncStatTask). */
  listingIds?: string[];
  groupId?: string;
  /** AddSyncStatTask's period: the job queues the next full sync this many hours after it ends. */
  everyHours?: number | null;
};

type ListingRef = { id: string; itemId: string; accountGroupId: string; site: number; batchId: string | null };

/** The content of a periodic full sync's task names its group (how a newer schedule of the group is found). */
const periodicPrefix = (groupName: string) => `定时全量同步店铺在线商品：${groupName}（每 `;

export function createListingSyncService(deps: ListingSyncDeps) {
  const db = deps.database.db;
  const pull = createListingImport(deps);

  async function logCalls(tx: Tx, tenantId: string, refs: ListingRef[], groupId: string, creatorId: string | null, xs: MeliExchange[]) {
    // A multiget or visits call serves many listings: it is logged once, on the listing when it read only one.
    for (const x of xs.splice(0)) {
      await recordMeliCall(tx, {
        tenantId,
        accountGroupId: groupId,
        listingId: refs.length === 1 ? refs[0].id : null,
        batchId: refs.length === 1 ? refs[0].batchId : null,
        site: refs.length === 1 ? refs[0].site : null,
        creatorId,
        ...exchangeEntry(x),
      });
    }
  }

  /**
   * Reads up to VISITS_IDS listings of one shop group from the marketplace (multigets of 20, then one visits call for
   * the items found) and stores what it answered.
   */
  async function syncChunk(
    tenantId: string,
    groupId: string,
    refs: ListingRef[],
    creatorId: string | null,
  ): Promise<{ synced: number; deleted: number; failed: number; reasons: string[] }> {
    const exchanges: MeliExchange[] = [];
    const shop = deps.meli.shop({ tenantId, groupId });
    const reads = new Map<string, ItemRead>();
    for (const c of chunks(refs, MULTIGET_IDS)) {
      const read = await readItems(
        shop,
        c.map((r) => r.itemId),
        (x) => exchanges.push(x),
      );
      for (const [id, r] of read) reads.set(id, r);
    }
    const local = [...reads].filter(([, r]) => r.kind === "item" && r.item.site_id !== "CBT").map(([id]) => id);
    const visits = local.length ? await readVisits(shop, local, (x) => exchanges.push(x), deps.log) : new Map<string, number>();
    const now = new Date();
    const counts = { synced: 0, deleted: 0, failed: 0, reasons: [] as string[] };
    await inScope(db, { tenantId }, async (tx) => {
      const products: (string | null)[] = [];
      for (const ref of refs) {
        const read = reads.get(ref.itemId)!;
        if (read.kind === "failed") {
          counts.failed++;
          // Mercado Libre's reason, for the task's remark (the count alone would hide why).
          if (!counts.reasons.includes(read.reason)) counts.reasons.push(read.reason);
          continue;
        }
        const set: Partial<typeof listings.$inferInsert> =
          read.kind === "item"
            ? {
                ...itemValues(read.item, now),
                ...(visits.has(ref.itemId) ? { views: visits.get(ref.itemId) } : {}),
                reason: null,
                problems: [],
              }
            : {
                status: ListingStatus.Closed,
                reason: DELETED_REASON,
                problems: [{ code: DELETED_CODE, field: null, message: DELETED_REASON, severity: "error" }],
                syncTime: now,
              };
        if (read.kind === "item") counts.synced++;
        else counts.deleted++;
        const [row] = await tx
          .update(listings)
          .set({ ...set, lastModificationTime: now })
          .where(and(eq(listings.tenantId, tenantId), eq(listings.id, ref.id)))
          .returning({ productId: listings.productId });
        products.push(row?.productId ?? null);
      }
      // A listing read closed or gone may leave its product without a live one; a reactivated one publishes it.
      await productsFollowListings(tx, tenantId, products);
      await logCalls(tx, tenantId, refs, groupId, creatorId, exchanges);
    });
    return counts;
  }

  // ------------------------------------------------------------------------------------------------------------
  // SyncMelistat: one listing, read before the call's transaction; the handler answers the stored row.

  async function syncOneBeforeTransaction(call: Omit<CallContext, "tx" | "user">, kind: ListingKind, listingId: string) {
    const principal = call.principal;
    if (!principal) return;
    const ref = await inScope(db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      const [row] = await tx
        .select(refColumns)
        .from(listings)
        .where(and(listingWhere(ctx, kind, {}), eq(listings.id, listingId)));
      return row?.itemId ? (row as ListingRef) : null;
    });
    // Not visible or not on the marketplace: the handler answers it.
    if (!ref) return;
    const c = await syncChunk(call.tenantId, ref.accountGroupId, [ref], principal.userId);
    // Mercado Libre did not answer the item: a failure with its reason, never the stored row as if synced.
    if (c.failed) throw businessError(`${ref.itemId} 同步失败：${c.reasons.join("；") || "美客多未返回该商品"}`, "Listing.SyncFailed");
  }

  async function syncOne(ctx: CallContext, kind: ListingKind, listingId: string): Promise<ListingRow> {
    const [row] = await ctx.tx
      .select({ listing: listings, productTitle: products.titleText, cateZh: meliCategories.zh })
      .from(listings)
      .leftJoin(products, and(eq(products.tenantId, listings.tenantId), eq(products.id, listings.productId)))
      .leftJoin(meliCategories, and(eq(meliCategories.site, listings.site), eq(meliCategories.cateId, listings.cateId)))
      .where(and(listingWhere(ctx, kind, {}), eq(listings.id, listingId)));
    if (!row) throw notFound("在线商品不存在");
    if (!row.listing.itemId) throw businessError("该刊登尚未在美客多上架，无法同步", "Listing.NotOnMarketplace");
    return rowView(row.listing, row.productTitle, row.cateZh);
  }

  // ------------------------------------------------------------------------------------------------------------
  // BatchSyncMeliStat and AddSyncStatTask: a task and its job.

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
      const c = await syncChunk(tenantId, w.groupId, w.refs, job.creatorId).catch((err: unknown) => {
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

  // ------------------------------------------------------------------------------------------------------------
  // ClearInvalidStat: the records of listings found deleted on the marketplace (the items are gone already).

  async function clearInvalid(ctx: CallContext, kind: ListingKind, groupId: string | null | undefined): Promise<ClearInvalidResult> {
    if (groupId) await visibleGroup(ctx, kind, groupId);
    const removed = await ctx.tx
      .delete(listings)
      .where(
        and(
          listingWhere(ctx, kind, { accountGroupId: groupId ?? null }),
          eq(listings.status, ListingStatus.Closed),
          sql`${listings.problems} @> ${JSON.stringify([{ code: DELETED_CODE }])}::jsonb`,
        ),
      )
      .returning({ id: listings.id });
    return { removed: removed.length };
  }

  deps.jobs.handle<SyncJob>(LISTING_SYNC_JOB, runSync, { concurrency: 2, heartbeatSeconds: 10 });

  return {
    syncOneBeforeTransaction,
    syncOne,
    batchSync,
    addSyncTask,
    pullMarket: pull.pullMarket,
    clearInvalid,
    runSync,
    runPull: pull.runPull,
  };
}

export type ListingSyncService = ReturnType<typeof createListingSyncService>;
