// RetryPublish: a finished batch's refused, failed and skipped listings go back to Pending and their products' jobs are
// queued again.
import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import { listings, meliAccountGroups, publishBatches } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError, notFound } from "../../http/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { LISTED_STATUSES } from "#shared/publish/duplicates.ts";
import type { PublishBatch } from "#shared/contract/publish.ts";
import { batchView, refreshBatchIn } from "./batch-state.ts";
import type { PublishJob } from "./publish-job.ts";
import { PUBLISH_JOB, RETRYABLE_STATUSES } from "./constants.ts";
import type { PublishingDeps } from "./types.ts";

/**
 * A listing to retry whose product is not on its shop's site through another listing (waiting, being published or
 * live: shared/publish/duplicates.ts), unless it is a copy the seller asked for: such a listing stays as it is.
 */
const notListedElsewhere = sql`(${listings.duplicateAllowed} or not exists (
  select 1 from listings o where o.tenant_id = ${listings.tenantId} and o.product_id = ${listings.productId}
    and o.account_group_id = ${listings.accountGroupId} and o.site = ${listings.site} and o.id <> ${listings.id}
    and o.status in (${sql.join(
      LISTED_STATUSES.map((s) => sql`${s}::int`),
      sql`, `,
    )})))`;

/**
 * RetryPublish: the batch's refused, failed and skipped listings (only those named, when listingIds is given) go back
 * to Pending and their products' jobs are queued again; each job plans again (the product as it is now) and, as any
 * job that tried before, looks the item up by the listing id before creating it. A batch still running is refused:
 * its jobs hold listings of the same products.
 */
export async function retryPublish(
  deps: Pick<PublishingDeps, "jobs">,
  ctx: CallContext,
  input: { batchId: string; listingIds?: string[] | null },
): Promise<PublishBatch> {
  const u = ctx.user!;
  const [batch] = await ctx.tx
    .select({ id: publishBatches.id, groupName: meliAccountGroups.name })
    .from(publishBatches)
    .leftJoin(
      meliAccountGroups,
      and(eq(meliAccountGroups.tenantId, publishBatches.tenantId), eq(meliAccountGroups.id, publishBatches.accountGroupId)),
    )
    .where(
      and(
        eq(publishBatches.tenantId, ctx.tenantId),
        eq(publishBatches.id, input.batchId),
        gt(publishBatches.status, 0), // not one still being written (batch-write.ts)
        u.isMainAccount ? undefined : eq(publishBatches.creatorId, u.id),
      ),
    )
    .for("update", { of: publishBatches });
  if (!batch) throw notFound("刊登批次不存在");
  const [{ open }] = await ctx.tx
    .select({ open: count() })
    .from(listings)
    .where(
      and(
        eq(listings.tenantId, ctx.tenantId),
        eq(listings.batchId, batch.id),
        inArray(listings.status, [ListingStatus.Pending, ListingStatus.Publishing]),
      ),
    );
  if (open > 0) throw new AppError(409, "批次仍在刊登中，请稍后再试", "Publish.BatchRunning");
  const retryable = and(
    eq(listings.tenantId, ctx.tenantId),
    eq(listings.batchId, batch.id),
    inArray(listings.status, RETRYABLE_STATUSES),
    input.listingIds ? inArray(listings.id, input.listingIds) : undefined,
  );
  const retried = await ctx.tx
    .update(listings)
    .set({
      status: ListingStatus.Pending,
      reason: null,
      problems: [],
      warningMessage: null,
      lastModificationTime: new Date(),
      lastModifierId: u.id,
    })
    .where(and(retryable, notListedElsewhere))
    .returning({ productId: listings.productId });
  if (!retried.length) {
    const [{ n }] = await ctx.tx.select({ n: count() }).from(listings).where(retryable);
    throw businessError(n ? "该商品已在此店铺站点刊登，不会重复刊登" : "没有可重试的刊登", "Publish.NothingToRetry");
  }
  await refreshBatchIn(ctx.tx, ctx.tenantId, batch.id);
  await deps.jobs.sendMany<PublishJob>(
    PUBLISH_JOB,
    // A publish batch's listings always have their product (only imported listings have none).
    [...new Set(retried.map((r) => r.productId!))].map((productId) => ({ tenantId: ctx.tenantId, batchId: batch.id, productId })),
    { tx: ctx.tx },
  );
  const [row] = await ctx.tx
    .select()
    .from(publishBatches)
    .where(and(eq(publishBatches.tenantId, ctx.tenantId), eq(publishBatches.id, batch.id)));
  return batchView(row, batch.groupName);
}
