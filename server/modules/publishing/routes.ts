// Publishing calls (spec §7 MeliStat / MeliStatNew Publish; the batch and its listings are ours: the spec's publish
// records screen shows them without naming the calls).
import { and, count, desc, eq, gt, gte, lte, type SQL } from "drizzle-orm";
import type { Registrar } from "../../http/calls.ts";
import { listings, meliAccountGroups, products, publishBatches } from "../../db/schema.ts";
import { notFound } from "../../http/errors.ts";
import type { Services } from "../../deps.ts";
import {
  getBatchListingsInput,
  getPublishBatchesInput,
  listingPage,
  preflightResult,
  publishBatch,
  publishBatchPage,
  publishRequest,
  publishResult,
  retryPublishInput,
} from "../../../shared/contract/publish.ts";
import { batchView, listingView } from "./batch-state.ts";
import type { CallContext } from "../../http/calls.ts";

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

export function registerPublishing(r: Registrar, services: Services) {
  for (const group of ["MeliStatNew", "MeliStat"]) {
    r.call({
      group,
      name: "Publish",
      method: "POST",
      access: "user",
      idempotent: true,
      summary: "Publishes the selected products to the shop group's sites: answers the batch at once, the jobs create the items",
      body: publishRequest,
      result: publishResult,
      beforeTransaction: (call, { body }) => services.publishing.beforePublish(call, body),
      afterTransaction: (call) => services.publishing.afterPublish(call),
      handler: (ctx, { body }) => services.publishing.publish(ctx, body),
    });
    r.call({
      group,
      name: "RetryPublish",
      method: "POST",
      access: "user",
      idempotent: true,
      summary:
        "Publishes a finished batch's refused, failed and skipped listings again (or the named ones among them) with the products as they are now; answers the batch",
      body: retryPublishInput,
      result: publishBatch,
      handler: (ctx, { body }) => services.publishing.retryPublish(ctx, body),
    });
  }
  r.call({
    group: "MeliStatNew",
    name: "PreflightPublish",
    method: "POST",
    access: "user",
    summary: "The pre-flight check and profit preview of a publish request (first 200 products): nothing is written or sent",
    body: publishRequest,
    result: preflightResult,
    beforeTransaction: async (call, { body }) => {
      await Promise.all([services.publishing.readListingFees(call, body, true), services.publishing.probePreviewPictures(call, body)]);
    },
    handler: (ctx, { body }) => services.publishing.preflightPublish(ctx, body),
  });
  r.call({
    group: "MeliStatNew",
    name: "GetPublishBatchesByPage",
    method: "POST",
    access: "user",
    summary: "The caller's publish batches, newest first, with their counts",
    body: getPublishBatchesInput,
    result: publishBatchPage,
    handler: async (ctx, { body }) => {
      const where = and(
        ownBatches(ctx),
        body.accountGroupId ? eq(publishBatches.accountGroupId, body.accountGroupId) : undefined,
        body.status ? eq(publishBatches.status, body.status) : undefined,
        body.startTime ? gte(publishBatches.creationTime, body.startTime) : undefined,
        body.endTime ? lte(publishBatches.creationTime, body.endTime) : undefined,
      );
      const [{ n }] = await ctx.tx.select({ n: count() }).from(publishBatches).where(where);
      const rows = await ctx.tx
        .select({ batch: publishBatches, groupName: meliAccountGroups.name })
        .from(publishBatches)
        .leftJoin(
          meliAccountGroups,
          and(eq(meliAccountGroups.tenantId, publishBatches.tenantId), eq(meliAccountGroups.id, publishBatches.accountGroupId)),
        )
        .where(where)
        .orderBy(desc(publishBatches.creationTime), desc(publishBatches.id))
        .offset(body.skipCount)
        .limit(body.maxResultCount);
      return { totalCount: n, items: rows.map((r) => batchView(r.batch, r.groupName)) };
    },
  });
  r.call({
    group: "MeliStatNew",
    name: "GetPublishBatchListings",
    method: "POST",
    access: "user",
    summary: "The listings of one publish batch: status, site, item id and permalink, the reason when refused or skipped",
    body: getBatchListingsInput,
    result: listingPage,
    handler: async (ctx, { body }) => {
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
    },
  });
}
