// Publishing calls (spec §7 MeliStat / MeliStatNew Publish; the batch and its listings are ours: the spec's publish
// records screen shows them without naming the calls).
import type { Registrar } from "../../http/calls.ts";
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
} from "#shared/contract/publish.ts";

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
    handler: (ctx, { body }) => services.publishing.publishBatchPage(ctx, body),
  });
  r.call({
    group: "MeliStatNew",
    name: "GetPublishBatchListings",
    method: "POST",
    access: "user",
    summary: "The listings of one publish batch: status, site, item id and permalink, the reason when refused or skipped",
    body: getBatchListingsInput,
    result: listingPage,
    handler: (ctx, { body }) => services.publishing.batchListingPage(ctx, body),
  });
}
