// The listing centre's calls (spec §7 MeliStat / MeliStatNew): the same calls under both names, MeliStat over local
// shops' listings and MeliStatNew over cross-border shops'. Reads (GetMeliStatsByPage, GetMeliStatGroupInfo), edits
// (single calls change one listing on Mercado Libre and answer what happened; batch calls answer a task at once and
// change each listing in a job) and the sync and import (SyncMelistat re-reads one listing; BatchSyncMeliStat,
// PullMarketStat and AddSyncStatTask answer a task at once).
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
import {
  addSyncTaskInput,
  batchSyncInput,
  clearInvalidInput,
  clearInvalidResult,
  listingTaskResult,
  pullMarketInput,
  syncListingInput,
} from "../contract/listing-sync.ts";
import { getMeliStatsByPageInput, listingFilter, listingGroupInfo, listingRow, listingRowPage } from "../contract/listings.ts";
import { getMarginDriftInput, marginDriftPage, repriceInput, repriceResult, undoRepriceInput } from "../contract/margin-drift.ts";
import { call } from "./define.ts";

type Group = "MeliStatNew" | "MeliStat";

const listingReadCalls = (group: Group) => {
  const which = group === "MeliStatNew" ? "cross-border" : "local";
  return {
    getMeliStatsByPage: call({
      group,
      name: "GetMeliStatsByPage",
      method: "POST",
      access: "user",
      summary: `Listings of the caller's ${which} shops (a sub-account: the shops given to it), filtered and sorted; newest first; the count stops at 1,000`,
      body: getMeliStatsByPageInput,
      result: listingRowPage,
    }),
    getMeliStatGroupInfo: call({
      group,
      name: "GetMeliStatGroupInfo",
      method: "POST",
      access: "user",
      summary: `Counts of the ${which} listings per status, site and shop group for the list's tabs, each with every filter but its own`,
      // The list's filter; paging and sorting do not apply to counts.
      body: listingFilter,
      result: listingGroupInfo,
    }),
  };
};

/** Single and batch edits (contract/listing-edits.ts); batch calls send an Idempotency-Key. */
const listingEditCalls = (group: Group) => {
  const single = <B extends z.ZodType>(name: string, summary: string, body: B) =>
    call({ group, name, method: "POST", access: "user", summary, body, result: editResult });
  const batch = <B extends z.ZodType>(name: string, summary: string, body: B) =>
    call({
      group,
      name,
      method: "POST",
      access: "user",
      idempotent: true,
      summary: `${summary}: answers the task at once, jobs change each listing (done, refused with the reason, or skipped when unchanged)`,
      body,
      result: batchEditTask,
    });
  const removeRecords = (name: string) =>
    call({
      group,
      name,
      method: "POST",
      access: "user",
      summary: "Removes the listings' records only: the items stay on Mercado Libre",
      body: listingIdsInput,
      result: removedCount,
    });
  return {
    updateMarketPrice: single(
      "UpdateMarketPrice",
      "Changes the listing's price on Mercado Libre (none sent when equal)",
      updateMarketPriceInput,
    ),
    updateMarketTitle: single(
      "UpdateMarketTitle",
      "Changes the listing's title on Mercado Libre (none sent when equal)",
      updateMarketTitleInput,
    ),
    updateMarketDescription: single(
      "UpdateMarketDescription",
      "Changes the listing's description on Mercado Libre (plain text; none sent when equal)",
      updateMarketDescriptionInput,
    ),
    upOrDownMarket: single("UpOrDownMarket", "Puts the listing up (Active) or down (Paused) on Mercado Libre", upOrDownMarketInput),
    deleteMarket: single(
      "DeleteMarket",
      "Closes then deletes the listing's item on Mercado Libre; the record stays, Closed",
      listingIdInput,
    ),
    removeStat: call({
      group,
      name: "RemoveStat",
      method: "POST",
      access: "user",
      summary: "Removes the listing's record only: the item stays on Mercado Libre",
      body: listingIdInput,
      result: removedCount,
    }),
    removeStats: removeRecords("RemoveStats"),
    batchDelete: removeRecords("BatchDelete"),
    batchUpdatePriceDirect: batch(
      "BatchUpdatePriceDirect",
      "Sets one price on the selected listings, or their own price on those `prices` names",
      batchUpdatePriceDirectInput,
    ),
    batchUpdateMeliPrice: batch(
      "BatchUpdateMeliPrice",
      "Re-prices the selected listings by their shops' rules and the publish formula, limitMinPrice replacing the shop's minimum",
      batchUpdateMeliPriceInput,
    ),
    previewMeliPrice: call({
      group,
      name: "PreviewMeliPrice",
      method: "POST",
      access: "user",
      summary: "What BatchUpdateMeliPrice would set on up to 5 listings the caller sees (nothing is changed or sent)",
      body: previewMeliPriceInput,
      result: meliPricePreviews,
    }),
    batchUpdateStock: batch(
      "BatchUpdateStock",
      "Sets the stock of the selected listings (a global item's for cross-border)",
      batchUpdateStockInput,
    ),
    batchUp: batch("BatchUp", "Puts the selected listings up (active)", batchSelectionInput),
    batchDown: batch("BatchDown", "Takes the selected listings down (paused)", batchSelectionInput),
    batchUpdateTitle: batch("BatchUpdateTitle", "Sets the title of the selected listings", batchUpdateTitleInput),
    batchUpdateDescription: batch("BatchUpdateDescription", "Sets the description of the selected listings", batchUpdateDescriptionInput),
    batchUpdateWeight: batch(
      "BatchUpdateWeight",
      "Sets the package weight (grams) and optionally size (LxWxH cm) of the selected listings (a global item's for cross-border)",
      batchUpdateWeightInput,
    ),
    batchUpdateImage: batch(
      "BatchUpdateImage",
      "Replaces the pictures of the selected listings (a global item's for cross-border); pictures known under 500 px are left out, and all of them so is a 4xx",
      batchUpdateImageInput,
    ),
  };
};

