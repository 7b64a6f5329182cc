// Publishing calls, declared in shared/api/publishing.ts (spec §7 MeliStat / MeliStatNew Publish; the batch reads are
// ours: the spec's publish records screen shows them without naming the calls).
import type { Registrar } from "../../http/calls.ts";
import type { Services } from "../../deps.ts";
import { meliStatCalls, meliStatNewCalls as calls } from "#shared/api/publishing.ts";

export function registerPublishing(r: Registrar, { publishing }: Pick<Services, "publishing">) {
  for (const group of [calls, meliStatCalls]) {
    r.handle(group.publish, {
      beforeTransaction: (call, { body }) => publishing.beforePublish(call, body),
      afterTransaction: (call) => publishing.afterPublish(call),
      handler: (ctx, { body }) => publishing.publish(ctx, body),
    });
    r.handle(group.retryPublish, { handler: (ctx, { body }) => publishing.retryPublish(ctx, body) });
  }
  r.handle(calls.preflightPublish, {
    beforeTransaction: async (call, { body }) => {
      await Promise.all([publishing.readListingFees(call, body, true), publishing.probePreviewPictures(call, body)]);
    },
    handler: (ctx, { body }) => publishing.preflightPublish(ctx, body),
  });
  r.handle(calls.getPublishBatchesByPage, { handler: (ctx, { body }) => publishing.publishBatchPage(ctx, body) });
  r.handle(calls.getPublishBatch, { handler: (ctx, { body }) => publishing.publishBatch(ctx, body.batchId) });
  r.handle(calls.getPublishBatchListings, { handler: (ctx, { body }) => publishing.batchListingPage(ctx, body) });
}
