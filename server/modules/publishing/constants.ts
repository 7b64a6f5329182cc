// Publishing's numbers, shared by the service, the job and the listing centre.
import { ListingStatus } from "#shared/contract/enums.ts";

export const PUBLISH_JOB = "publish.product";
/** Publish jobs running at once in each process (see the handler's registration). */
export const PUBLISH_CONCURRENCY = 12;
/** Products one batch may take (a larger selection is cut, and the batch says how many it took). */
export const PUBLISH_MAX_PRODUCTS = 10_000;
/** The listings RetryPublish sends again: refused or failed by Mercado Libre, or skipped by the pre-flight. */
export const RETRYABLE_STATUSES: ListingStatus[] = [ListingStatus.Refused, ListingStatus.Failed, ListingStatus.Skipped];
/** Time PreflightPublish and each publish job give the picture size probe (pictures.ts). */
export const PREVIEW_PROBE_MS = 3000;
export const JOB_PROBE_MS = 5000;

/**
 * A batch's states of its own before it is one (never answered: the contract's PublishBatchStatus is 1-5). A batch
 * being written (Writing) or being removed (Dropping) is hidden with its listings from every read (batch-write.ts).
 */
export const HiddenBatchStatus = { Writing: -1, Dropping: -2 } as const;
/** The removal of a batch left hidden (its writer's process died between chunks). */
export const WRITING_SWEEP_JOB = "publish.writing-sweep";
/** A hidden batch untouched this long is removed by its sweep: its writer stopped (a chunk takes milliseconds). */
export const WRITING_STALE_SECONDS = 120;
