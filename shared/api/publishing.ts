// Publishing calls (spec §7 MeliStat / MeliStatNew Publish; the batch reads are ours).
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
} from "../contract/publish.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

const publish = (group: string) =>
  call({ idempotent: true, method: "POST", path: `/api/${group}/Publish`, body: publishRequest, result: publishResult });
const retryPublish = (group: string) =>
  call({ idempotent: true, method: "POST", path: `/api/${group}/RetryPublish`, body: retryPublishInput, result: publishBatch });

export const meliStatNewCalls = {
  publish: publish("MeliStatNew"),
  retryPublish: retryPublish("MeliStatNew"),
  preflightPublish: call({ method: "POST", path: "/api/MeliStatNew/PreflightPublish", body: publishRequest, result: preflightResult }),
  getPublishBatchesByPage: call({
    method: "POST",
    path: "/api/MeliStatNew/GetPublishBatchesByPage",
    body: getPublishBatchesInput,
    result: publishBatchPage,
  }),
  getPublishBatchListings: call({
    method: "POST",
    path: "/api/MeliStatNew/GetPublishBatchListings",
    body: getBatchListingsInput,
    result: listingPage,
  }),
};

/** The older group: the same Publish. */
export const meliStatCalls = { publish: publish("MeliStat"), retryPublish: retryPublish("MeliStat") };

export const createMeliStatNewApi = (client: ApiClient) => bindCalls(client, meliStatNewCalls);
export const createMeliStatApi = (client: ApiClient) => bindCalls(client, meliStatCalls);
