// The listing centre's sync and import (spec §7 MeliStat / MeliStatNew SyncMelistat, BatchSyncMeliStat, PullMarketStat,
// AddSyncStatTask, ClearInvalidStat). Mercado Libre is read with multiget (GET /items?ids=, 20 ids a call; a
// cross-border listing's site item is read the same way) and, for an import, the seller's scan search (scroll ids,
// 100 a page). Items carry no view count: a sync reads the views of the items it read from the visits resource
// (GET /visits/items?ids=, 50 ids a call) with the same seller's token; a failed visits call keeps the old views.
// Marketplace calls are never made inside a transaction: a job reads what it needs in one short transaction, calls,
// then writes each answer in another. A listing deleted on the marketplace (404 in the multiget,
// or sub_status "deleted") is kept as Closed with the problem code DELETED_CODE, which ClearInvalidStat removes.
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { listings, meliAccountGroups, meliAccounts, products, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError, notFound } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import type { MeliClient, MeliExchange, MeliSession } from "../../integrations/mercadolibre/client.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
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
  type PullReport,
  type SyncReport,
} from "../../../shared/contract/listing-sync.ts";
import type { ListingRow } from "../../../shared/contract/listings.ts";
import { listingWhere, rowView, visibleGroups, type ListingKind } from "./service.ts";

export const LISTING_SYNC_JOB = "listings.sync";
export const LISTING_PULL_JOB = "listings.pull";
/** Ids per multiget (Mercado Libre's maximum). */
export const MULTIGET_IDS = 20;
/** Ids per visits call (Mercado Libre's maximum): a sync works in units of this many listings. */
export const VISITS_IDS = 50;
/** Items per scan page (the search's maximum). */
export const SCAN_LIMIT = 100;
/** An import restarts an expired scroll at most this many times per seller before it gives up. */
export const SCROLL_RESTARTS = 5;
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
type PullJob = { tenantId: string; taskId: string; creatorId: string | null; groupId: string };

/** What the multiget answers of an item (the fields the listing keeps). */
export type MeliItem = {
  id: string;
  site_id?: string;
  seller_id?: number;
  title?: string;
  price?: number;
  currency_id?: string;
  available_quantity?: number;
  sold_quantity?: number;
  status?: string;
  sub_status?: string[];
  permalink?: string;
  thumbnail?: string;
  pictures?: { url?: string; secure_url?: string }[];
  category_id?: string;
  listing_type_id?: string;
  parent_item_id?: string | null;
  date_created?: string;
  health?: number | null;
  views?: number | null;
  seller_custom_field?: string | null;
  attributes?: { id?: string; value_name?: string | null }[];
  variations?: { seller_custom_field?: string | null; attributes?: { id?: string; value_name?: string | null }[] }[];
};
type MultigetEntry = { code: number; body: MeliItem | { message?: string; error?: string } };
/** One item's read: the item, gone (deleted on the marketplace), or a failure with its reason. */
type ItemRead = { kind: "item"; item: MeliItem } | { kind: "deleted" } | { kind: "failed"; reason: string };

type ListingRef = { id: string; itemId: string; accountGroupId: string; site: number; batchId: string | null };

export function statusOfItem(meliStatus: string | undefined): ListingStatus {
  if (meliStatus === "paused") return ListingStatus.Paused;
  if (meliStatus === "closed") return ListingStatus.Closed;
  if (meliStatus === "under_review" || meliStatus === "inactive") return ListingStatus.UnderReview;
  return ListingStatus.Active;
}

/** The SKUs an item carries: SELLER_SKU attributes and seller_custom_field, on the item and on its variations. */
export function skusOfItem(item: MeliItem): string[] {
  const out: string[] = [];
  const fromAttrs = (attrs: MeliItem["attributes"]) =>
    (attrs ?? []).filter((a) => a.id === "SELLER_SKU" && a.value_name).map((a) => a.value_name!.trim());
  out.push(...fromAttrs(item.attributes));
  if (item.seller_custom_field) out.push(item.seller_custom_field.trim());
  for (const v of item.variations ?? []) {
    out.push(...fromAttrs(v.attributes));
    if (v.seller_custom_field) out.push(v.seller_custom_field.trim());
  }
  return [...new Set(out.filter(Boolean))];
}