/** Sync and import (contract/listing-sync.ts); the calls that start a task send an Idempotency-Key. */
const listingSyncCalls = (group: Group) => ({
  syncMelistat: call({
    group,
    name: "SyncMelistat",
    method: "POST",
    access: "user",
    summary: "Re-reads the listing from Mercado Libre (status, price, stock, title, sold, health) and answers it as stored",
    body: syncListingInput,
    result: listingRow,
  }),
  batchSyncMeliStat: call({
    group,
    name: "BatchSyncMeliStat",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Re-reads the selected listings (ids or the list's filter, at most 10,000) with multiget: answers the task at once",
    body: batchSyncInput,
    result: listingTaskResult,
  }),
  pullMarketStat: call({
    group,
    name: "PullMarketStat",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Imports every listing of the shop group's sellers not recorded yet (scan search + multiget), linked to the product whose SKU it carries: answers the task at once",
    body: pullMarketInput,
    result: listingTaskResult,
  }),
  addSyncStatTask: call({
    group,
    name: "AddSyncStatTask",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "A full sync of the shop group's listings now and, with everyHours, again every so many hours: answers the task",
    body: addSyncTaskInput,
    result: listingTaskResult,
  }),
  clearInvalidStat: call({
    group,
    name: "ClearInvalidStat",
    method: "DELETE",
    access: "user",
    summary: "Removes the records of listings found deleted on Mercado Libre (of one shop group, or every one)",
    query: clearInvalidInput,
    result: clearInvalidResult,
  }),
});

/** Margin that follows the rate (issue 32, contract/margin-drift.ts): the drift, 重新定价 and its undo. */
const listingMarginCalls = (group: Group) => ({
  getMarginDrift: call({
    group,
    name: "GetMarginDrift",
    method: "POST",
    access: "user",
    summary:
      "Per listing of the list's filter: the price, the margin when priced and now (today's rates, fees and shop rule, by the publish formula) and the formula's price today; `margin` keeps those under the shop's minimum or at a loss",
    body: getMarginDriftInput,
    result: marginDriftPage,
  }),
  reprice: call({
    group,
    name: "Reprice",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Sets the publish formula's price today on the selected listings (ids or filter): a dry run answers old and new price and margin; applied, a batch task (as every batch edit) keeps each listing's previous price for UndoReprice",
    body: repriceInput,
    result: repriceResult,
  }),
  undoReprice: call({
    group,
    name: "UndoReprice",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Gives the listings of a Reprice batch back the prices it replaced, as a batch task",
    body: undoRepriceInput,
    result: batchEditTask,
  }),
});

const listingCalls = (group: Group) => ({
  ...listingEditCalls(group),
  ...listingSyncCalls(group),
  ...listingReadCalls(group),
  ...listingMarginCalls(group),
});

/** Cross-border shops' listings. */
export const meliStatNewListingCalls = listingCalls("MeliStatNew");
/** Local shops' listings. */
export const meliStatListingCalls = listingCalls("MeliStat");
export type ListingCalls = typeof meliStatNewListingCalls;
