// The listing centre's read calls (spec §7 MeliStat / MeliStatNew GetMeliStatsByPage, GetMeliStatGroupInfo).
import { getMeliStatGroupInfoInput, getMeliStatsByPageInput, listingGroupInfo, listingRowPage } from "../contract/listings.ts";
import {
  addSyncTaskInput,
  batchSyncInput,
  clearInvalidInput,
  clearInvalidResult,
  listingTaskResult,
  pullMarketInput,
  syncListingInput,
} from "../contract/listing-sync.ts";
import { listingRow } from "../contract/listings.ts";
import type { z } from "zod";
import {
  batchEditTask,
  batchSelectionInput,
  batchUpdateDescriptionInput,
  batchUpdateImageInput,
  batchUpdateMeliPriceInput,
  batchUpdatePriceDirectInput,
  batchUpdateStockInput,
  batchUpdateTitleInput,
  batchUpdateWeightInput,
  editResult,
  listingIdInput,
  listingIdsInput,
  meliPricePreviews,
  previewMeliPriceInput,
  removedCount,
  updateMarketDescriptionInput,
  updateMarketPriceInput,
  updateMarketTitleInput,
  upOrDownMarketInput,
} from "../contract/listing-edits.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

/** Sync and import (contract/listing-sync.ts). */
/** Sync and import (contract/listing-sync.ts); the calls that start a task send an Idempotency-Key. */
const listingSyncCalls = (group: string) => ({
  syncMelistat: call({ method: "POST", path: `/api/${group}/SyncMelistat`, body: syncListingInput, result: listingRow }),
  batchSyncMeliStat: call({
    idempotent: true,
    method: "POST",
    path: `/api/${group}/BatchSyncMeliStat`,
    body: batchSyncInput,
    result: listingTaskResult,
  }),
  pullMarketStat: call({
    idempotent: true,
    method: "POST",
    path: `/api/${group}/PullMarketStat`,
    body: pullMarketInput,
    result: listingTaskResult,
  }),
  addSyncStatTask: call({
    idempotent: true,
    method: "POST",
    path: `/api/${group}/AddSyncStatTask`,
    body: addSyncTaskInput,
    result: listingTaskResult,
  }),
  clearInvalidStat: call({
    method: "DELETE",
    path: `/api/${group}/ClearInvalidStat`,
    query: clearInvalidInput,
    result: clearInvalidResult,
  }),
});

/** Single and batch edits (contract/listing-edits.ts); batch calls send an Idempotency-Key. */
const listingEditCalls = (group: string) => {
  const single = <B extends z.ZodType>(name: string, body: B) =>
    call({ method: "POST", path: `/api/${group}/${name}`, body, result: editResult });
  const batch = <B extends z.ZodType>(name: string, body: B) =>
    call({ idempotent: true, method: "POST", path: `/api/${group}/${name}`, body, result: batchEditTask });
  return {
    updateMarketPrice: single("UpdateMarketPrice", updateMarketPriceInput),
    updateMarketTitle: single("UpdateMarketTitle", updateMarketTitleInput),
    updateMarketDescription: single("UpdateMarketDescription", updateMarketDescriptionInput),
    upOrDownMarket: single("UpOrDownMarket", upOrDownMarketInput),
    deleteMarket: single("DeleteMarket", listingIdInput),
    removeStat: call({ method: "POST", path: `/api/${group}/RemoveStat`, body: listingIdInput, result: removedCount }),
    removeStats: call({ method: "POST", path: `/api/${group}/RemoveStats`, body: listingIdsInput, result: removedCount }),
    batchDelete: call({ method: "POST", path: `/api/${group}/BatchDelete`, body: listingIdsInput, result: removedCount }),
    batchUpdatePriceDirect: batch("BatchUpdatePriceDirect", batchUpdatePriceDirectInput),
    batchUpdateMeliPrice: batch("BatchUpdateMeliPrice", batchUpdateMeliPriceInput),
    previewMeliPrice: call({
      method: "POST",
      path: `/api/${group}/PreviewMeliPrice`,
      body: previewMeliPriceInput,
      result: meliPricePreviews,
    }),
    batchUpdateStock: batch("BatchUpdateStock", batchUpdateStockInput),
    batchUp: batch("BatchUp", batchSelectionInput),
    batchDown: batch("BatchDown", batchSelectionInput),
    batchUpdateTitle: batch("BatchUpdateTitle", batchUpdateTitleInput),
    batchUpdateDescription: batch("BatchUpdateDescription", batchUpdateDescriptionInput),
    batchUpdateWeight: batch("BatchUpdateWeight", batchUpdateWeightInput),
    batchUpdateImage: batch("BatchUpdateImage", batchUpdateImageInput),
  };
};

const listingReads = (group: string) => ({
  ...listingEditCalls(group),
  ...listingSyncCalls(group),
  getMeliStatsByPage: call({
    method: "POST",
    path: `/api/${group}/GetMeliStatsByPage`,
    body: getMeliStatsByPageInput,
    result: listingRowPage,
  }),
  getMeliStatGroupInfo: call({
    method: "POST",
    path: `/api/${group}/GetMeliStatGroupInfo`,
    body: getMeliStatGroupInfoInput,
    result: listingGroupInfo,
  }),
});

/** Cross-border shops' listings. */
export const meliStatNewListingCalls = listingReads("MeliStatNew");
/** Local shops' listings. */
export const meliStatListingCalls = listingReads("MeliStat");

export const createMeliStatNewListingApi = (client: ApiClient) => bindCalls(client, meliStatNewListingCalls);
export const createMeliStatListingApi = (client: ApiClient) => bindCalls(client, meliStatListingCalls);
