// Starting a batch edit (BatchUpdatePriceDirect, BatchUpdateMeliPrice, BatchUpdateStock, BatchUp, BatchDown,
// BatchUpdateTitle, BatchUpdateDescription, BatchUpdateWeight, BatchUpdateImage): the call answers a task at once and
// the edit runs in one job per listing (edit-job.ts), the task counting each outcome (edit-task.ts).
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { listings, taskInfos } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError } from "../../http/errors.ts";
import { createTask } from "../../jobs/tasks.ts";
import { imageSizesOf, probeImageSizes, PREVIEW_PROBE_MS } from "../publishing/index.ts";
import { ListingStatus, TaskType } from "#shared/contract/enums.ts";
import { BATCH_EDIT_MAX, type BatchEditState, type BatchEditTask } from "#shared/contract/listing-edits.ts";
import type { ListingFilter } from "#shared/contract/listings.ts";
import { MIN_PICTURE_PX, usablePictures } from "#shared/publish/preflight.ts";
import { LISTING_EDIT_JOB, type EditJob } from "./edit-job.ts";
import { opNames, taskProgress } from "./edit-task.ts";
import { ON_MARKET, type Edit, type ListingEditDeps } from "./edit-types.ts";
import { listingWhere, type ListingKind } from "./list.ts";

type Selection = { ids?: string[] | null; filter?: ListingFilter | null };

/** Whether a listing's record already holds what the edit sets (as applyEdit's check, on the record alone). */
function alreadyHolds(l: { status: number; price: string | null; title: string | null; stock: number | null }, edit: Edit): boolean {
  if (!ON_MARKET.includes(l.status)) return false;
  if (edit.op === "price") return l.price !== null && Number(l.price) === edit.price;
  if (edit.op === "title") return l.title === edit.title;
  if (edit.op === "stock") return l.stock === edit.stock;
  if (edit.op === "status") return l.status === (edit.status === "active" ? ListingStatus.Active : ListingStatus.Paused);
  return false;
}

export function createBatchEdits(deps: Pick<ListingEditDeps, "database" | "jobs" | "pictures">) {
  /**
   * Starts a batch: the selected listings on Mercado Libre (ids or the list's filter, only those the caller sees in
   * this list: another tenant's or another shop's ids are not selected), a task, one job per listing, in the call's
   * transaction. Nothing selected is a 4xx.
   */
  async function startBatch(
    ctx: Pick<CallContext, "tx" | "tenantId" | "user">,
    kind: ListingKind,
    selection: Selection,
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
    await probeImageSizes(deps.database.db, images, { budgetMs: PREVIEW_PROBE_MS, fetch: deps.pictures });
  }

  /**
   * BatchUpdateImage: the pictures not known to be too small, in order (an unknown size is not refused, as in
   * publishing); the call is refused when every picture is known too small.
   */
  async function startImageBatch(ctx: CallContext, kind: ListingKind, body: Selection & { images: string[] }): Promise<BatchEditTask> {
    const usable = usablePictures(body.images, await imageSizesOf(ctx.tx, body.images));
    if (!usable.length)
      throw businessError(
        `图片尺寸均小于${MIN_PICTURE_PX}像素（美客多要求至少一边${MIN_PICTURE_PX}像素），请换用更大的图片`,
        "Listing.PicturesTooSmall",
      );
    return startBatch(ctx, kind, body, { op: "images", images: usable });
  }

  return { startBatch, probeImages, startImageBatch };
}
