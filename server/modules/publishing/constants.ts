// Publishing's numbers, shared by the service, the job and the listing centre.
import { ListingStatus } from "../../../shared/contract/enums.ts";

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