/** What a read item changes on its listing. */
function itemValues(item: MeliItem, now: Date): Partial<typeof listings.$inferInsert> {
  const v: Partial<typeof listings.$inferInsert> = { status: statusOfItem(item.status), syncTime: now };
  if (typeof item.title === "string") v.title = item.title;
  if (typeof item.price === "number") v.price = item.price.toFixed(2);
  if (typeof item.currency_id === "string") v.currency = item.currency_id;
  if (typeof item.available_quantity === "number") v.stock = item.available_quantity;
  if (typeof item.sold_quantity === "number") v.orders = item.sold_quantity;
  if (typeof item.permalink === "string") v.permalink = item.permalink;
  if (typeof item.health === "number") v.health = item.health.toFixed(2);
  if (typeof item.views === "number") v.views = item.views;
  const image = item.pictures?.[0]?.secure_url ?? item.pictures?.[0]?.url ?? item.thumbnail;
  if (image) v.image = image;
  return v;
}

/** The content of a periodic full sync's task names its group (how a newer schedule of the group is found). */
const periodicPrefix = (groupName: string) => `定时全量同步店铺在线商品：${groupName}（每 `;

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs `fn` over items with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await fn(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const chunks = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/** The shop group of the list's kind in the caller's tenant (a sub-account: one it has a shop of), or 404. */
async function visibleGroup(ctx: CallContext, kind: ListingKind, groupId: string) {
  const [group] = await ctx.tx
    .select({ id: meliAccountGroups.id, name: meliAccountGroups.name })
    .from(meliAccountGroups)
    .where(and(visibleGroups(ctx, kind), eq(meliAccountGroups.id, groupId)));
  if (!group) throw notFound("店铺不存在");
  return group;
}

/**
 * Total visits of local items (GET /visits/items answers { id: n }; global items have none), VISITS_IDS a call. An id
 * left out of the answer, or a failed call, has no entry: its listing keeps the views it had.
 */
export async function readVisits(
  shop: MeliSession,
  ids: string[],
  observe: (x: MeliExchange) => void,
  log: FastifyBaseLogger,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const c of chunks(ids, VISITS_IDS)) {
    try {
      const answer = await shop.send<Record<string, unknown>>("GET", "/visits/items", {
        query: { ids: c.join(",") },
        observe: (x) => observe({ ...x, path: `${x.path}?ids=${c.join(",")}` }),
      });
      for (const id of c) {
        const n = answer?.[id];
        if (typeof n === "number" && Number.isInteger(n) && n >= 0) out.set(id, n);
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      log.warn({ err, ids: c.length }, "listing visits read failed");
    }
  }
  return out;
}

export function createListingSyncService(deps: ListingSyncDeps) {
  const db = deps.database.db;

  /** Multiget of up to 20 ids; every id answers one ItemRead (a failed call fails them all with its reason). */
  async function readItems(shop: MeliSession, ids: string[], observe: (x: MeliExchange) => void): Promise<Map<string, ItemRead>> {
    const out = new Map<string, ItemRead>();
    try {
      const answer = await shop.send<MultigetEntry[]>("GET", "/items", {
        query: { ids: ids.join(",") },
        // The log names the ids read (the client's exchange has the path without its query).
        observe: (x) => observe({ ...x, path: `${x.path}?ids=${ids.join(",")}` }),
      });
      for (const [i, entry] of (Array.isArray(answer) ? answer : []).entries()) {
        const body = entry.body as MeliItem;
        const itemId = typeof body?.id === "string" ? body.id : ids[i];
        if (entry.code === 404 || (entry.code === 200 && body.sub_status?.includes("deleted"))) out.set(itemId, { kind: "deleted" });
        else if (entry.code === 200) out.set(itemId, { kind: "item", item: body });
        else out.set(itemId, { kind: "failed", reason: (entry.body as { message?: string }).message ?? `HTTP ${entry.code}` });
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      for (const id of ids) out.set(id, { kind: "failed", reason: err.message });
    }
    for (const id of ids) if (!out.has(id)) out.set(id, { kind: "failed", reason: "美客多未返回该商品" });
    return out;
  }

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
  ): Promise<{ synced: number; deleted: number; failed: number }> {
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
    const counts = { synced: 0, deleted: 0, failed: 0 };
    await inScope(db, { tenantId }, async (tx) => {
      for (const ref of refs) {
        const read = reads.get(ref.itemId)!;
        if (read.kind === "failed") {
          counts.failed++;
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
        await tx
          .update(listings)
          .set({ ...set, lastModificationTime: now })
          .where(and(eq(listings.tenantId, tenantId), eq(listings.id, ref.id)));
      }
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
    if (ref) await syncChunk(call.tenantId, ref.accountGroupId, [ref], principal.userId);
  }

  async function syncOne(ctx: CallContext, kind: ListingKind, listingId: string): Promise<ListingRow> {
    const [row] = await ctx.tx
      .select({ listing: listings, productTitle: products.titleText })
      .from(listings)
      .leftJoin(products, and(eq(products.tenantId, listings.tenantId), eq(products.id, listings.productId)))
      .where(and(listingWhere(ctx, kind, {}), eq(listings.id, listingId)));
    if (!row) throw notFound("在线商品不存在");
    if (!row.listing.itemId) throw businessError("该刊登尚未在美客多上架，无法同步", "Listing.NotOnMarketplace");
    return rowView(row.listing, row.productTitle);
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
    await pool(work, PUBLISH_CONCURRENCY, async (w) => {
      const c = await syncChunk(tenantId, w.groupId, w.refs, job.creatorId).catch((err: unknown) => {
        deps.log.warn({ err, taskId }, "listing sync chunk failed");
        return { synced: 0, deleted: 0, failed: w.refs.length };
      });
      report.synced += c.synced;
      report.deleted += c.deleted;
      report.failed += c.failed;
      if (Date.now() - lastReport > 500) {
        lastReport = Date.now();
        const done = report.synced + report.deleted + report.failed;
        await task({ progress: Math.min(99, Math.floor((done * 100) / Math.max(1, report.total))) });
      }
    });
    const remark = `共 ${report.total} 个：已同步 ${report.synced}，美客多已删除 ${report.deleted}，失败 ${report.failed}`;
    await task({
      taskStatus: report.total > 0 && report.failed === report.total ? TaskStatus.Failed : TaskStatus.Succeeded,
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
  // PullMarketStat: every listing of the group's sellers not recorded yet, imported and linked by SKU.

  async function pullMarket(ctx: CallContext, kind: ListingKind, groupId: string): Promise<ListingTaskResult> {
    const group = await visibleGroup(ctx, kind, groupId);
    const taskId = await createTask(ctx.tx, {
      tenantId: ctx.tenantId,
      taskType: TaskType.SyncListings,
      content: `导入店铺已有在线商品：${group.name}`,
      creatorId: ctx.user!.id,
    });
    await deps.jobs.send<PullJob>(
      LISTING_PULL_JOB,
      { tenantId: ctx.tenantId, taskId, creatorId: ctx.user!.id, groupId: group.id },
      { tx: ctx.tx },
    );
    return { taskId, total: 0 };
  }

  type Account = { id: string; site: number; custId: string; ownerId: string };

  /** Imports the items of one scan page not yet recorded; counts into the report. */
  async function importPage(job: PullJob, account: Account, ids: string[], report: PullReport, shop: MeliSession) {
    const { tenantId } = job;
    const known = await inScope(db, { tenantId }, (tx) =>
      tx
        .select({ itemId: listings.itemId })
        .from(listings)
        .where(and(eq(listings.tenantId, tenantId), inArray(listings.itemId, ids))),
    );
    const knownIds = new Set(known.map((k) => k.itemId));
    report.known += knownIds.size;
    const fresh = ids.filter((id) => !knownIds.has(id));
    if (!fresh.length) return;
    const exchanges: MeliExchange[] = [];
    const items: MeliItem[] = [];
    await pool(chunks(fresh, MULTIGET_IDS), 5, async (c) => {
      const reads = await readItems(shop, c, (x) => exchanges.push(x));
      for (const id of c) {
        const r = reads.get(id)!;
        if (r.kind === "item") items.push(r.item);
        else report.failed++;
      }
    });
    const local = items.filter((i) => i.site_id !== "CBT").map((i) => i.id);
    const visits = local.length ? await readVisits(shop, local, (x) => exchanges.push(x), deps.log) : new Map<string, number>();
    await inScope(db, { tenantId }, async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`erp:listing-import:${tenantId}`}))`);
      // Recorded meanwhile (another import, a publish): not twice.
      const now = await tx
        .select({ itemId: listings.itemId })
        .from(listings)
        .where(
          and(
            eq(listings.tenantId, tenantId),
            inArray(
              listings.itemId,
              items.map((i) => i.id),
            ),
          ),
        );
      const recorded = new Set(now.map((r) => r.itemId));
      report.known += recorded.size;
      const unrecorded = items.filter((i) => !recorded.has(i.id));
      const skus = [...new Set(unrecorded.flatMap(skusOfItem))];
      // One set-based lookup of the page's SKUs; the oldest product wins when two share one.
      const matches = skus.length
        ? await tx
            .select({ id: products.id, sku: products.sku, userId: products.userId })
            .from(products)
            .where(and(eq(products.tenantId, tenantId), eq(products.isDeleted, false), inArray(products.sku, skus)))
            .orderBy(asc(products.creationTime), asc(products.id))
        : [];
      const bySku = new Map<string, { id: string; userId: string }>();
      for (const m of matches) if (m.sku && !bySku.has(m.sku)) bySku.set(m.sku, m);
      const stamp = new Date();
      const rows: (typeof listings.$inferInsert)[] = unrecorded.map((item) => {
        const product = skusOfItem(item)
          .map((s) => bySku.get(s))
          .find(Boolean);
        if (product) report.linked++;
        const created = item.date_created ? new Date(item.date_created) : stamp;
        return {
          tenantId,
          id: randomUUID(),
          batchId: null,
          accountGroupId: job.groupId,
          accountId: account.id,
          userId: product?.userId ?? account.ownerId,
          productId: product?.id ?? null,
          site: account.site,
          cbtId: item.parent_item_id ?? null,
          itemId: item.id,
          cateId: item.category_id ?? null,
          listingType: item.listing_type_id ?? null,
          ...itemValues(item, stamp),
          ...(visits.has(item.id) ? { views: visits.get(item.id) } : {}),
          status: statusOfItem(item.status),
          creationTime: Number.isNaN(created.getTime()) ? stamp : created,
          creatorId: job.creatorId,
        };
      });
      for (const c of chunks(rows, 500)) await tx.insert(listings).values(c);
      report.imported += rows.length;
      for (const x of exchanges.splice(0)) {
        await recordMeliCall(tx, {
          tenantId,
          accountGroupId: job.groupId,
          site: account.site,
          creatorId: job.creatorId,
          ...exchangeEntry(x),
        });
      }
    });
  }

  const expiredScroll = (err: unknown) =>
    err instanceof MeliApiError && err.meli.status === 400 && /scroll/i.test(`${err.meli.error ?? ""} ${err.meli.message ?? ""}`);

  async function runPull(job: PullJob): Promise<void> {
    const { tenantId, taskId } = job;
    const task = (change: Parameters<typeof updateTask>[3]) => updateTask(db, tenantId, taskId, change);
    const accounts: Account[] = await inScope(db, { tenantId }, (tx) =>
      tx
        .select({ id: meliAccounts.id, site: meliAccounts.site, custId: meliAccounts.custId, ownerId: meliAccounts.ownerId })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.groupId, job.groupId), eq(meliAccounts.isEnabled, true)))
        .orderBy(asc(meliAccounts.site)),
    );
    await task({ taskStatus: TaskStatus.Running, progress: 0, taskRemark: "开始导入" });
    const report: PullReport = { scanned: 0, imported: 0, known: 0, linked: 0, failed: 0, restarts: 0 };
    const shop = deps.meli.shop({ tenantId, groupId: job.groupId });
    const totals = new Map<string, number>();
    const remarkOf = (r: PullReport) =>
      `扫描 ${r.scanned} 个：新导入 ${r.imported}（关联商品 ${r.linked}），已有 ${r.known}，失败 ${r.failed}` +
      (r.restarts ? `；滚动查询过期重新开始 ${r.restarts} 次` : "");
    try {
      for (const account of accounts) {
        // Ids seen in this import: a restarted scroll lists them again, they are not counted or imported twice.
        const seen = new Set<string>();
        let scrollId: string | undefined;
        let restarts = 0;
        for (;;) {
          const exchanges: MeliExchange[] = [];
          let page: { scroll_id?: string; results?: string[]; paging?: { total?: number } };
          try {
            page = await shop.send("GET", `/users/${encodeURIComponent(account.custId)}/items/search`, {
              query: { search_type: "scan", limit: SCAN_LIMIT, ...(scrollId ? { scroll_id: scrollId } : {}) },
              observe: (x) => exchanges.push(x),
            });
          } catch (err) {
            await inScope(db, { tenantId }, async (tx) => {
              for (const x of exchanges.splice(0))
                await recordMeliCall(tx, {
                  tenantId,
                  accountGroupId: job.groupId,
                  site: account.site,
                  creatorId: job.creatorId,
                  ...exchangeEntry(x),
                });
            });
            if (scrollId && expiredScroll(err) && restarts < SCROLL_RESTARTS) {
              restarts++;
              report.restarts++;
              scrollId = undefined;
              continue;
            }
            throw err;
          }
          scrollId = page.scroll_id;
          totals.set(account.id, Math.max(totals.get(account.id) ?? 0, page.paging?.total ?? 0));
          const results = page.results ?? [];
          if (!results.length) break;
          const fresh = results.filter((id) => !seen.has(id));
          for (const id of fresh) seen.add(id);
          report.scanned += fresh.length;
          if (fresh.length) await importPage(job, account, fresh, report, shop);
          const total = [...totals.values()].reduce((a, b) => a + b, 0);
          await task({ progress: Math.min(99, Math.floor((report.scanned * 100) / Math.max(1, total))), taskRemark: remarkOf(report) });
          if (!scrollId) break;
        }
      }
    } catch (err) {
      if (err instanceof MeliApiError && err.retryable) throw err; // the queue retries; known items are skipped then
      await task({ taskStatus: TaskStatus.Failed, progress: 100, taskRemark: `${remarkOf(report)}；导入中止：${reasonOf(err)}` });
      if (!(err instanceof AppError)) throw err;
      return;
    }
    await task({ taskStatus: TaskStatus.Succeeded, progress: 100, taskRemark: remarkOf(report) });
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
  deps.jobs.handle<PullJob>(LISTING_PULL_JOB, runPull, { concurrency: 2, heartbeatSeconds: 10 });

  return { syncOneBeforeTransaction, syncOne, batchSync, addSyncTask, pullMarket, clearInvalid, runSync, runPull };
}

export type ListingSyncService = ReturnType<typeof createListingSyncService>;
