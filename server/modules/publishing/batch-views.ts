// The publish records screen's reads: the caller's batches (GetPublishBatchesByPage), one batch (GetPublishBatch: the
// publish screen and the extension's panel follow the batch they started) and one batch's listings
// (GetPublishBatchListings), newest first, with their counts.
import { and, count, desc, eq, gt, gte, lte, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { listings, meliAccountGroups, products, publishBatches } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { notFound } from "../../http/errors.ts";
import type { getBatchListingsInput, getPublishBatchesInput, Listing, PublishBatch } from "#shared/contract/publish.ts";
import { batchView, listingView } from "./batch-state.ts";

type Page<T> = { totalCount: number; items: T[] };

/**
 * A sub-account sees the batches it started and the listings of its own products; nobody sees a batch still being
 * written or being removed (a negative status: batch-write.ts).
 */
const ownBatches = (ctx: CallContext): SQL =>
  and(
    eq(publishBatches.tenantId, ctx.tenantId),
    gt(publishBatches.status, 0),
    ctx.user!.isMainAccount ? undefined : eq(publishBatches.creatorId, ctx.user!.id),
  )!;

/** The caller's batches with their shop group's name. */
const withGroupName = (ctx: CallContext, where: SQL | undefined) =>
  ctx.tx
    .select({ batch: publishBatches, groupName: meliAccountGroups.name })
    .from(publishBatches)
    .leftJoin(
      meliAccountGroups,
      and(eq(meliAccountGroups.tenantId, publishBatches.tenantId), eq(meliAccountGroups.id, publishBatches.accountGroupId)),
    )
    .where(where);

/** GetPublishBatchesByPage: the caller's batches, newest first, with their shop group's name. */
export async function publishBatchPage(ctx: CallContext, body: z.output<typeof getPublishBatchesInput>): Promise<Page<PublishBatch>> {
  const where = and(
    ownBatches(ctx),
    body.accountGroupId ? eq(publishBatches.accountGroupId, body.accountGroupId) : undefined,
    body.status ? eq(publishBatches.status, body.status) : undefined,
    body.startTime ? gte(publishBatches.creationTime, body.startTime) : undefined,
    body.endTime ? lte(publishBatches.creationTime, body.endTime) : undefined,
  );
  const [{ n }] = await ctx.tx.select({ n: count() }).from(publishBatches).where(where);
  const rows = await withGroupName(ctx, where)
    .orderBy(desc(publishBatches.creationTime), desc(publishBatches.id))
    .offset(body.skipCount)
    .limit(body.maxResultCount);
  return { totalCount: n, items: rows.map((r) => batchView(r.batch, r.groupName)) };
}

/** GetPublishBatch: one of the caller's batches (a 404 for a batch it does not see: another tenant's, another user's). */
export async function publishBatch(ctx: CallContext, batchId: string): Promise<PublishBatch> {
  const [row] = await withGroupName(ctx, and(ownBatches(ctx), eq(publishBatches.id, batchId)));
  if (!row) throw notFound("刊登批次不存在");
  return batchView(row.batch, row.groupName);
}

/** GetPublishBatchListings: one of the caller's batches' listings (a 404 for a batch it does not see). */
export async function batchListingPage(ctx: CallContext, body: z.output<typeof getBatchListingsInput>): Promise<Page<Listing>> {
  const [batch] = await ctx.tx
    .select({ id: publishBatches.id })
    .from(publishBatches)
    .where(and(ownBatches(ctx), eq(publishBatches.id, body.batchId)));
  if (!batch) throw notFound("刊登批次不存在");
  const where = and(
    eq(listings.tenantId, ctx.tenantId),
    eq(listings.batchId, body.batchId),
    body.status ? eq(listings.status, body.status) : undefined,
    body.site ? eq(listings.site, body.site) : undefined,
  );
  const [{ n }] = await ctx.tx.select({ n: count() }).from(listings).where(where);
  const rows = await ctx.tx
    .select({ listing: listings, productTitle: products.titleText })
    .from(listings)
    .leftJoin(products, and(eq(products.tenantId, listings.tenantId), eq(products.id, listings.productId)))
    .where(where)
    .orderBy(desc(listings.creationTime), listings.id)
    .offset(body.skipCount)
    .limit(body.maxResultCount);
  return { totalCount: n, items: rows.map((r) => listingView(r.listing, r.productTitle)) };
}
