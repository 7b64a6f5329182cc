// A publish batch's progress as the screens follow it (the console's publish screen and records, the extension's side
// panel): a batch is running while it is queued or running, a listing is waiting while pending or publishing; the
// screens read the batch again (GetPublishBatch) until it has ended.
import { ListingStatus, PublishBatchStatus } from "../contract/enums.ts";

export const isBatchRunning = (status: number) => status === PublishBatchStatus.Queued || status === PublishBatchStatus.Running;

export const isListingWaiting = (status: number) => status === ListingStatus.Pending || status === ListingStatus.Publishing;

/** Of a batch's total, how many have an outcome (live, refused or failed, skipped), in whole percent (100 when empty). */
export function batchPercent(b: { total: number; success: number; fail: number; skipped: number }): number {
  return b.total ? Math.round(((b.success + b.fail + b.skipped) / b.total) * 100) : 100;
}
