// Listing edits (issue 16; spec §7 MeliStat / MeliStatNew UpdateMarketPrice, UpdateMarketTitle, UpdateMarketDescription,
// UpOrDownMarket, DeleteMarket, RemoveStat, RemoveStats, BatchDelete, BatchUpdatePriceDirect, BatchUpdateMeliPrice,
// BatchUpdateStock, BatchUp, BatchDown, BatchUpdateTitle, BatchUpdateDescription, BatchUpdateWeight, BatchUpdateImage).
// One edit of one listing is edit-apply.ts's `applyEdit`. Single calls run it before their own transaction
// (beforeTransaction) and answer what it did; batch calls answer a task at once and run it in one job per listing, the
// task counting each outcome (a job that fails for any other reason than the marketplace's is counted refused too, so
// that no task stays running).
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { listings, taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError, notFound } from "../../http/errors.ts";
import { createTask } from "../../jobs/tasks.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { loadSessionUser } from "../identity/session-user.ts";
import { emitProgress } from "../events/progress.ts";
import { imageSizesOf, probeImageSizes } from "../publishing/pictures.ts";
import { PREVIEW_PROBE_MS, PUBLISH_CONCURRENCY } from "../publishing/service.ts";
import { createEditApplier, ON_MARKET, type Edit, type ListingEditDeps, type ListingRow, type Outcome, type Target } from "./edit-apply.ts";
import { listingWhere, rowView, type ListingKind } from "./service.ts";
import { ListingStatus, TaskStatus, TaskType } from "../../../shared/contract/enums.ts";
import {
  BATCH_EDIT_MAX,
  BATCH_REFUSALS_KEPT,
  type BatchEditState,
  type BatchEditTask,
  type EditResult,
  type MeliPricePreview,
} from "../../../shared/contract/listing-edits.ts";
import type { ListingFilter } from "../../../shared/contract/listings.ts";
import { MIN_PICTURE_PX, usablePictures } from "../../../shared/publish/preflight.ts";
import { productsFollowListings } from "../products/listing-status.ts";

export type { Edit, ListingEditDeps } from "./edit-apply.ts";

export const LISTING_EDIT_JOB = "listings.edit";

type EditJob = { tenantId: string; taskId: string; listingId: string; creatorId: string | null; edit: Edit; attempt?: number };
/** Times a batch's listing is tried when Mercado Libre limits or fails (each after a longer wait). */
export const EDIT_ATTEMPTS = 6;

