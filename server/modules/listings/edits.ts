// Listing edits (issue 16; spec §7 MeliStat / MeliStatNew UpdateMarketPrice, UpdateMarketTitle, UpdateMarketDescription,
// UpOrDownMarket, DeleteMarket, RemoveStat, RemoveStats, BatchDelete, BatchUpdatePriceDirect, BatchUpdateMeliPrice,
// BatchUpdateStock, BatchUp, BatchDown, BatchUpdateTitle, BatchUpdateDescription, BatchUpdateWeight, BatchUpdateImage,
// PreviewMeliPrice). One edit of one listing is edit-apply.ts's `applyEdit`. Single calls run it before their own
// transaction and answer what it did (edit-single.ts); batch calls answer a task at once (edit-batch.ts) and run it in
// one job per listing (edit-job.ts), the task counting each outcome (edit-task.ts); PreviewMeliPrice shows the prices
// a batch would set (edit-preview.ts).
import { worker } from "../../jobs/queue.ts";
import { PUBLISH_CONCURRENCY } from "../publishing/index.ts";
import { createEditApplier } from "./edit-apply.ts";
import { createBatchEdits } from "./edit-batch.ts";
import { createEditJob, LISTING_EDIT_JOB, type EditJob } from "./edit-job.ts";
import { createMeliPricePreview } from "./edit-preview.ts";
import { createSingleEdits } from "./edit-single.ts";
import type { ListingEditDeps } from "./edit-types.ts";

export type { Edit, ListingEditDeps } from "./edit-types.ts";

export function createListingEditService(deps: ListingEditDeps) {
  const applier = createEditApplier(deps);
  const { runEditJob, failEditJob } = createEditJob(deps, applier);

  return {
    applyEdit: applier.applyEdit,
    ...createSingleEdits(deps, applier),
    ...createBatchEdits(deps),
    runEditJob,
    ...createMeliPricePreview(deps, applier),
    // As publishing's jobs: the shared per-seller rate bucket keeps them under the seller's limit.
    workers: [
      worker<EditJob>(LISTING_EDIT_JOB, runEditJob, { concurrency: PUBLISH_CONCURRENCY, heartbeatSeconds: 10, onLastFailure: failEditJob }),
    ],
  };
}
