// A batch edit's job: one listing of the batch, its outcome counted on the task (edit-task.ts). A job that fails for
// any other reason than the marketplace's is counted refused too, so that no task stays running.
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import type { EditApplier } from "./edit-apply.ts";
import { countOutcome } from "./edit-task.ts";
import type { Edit, ListingEditDeps, Outcome, Target } from "./edit-types.ts";

export const LISTING_EDIT_JOB = "listings.edit";
/** Times a batch's listing is tried when Mercado Libre limits or fails (each after a longer wait). */
export const EDIT_ATTEMPTS = 6;

export type EditJob = { tenantId: string; taskId: string; listingId: string; creatorId: string | null; edit: Edit; attempt?: number };

export function createEditJob(deps: ListingEditDeps, applier: Pick<EditApplier, "loadTarget" | "applyEdit" | "store">) {
  const db = deps.database.db;
  const { loadTarget, applyEdit, store } = applier;

  /**
   * One listing of a batch. A rate limit or an outage (after the client's own retries) sends the job again later, up
   * to EDIT_ATTEMPTS times, honouring Retry-After; then the listing is counted refused with the reason, so the task
   * ends. Any other failure (a bug, data the edit cannot handle, an answer it cannot read) would fail the same way
   * again: it is logged and the listing counted refused at once, rather than left to the queue's retries with the
   * task running.
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
    await countOutcome(db, job, target?.listing.itemId ?? null, o);
  }

  /** Counting itself failed on every attempt (the database away): a last try, so the task can still end. */
  const failEditJob = (job: EditJob, err: unknown) =>
    countOutcome(db, job, null, { outcome: "refused", reason: `多次重试后仍未完成：${err instanceof Error ? err.message : String(err)}` });

  return { runEditJob, failEditJob };
}
