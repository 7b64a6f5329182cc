// Publishing calls (spec §7 MeliStat / MeliStatNew Publish; the batch reads, RetryPublish and PreflightPublish are ours:
// the spec's publish records screen shows them without naming the calls).
import {
  getBatchListingsInput,
  getPublishBatchesInput,
  getPublishBatchInput,
  listingPage,
  preflightResult,
  publishBatch,
  publishBatchPage,
  publishRequest,
  publishResult,
  retryPublishInput,
} from "../contract/publish.ts";
import { call } from "./define.ts";

/** Publish and RetryPublish, the same under both groups. */
const publishCalls = (group: string) => ({
  publish: call({
    group,
    name: "Publish",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Publishes the selected products to the shop group's sites: answers the batch at once, the jobs create the items",
    body: publishRequest,
    result: publishResult,
  }),
  retryPublish: call({
    group,
    name: "RetryPublish",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Publishes a finished batch's refused, failed and skipped listings again (or the named ones among them) with the products as they are now; answers the batch",
    body: retryPublishInput,
    result: publishBatch,
  }),
});

const group = "MeliStatNew";

export const meliStatNewCalls = {
  ...publishCalls(group),
  preflightPublish: call({
    group,
    name: "PreflightPublish",
    method: "POST",
    access: "user",
    summary: "The pre-flight check and profit preview of a publish request (first 200 products): nothing is written or sent",
    body: publishRequest,
    result: preflightResult,
  }),
  getPublishBatchesByPage: call({
    group,
    name: "GetPublishBatchesByPage",
    method: "POST",
    access: "user",
    summary: "The caller's publish batches, newest first, with their counts",
    body: getPublishBatchesInput,
    result: publishBatchPage,
  }),
  getPublishBatch: call({
    group,
    name: "GetPublishBatch",
    method: "POST",
    access: "user",
    summary: "One of the caller's publish batches by its id, with its counts (a 404 for a batch the caller does not see)",
    body: getPublishBatchInput,
    result: publishBatch,
  }),
  getPublishBatchListings: call({
    group,
    name: "GetPublishBatchListings",
    method: "POST",
    access: "user",
    summary: "The listings of one publish batch: status, site, item id and permalink, the reason when refused or skipped",
    body: getBatchListingsInput,
    result: listingPage,
  }),
};

/** The older group: the same Publish and RetryPublish. */
export const meliStatCalls = publishCalls("MeliStat");