const opNames: Record<Edit["op"], string> = {
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

/** Outcomes a single call's beforeTransaction leaves for its handler. */
const singleOutcomes = new WeakMap<FastifyRequest, Outcome>();
const previews = new WeakMap<FastifyRequest, MeliPricePreview[]>();

export function createListingEditService(deps: ListingEditDeps) {
  const db = deps.database.db;
  const { loadTarget, store, applyEdit, meliPriceOf } = createEditApplier(deps);

  // ---------------------------------------------------------------------------------------------------------------
  // Single calls.

  /** A single call's listing, visible to the caller in this list, or a 404. */
  async function visibleListing(ctx: CallContext, kind: ListingKind, id: string): Promise<ListingRow> {
    const [row] = await ctx.tx
      .select()
      .from(listings)
      .where(and(listingWhere(ctx, kind, {}), eq(listings.id, id)));
    if (!row) throw notFound("刊登不存在");
    return row;
  }

  /** Runs the edit before the call's transaction; the handler answers it (`answerSingle`). */
  async function runSingle(call: Omit<CallContext, "tx" | "user">, kind: ListingKind, id: string, edit: Edit): Promise<void> {
    const principal = call.principal;
    if (!principal) return;
    const found = await inScope(db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      return visibleListing(ctx, kind, id);
    }).catch((err: unknown) => {
      if (err instanceof AppError) return null; // the call's transaction answers it
      throw err;
    });
    if (!found) return;
    const target = await loadTarget(call.tenantId, found.id);
    if (!target) return;
    singleOutcomes.set(call.req, await applyEdit(target, edit, principal.userId));
  }

  async function answerSingle(ctx: CallContext, kind: ListingKind, id: string): Promise<EditResult> {
    const row = await visibleListing(ctx, kind, id);
    const outcome = singleOutcomes.get(ctx.req);
    if (!outcome) throw notFound("刊登不存在");
    if (outcome.outcome === "refused") throw businessError(outcome.reason ?? "美客多拒绝了修改", "Listing.Refused");
    return { ...outcome, listing: rowView(row, null) };
  }

  /** RemoveStat / RemoveStats / BatchDelete: the records only; the listings stay on Mercado Libre. */
  async function removeRecords(ctx: CallContext, kind: ListingKind, ids: string[]): Promise<{ removed: number }> {
    const gone = await ctx.tx
      .delete(listings)
      .where(and(listingWhere(ctx, kind, {}), inArray(listings.id, ids)))
      .returning({ id: listings.id, productId: listings.productId });
    // A product whose last live listing's record is removed is no longer shown as 已发布.
    await productsFollowListings(
      ctx.tx,
      ctx.tenantId,
      gone.map((g) => g.productId),
    );
    return { removed: gone.length };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Batch calls.

  /**
   * Starts a batch: the selected listings on Mercado Libre (ids or the list's filter, only those the caller sees in this
   * list: another tenant's or another shop's ids are not selected), a task, one job per listing, in the call's
   * transaction. Nothing selected is a 4xx.
   */
  async function startBatch(
    ctx: CallContext,
    kind: ListingKind,
    selection: { ids?: string[] | null; filter?: ListingFilter | null },
    edits: Edit | ((listingId: string) => Edit),
  ): Promise<BatchEditTask> {
    const where = and(
      listingWhere(ctx, kind, selection.filter ?? {}),
      selection.ids?.length ? inArray(listings.id, selection.ids) : undefined,
      isNotNull(listings.itemId),
    );
    const rows = await ctx.tx
      .select({ id: listings.id, status: listings.status, price: listings.price, title: listings.title, stock: listings.stock })
      .from(listings)
      .where(where)
      .orderBy(listings.id)
      .limit(BATCH_EDIT_MAX + 1);
    if (!rows.length) throw businessError("没有可修改的刊登（所选刊登不存在或未在美客多上）", "Listing.NothingSelected");
    if (rows.length > BATCH_EDIT_MAX) throw businessError(`一次最多修改${BATCH_EDIT_MAX}条刊登，请缩小筛选范围`, "Listing.TooMany");
    const editOf = typeof edits === "function" ? edits : () => edits;
    const first = editOf(rows[0].id);
    // A listing whose record already holds the target is counted unchanged now, without a job (the job would skip it
    // too, but 10,000 of them queued would keep the task running for minutes for nothing).
    const toEdit = rows.filter((r) => !alreadyHolds(r, editOf(r.id)));
    const state: BatchEditState = {
      kind: "listingEdit",
      op: first.op,
      total: rows.length,
      done: 0,
      refused: 0,
      skipped: rows.length - toEdit.length,
      outcome: "running",
      refusals: [],
    };
    const view = taskProgress(state);
    const taskId = await createTask(ctx.tx, {
      tenantId: ctx.tenantId,
      taskType: TaskType.BatchUpdateListings,
      content: JSON.stringify(state),
      creatorId: ctx.user!.id,
    });
    await ctx.tx
      .update(taskInfos)
      .set({
        progress: view.progress,
        taskRemark: toEdit.length ? `${opNames[first.op]}：共 ${rows.length} 条刊登` : view.remark,
        ...(toEdit.length ? {} : { taskStatus: view.taskStatus }),
      })
      .where(and(eq(taskInfos.tenantId, ctx.tenantId), eq(taskInfos.id, taskId)));
    await deps.jobs.sendMany<EditJob>(
      LISTING_EDIT_JOB,
      toEdit.map((r) => ({
        tenantId: ctx.tenantId,
        taskId,
        listingId: r.id,
        creatorId: ctx.user!.id,
        edit: editOf(r.id),
      })),
      { tx: ctx.tx },
    );
    return { taskId, total: rows.length };
  }

  /** Before BatchUpdateImage's transaction: pictures the size cache cannot answer are probed (≤ 3 s), as PreflightPublish does. */
  async function probeImages(images: string[]): Promise<void> {
    await probeImageSizes(db, images, { budgetMs: PREVIEW_PROBE_MS, fetch: deps.pictures });
  }

  /**
   * BatchUpdateImage: the pictures not known to be too small, in order (an unknown size is not refused, as in
   * publishing); the call is refused when every picture is known too small.
   */
  async function startImageBatch(
    ctx: CallContext,
    kind: ListingKind,
    body: { ids?: string[] | null; filter?: ListingFilter | null; images: string[] },
  ): Promise<BatchEditTask> {
    const usable = usablePictures(body.images, await imageSizesOf(ctx.tx, body.images));
    if (!usable.length)
      throw businessError(
        `图片尺寸均小于${MIN_PICTURE_PX}像素（美客多要求至少一边${MIN_PICTURE_PX}像素），请换用更大的图片`,
        "Listing.PicturesTooSmall",
      );
    return startBatch(ctx, kind, body, { op: "images", images: usable });
  }

  /** Counts one listing's outcome on the task (row-locked: jobs finish side by side) and announces the progress. */
  async function count(job: EditJob, itemId: string | null, o: Outcome) {
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

  /**
   * One listing of a batch. A rate limit or an outage (after the client's own retries) sends the job again later, up to
   * EDIT_ATTEMPTS times, honouring Retry-After; then the listing is counted refused with the reason, so the task ends.
   * Any other failure (a bug, data the edit cannot handle, an answer it cannot read) would fail the same way again:
   * it is logged and the listing counted refused at once, rather than left to the queue's retries with the task
   * running.
   */
  async function runEditJob(job: EditJob): Promise<void> {
    let target: Target | null = null;
    let o: Outcome = { outcome: "skipped", reason: "刊登已不存在" };
    try {
      target = await loadTarget(job.tenantId, job.listingId);
      if (target) o = await applyEdit(target, job.edit, job.creatorId);
    } catch (err) {
      // An answer that does not read as documented (bad-response) would read the same way again: refused at once.
      if (err instanceof MeliApiError && err.retryable && err.kind !== "bad-response") {
        const attempt = (job.attempt ?? 0) + 1;
        if (attempt < EDIT_ATTEMPTS) {
          await deps.jobs.send<EditJob>(
            LISTING_EDIT_JOB,
            { ...job, attempt },
            { startAfterSeconds: err.retryAfterSeconds ?? 2 ** attempt },
          );
          return;
        }
        o = { outcome: "refused", reason: err.message };
      } else {
        deps.log.error({ err, taskId: job.taskId, listingId: job.listingId, op: job.edit.op }, "listing edit job failed");
        o = { outcome: "refused", reason: "系统处理出错，修改结果未确认，请同步该刊登后重试或联系管理员" };
      }
      const failed = target;
      if (failed)
        await store(failed, [], job.creatorId, { reason: o.reason }).catch((e: unknown) =>
          deps.log.error({ err: e }, "listing edit: reason not stored"),
        );
    }
    await count(job, target?.listing.itemId ?? null, o);
  }

  // As publishing's jobs: the shared per-seller rate bucket keeps them under the seller's limit.
  deps.jobs.handle<EditJob>(LISTING_EDIT_JOB, runEditJob, {
    concurrency: PUBLISH_CONCURRENCY,
    heartbeatSeconds: 10,
    // Counting itself failed on every attempt (the database away): a last try, so the task can still end.
    onLastFailure: (job, err) =>
      count(job, null, { outcome: "refused", reason: `多次重试后仍未完成：${err instanceof Error ? err.message : String(err)}` }),
  });

  /**
   * PreviewMeliPrice, before the call's transaction (the formula reads in transactions of its own): the price
   * BatchUpdateMeliPrice would set on each listing the caller sees, in its order. Nothing is sent to Mercado Libre.
   */
  async function previewMeliPrices(
    call: Omit<CallContext, "tx" | "user">,
    kind: ListingKind,
    input: { ids: string[]; limitMinPrice?: number | null },
  ): Promise<void> {
    const principal = call.principal;
    if (!principal) return;
    const visible = await inScope(db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      const rows = await tx
        .select({ id: listings.id })
        .from(listings)
        .where(and(listingWhere(ctx, kind, {}), inArray(listings.id, input.ids)));
      return new Set(rows.map((r) => r.id));
    });
    const out: MeliPricePreview[] = [];
    for (const id of input.ids.filter((x) => visible.has(x))) {
      const t = await loadTarget(call.tenantId, id);
      if (!t) continue;
      const l = t.listing;
      const priced = await meliPriceOf(t, input.limitMinPrice ?? null);
      out.push({
        id,
        itemId: l.itemId,
        site: l.site,
        price: l.price === null ? null : Number(l.price),
        currency: l.currency,
        next: priced.ok ? priced.price : null,
        reason: priced.ok ? null : priced.reason,
      });
    }
    previews.set(call.req, out);
  }

  /** The previews computed before the transaction (none found: another tenant's or unknown ids answer an empty list). */
  const answerPreview = async (ctx: CallContext): Promise<MeliPricePreview[]> => previews.get(ctx.req) ?? [];

  return {
    applyEdit,
    runSingle,
    answerSingle,
    removeRecords,
    startBatch,
    probeImages,
    startImageBatch,
    runEditJob,
    previewMeliPrices,
    answerPreview,
  };
}

export type ListingEditService = ReturnType<typeof createListingEditService>;

/** Whether a listing's record already holds what the edit sets (as applyEdit's check, on the record alone). */
function alreadyHolds(l: { status: number; price: string | null; title: string | null; stock: number | null }, edit: Edit): boolean {
  if (!ON_MARKET.includes(l.status)) return false;
  if (edit.op === "price") return l.price !== null && Number(l.price) === edit.price;
  if (edit.op === "title") return l.title === edit.title;
  if (edit.op === "stock") return l.stock === edit.stock;
  if (edit.op === "status") return l.status === (edit.status === "active" ? ListingStatus.Active : ListingStatus.Paused);
  return false;
}

/** A batch task's progress, status and remark from its counts; the outcome is set once every listing is counted. */
function taskProgress(s: BatchEditState): { progress: number; taskStatus: number; remark: string } {
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

/** The batch task's state (task_infos.content of a listing edit task). */
export async function batchEditState(tx: Tx, tenantId: string, taskId: string): Promise<BatchEditState | null> {
  const [r] = rowsOf<{ content: string }>(
    await tx.execute(sql`select content from task_infos where tenant_id = ${tenantId} and id = ${taskId}`),
  );
  return r ? (JSON.parse(r.content) as BatchEditState) : null;
}
