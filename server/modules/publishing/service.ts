// Publishing (issue 15; spec §3 Listings, §7 MeliStat/MeliStatNew Publish). Publish checks the shop group and its sites,
// selects the products (ids or the product list's filter: selection.ts), plans every product × site (pre-flight and
// price, plan.ts) and writes the batch with its listings (before the call's transaction, in chunks of their own:
// before-call.ts, batch-write.ts) and its jobs (batch-create.ts). Each job creates its product's items (publish-job.ts:
// submit-local.ts, submit-global.ts) and records what Mercado Libre answered; RetryPublish sends a finished batch's
// failures again (retry.ts); PreflightPublish shows the plans without writing (preflight.ts); the records screen reads
// the batches and their listings, the publish screens one batch (batch-views.ts). A listing's id is its publish key:
// sent as the item's seller_custom_field and as the creation's idempotency key, so a job retried after a crash finds the
// item its earlier attempt created instead of creating a second one.
import type { CallContext } from "../../http/calls.ts";
import { worker } from "../../jobs/queue.ts";
import type { PublishRequest, PublishResult } from "#shared/contract/publish.ts";
import { createBatch } from "./batch-create.ts";
import { batchListingPage, publishBatch, publishBatchPage } from "./batch-views.ts";
import { sweepWrittenBatch, type SweepJob } from "./batch-sweep.ts";
import { finishWrittenBatch } from "./batch-write.ts";
import { createBeforeCalls } from "./before-call.ts";
import { createPublishJob, type PublishJob } from "./publish-job.ts";
import { keptPlans } from "./plan-slices.ts";
import { preflightPublish } from "./preflight.ts";
import { retryPublish } from "./retry.ts";
import { resolveRequest, selectedCount } from "./selection.ts";
import type { Planner, PublishingDeps } from "./types.ts";
import { PUBLISH_CONCURRENCY, PUBLISH_JOB, PUBLISH_MAX_PRODUCTS, WRITING_SWEEP_JOB } from "./constants.ts";

// Other modules' imports of these stay as they were.
export { PUBLISH_CONCURRENCY, PUBLISH_JOB } from "./constants.ts";

export function createPublishingService(deps: PublishingDeps, plan: Planner) {
  /** Publish, in the call's transaction: the batch written before it takes its state, or the whole batch is written now. */
  async function publish(ctx: CallContext, request: PublishRequest): Promise<PublishResult> {
    const written = await finishWrittenBatch(deps, ctx, request);
    if (written) return written;
    const resolved = await resolveRequest(ctx, request, PUBLISH_MAX_PRODUCTS);
    const selected = await selectedCount(ctx, request, resolved.productIds.length, resolved.where, PUBLISH_MAX_PRODUCTS);
    return createBatch(deps, ctx, request, { ...resolved, selected }, keptPlans(ctx.req, plan));
  }

  const { runPublishJob, failPublishJob } = createPublishJob(deps, plan);

  return {
    publish,
    preflightPublish: (ctx: CallContext, request: PublishRequest) => preflightPublish(plan, ctx, request),
    retryPublish: (ctx: CallContext, input: { batchId: string; listingIds?: string[] | null }) => retryPublish(deps, ctx, input),
    publishBatchPage,
    publishBatch,
    batchListingPage,
    runPublishJob,
    failPublishJob,
    workers: [
      worker<SweepJob>(WRITING_SWEEP_JOB, (job) => sweepWrittenBatch(deps, job)),
      // 12 at once per process: a worker waits its poll (0.5 s) between jobs, so 12 keep a seller's 1,200 calls a
      // minute busy (bench/RESULTS.md); the shared rate bucket keeps them under it. A job proves it is alive every 5 s.
      worker<PublishJob>(PUBLISH_JOB, runPublishJob, {
        concurrency: PUBLISH_CONCURRENCY,
        heartbeatSeconds: 10,
        onLastFailure: failPublishJob,
      }),
    ],
    ...createBeforeCalls(deps, plan),
  };
}
