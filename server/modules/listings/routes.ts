// The listing centre's read calls (spec §7 MeliStat / MeliStatNew GetMeliStatsByPage, GetMeliStatGroupInfo): the same
// calls under both names, MeliStat over local shops' listings and MeliStatNew over cross-border shops'.
import type { Registrar } from "../../http/calls.ts";
import { getMeliStatGroupInfoInput, getMeliStatsByPageInput, listingGroupInfo, listingRowPage } from "#shared/contract/listings.ts";
import { getMeliStatGroupInfo, getMeliStatsByPage, kindOfGroup } from "./service.ts";
import type { z } from "zod";
import type { CallContext } from "../../http/calls.ts";
import type { Services } from "../../deps.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { notFound } from "../../http/errors.ts";
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
  type BatchEditTask,
} from "#shared/contract/listing-edits.ts";
import type { Edit } from "./edits.ts";
import {
  addSyncTaskInput,
  batchSyncInput,
  clearInvalidInput,
  clearInvalidResult,
  listingTaskResult,
  pullMarketInput,
  syncListingInput,
} from "#shared/contract/listing-sync.ts";
import { listingRow } from "#shared/contract/listings.ts";

export function registerListings(r: Registrar) {
  for (const group of ["MeliStatNew", "MeliStat"]) {
    const kind = kindOfGroup(group);
    const which = kind === "cbt" ? "cross-border" : "local";
    r.call({
      group,
      name: "GetMeliStatsByPage",
      method: "POST",
      access: "user",
      summary: `Listings of the caller's ${which} shops (a sub-account: the shops given to it), filtered and sorted; newest first; the count stops at 1,000`,
      body: getMeliStatsByPageInput,
      result: listingRowPage,
      handler: (ctx, { body }) => getMeliStatsByPage(ctx, kind, body),
    });
    r.call({
      group,
      name: "GetMeliStatGroupInfo",
      method: "POST",
      access: "user",
      summary: `Counts of the ${which} listings per status, site and shop group for the list's tabs, each with every filter but its own`,
      body: getMeliStatGroupInfoInput,
      result: listingGroupInfo,
      handler: (ctx, { body }) => getMeliStatGroupInfo(ctx, kind, body),
    });
  }
}

/**
 * The listing edits (spec §7 MeliStat / MeliStatNew): single calls change one listing on Mercado Libre before their
 * transaction and answer what happened; batch calls answer a task at once and change each listing in a job.
 */
export function registerListingEdits(r: Registrar, services: Services) {
  const edits = services.listingEdits;
  for (const group of ["MeliStatNew", "MeliStat"]) {
    const kind = kindOfGroup(group);
    const single = <B extends z.ZodType<{ id: string }>>(name: string, summary: string, body: B, edit: (b: z.output<B>) => Edit) =>
      r.call({
        group,
        name,
        method: "POST",
        access: "user",
        summary,
        body,
        result: editResult,
        beforeTransaction: (call, { body: b }) => edits.runSingle(call, kind, b.id, edit(b)),
        handler: (ctx, { body: b }) => edits.answerSingle(ctx, kind, b.id),
      });
    single("UpdateMarketPrice", "Changes the listing's price on Mercado Libre (none sent when equal)", updateMarketPriceInput, (b) => ({
      op: "price",
      price: b.price,
    }));
    single("UpdateMarketTitle", "Changes the listing's title on Mercado Libre (none sent when equal)", updateMarketTitleInput, (b) => ({
      op: "title",
      title: b.title,
    }));
    single(
      "UpdateMarketDescription",
      "Changes the listing's description on Mercado Libre (plain text; none sent when equal)",
      updateMarketDescriptionInput,
      (b) => ({ op: "description", description: b.description }),
    );
    single("UpOrDownMarket", "Puts the listing up (Active) or down (Paused) on Mercado Libre", upOrDownMarketInput, (b) => ({
      op: "status",
      status: b.status === ListingStatus.Active ? "active" : "paused",
    }));
    single("DeleteMarket", "Closes then deletes the listing's item on Mercado Libre; the record stays, Closed", listingIdInput, () => ({
      op: "delete",
    }));
    r.call({
      group,
      name: "RemoveStat",
      method: "POST",
      access: "user",
      summary: "Removes the listing's record only: the item stays on Mercado Libre",
      body: listingIdInput,
      result: removedCount,
      handler: async (ctx, { body }) => {
        // One named listing that this caller cannot see is not found (RemoveStats counts what it removed).
        const removed = await edits.removeRecords(ctx, kind, [body.id]);
        if (!removed.removed) throw notFound("刊登不存在");
        return removed;
      },
    });
    for (const name of ["RemoveStats", "BatchDelete"]) {
      r.call({
        group,
        name,
        method: "POST",
        access: "user",
        summary: "Removes the listings' records only: the items stay on Mercado Libre",
        body: listingIdsInput,
        result: removedCount,
        handler: (ctx, { body }) => edits.removeRecords(ctx, kind, body.ids),
      });
    }
    const batch = <B extends z.ZodType>(
      name: string,
      summary: string,
      body: B,
      run: (ctx: CallContext, b: z.output<B>) => Promise<BatchEditTask>,
      before?: (b: z.output<B>) => Promise<void>,
    ) =>
      r.call({
        group,
        name,
        method: "POST",
        access: "user",
        idempotent: true,
        summary: `${summary}: answers the task at once, jobs change each listing (done, refused with the reason, or skipped when unchanged)`,
        body,
        result: batchEditTask,
        ...(before ? { beforeTransaction: (_call: unknown, { body: b }: { body: z.output<B> }) => before(b) } : {}),
        handler: (ctx, { body: b }) => run(ctx, b),
      });
    batch(
      "BatchUpdatePriceDirect",
      "Sets one price on the selected listings, or their own price on those `prices` names",
      batchUpdatePriceDirectInput,
      (ctx, b) => edits.startBatch(ctx, kind, b, b.prices?.length ? pricedEach(b.price, b.prices) : { op: "price", price: b.price }),
    );
    batch(
      "BatchUpdateMeliPrice",
      "Re-prices the selected listings by their shops' rules and the publish formula, limitMinPrice replacing the shop's minimum",
      batchUpdateMeliPriceInput,
      (ctx, b) => edits.startBatch(ctx, kind, b, { op: "meliPrice", limitMinPrice: b.limitMinPrice ?? null }),
    );
    r.call({
      group,
      name: "PreviewMeliPrice",
      method: "POST",
      access: "user",
      summary: "What BatchUpdateMeliPrice would set on up to 5 listings the caller sees (nothing is changed or sent)",
      body: previewMeliPriceInput,
      result: meliPricePreviews,
      beforeTransaction: (call, { body: b }) => edits.previewMeliPrices(call, kind, b),
      handler: (ctx) => edits.answerPreview(ctx),
    });
    batch(
      "BatchUpdateStock",
      "Sets the stock of the selected listings (a global item's for cross-border)",
      batchUpdateStockInput,
      (ctx, b) => edits.startBatch(ctx, kind, b, { op: "stock", stock: b.stock }),
    );
    batch("BatchUp", "Puts the selected listings up (active)", batchSelectionInput, (ctx, b) =>
      edits.startBatch(ctx, kind, b, { op: "status", status: "active" }),
    );
    batch("BatchDown", "Takes the selected listings down (paused)", batchSelectionInput, (ctx, b) =>
      edits.startBatch(ctx, kind, b, { op: "status", status: "paused" }),
    );
    batch("BatchUpdateTitle", "Sets the title of the selected listings", batchUpdateTitleInput, (ctx, b) =>
      edits.startBatch(ctx, kind, b, { op: "title", title: b.title }),
    );
    batch("BatchUpdateDescription", "Sets the description of the selected listings", batchUpdateDescriptionInput, (ctx, b) =>
      edits.startBatch(ctx, kind, b, { op: "description", description: b.description }),
    );
    batch(
      "BatchUpdateWeight",
      "Sets the package weight (grams) and optionally size (LxWxH cm) of the selected listings (a global item's for cross-border)",
      batchUpdateWeightInput,
      (ctx, b) => edits.startBatch(ctx, kind, b, { op: "weight", weight: b.weight, size: b.size ?? null }),
    );
    batch(
      "BatchUpdateImage",
      "Replaces the pictures of the selected listings (a global item's for cross-border); pictures known under 500 px are left out, and all of them so is a 4xx",
      batchUpdateImageInput,
      (ctx, b) => edits.startImageBatch(ctx, kind, b),
      (b) => edits.probeImages(b.images),
    );
  }
}

/**
 * The listing sync and import (spec §7 MeliStat / MeliStatNew): SyncMelistat re-reads one listing before its
 * transaction; BatchSyncMeliStat, PullMarketStat and AddSyncStatTask answer a task at once and work in a job.
 */
export function registerListingSync(r: Registrar, services: Services) {
  const sync = services.listingSync;
  for (const group of ["MeliStatNew", "MeliStat"]) {
    const kind = kindOfGroup(group);
    r.call({
      group,
      name: "SyncMelistat",
      method: "POST",
      access: "user",
      summary: "Re-reads the listing from Mercado Libre (status, price, stock, title, sold, health) and answers it as stored",
      body: syncListingInput,
      result: listingRow,
      beforeTransaction: (call, { body }) => sync.syncOneBeforeTransaction(call, kind, body.id),
      handler: (ctx, { body }) => sync.syncOne(ctx, kind, body.id),
    });
    r.call({
      group,
      name: "BatchSyncMeliStat",
      method: "POST",
      access: "user",
      idempotent: true,
      summary: "Re-reads the selected listings (ids or the list's filter, at most 10,000) with multiget: answers the task at once",
      body: batchSyncInput,
      result: listingTaskResult,
      handler: (ctx, { body }) => sync.batchSync(ctx, kind, body),
    });
    r.call({
      group,
      name: "PullMarketStat",
      method: "POST",
      access: "user",
      idempotent: true,
      summary:
        "Imports every listing of the shop group's sellers not recorded yet (scan search + multiget), linked to the product whose SKU it carries: answers the task at once",
      body: pullMarketInput,
      result: listingTaskResult,
      handler: (ctx, { body }) => sync.pullMarket(ctx, kind, body.accountGroupId),
    });
    r.call({
      group,
      name: "AddSyncStatTask",
      method: "POST",
      access: "user",
      idempotent: true,
      summary: "A full sync of the shop group's listings now and, with everyHours, again every so many hours: answers the task",
      body: addSyncTaskInput,
      result: listingTaskResult,
      handler: (ctx, { body }) => sync.addSyncTask(ctx, kind, body),
    });
    r.call({
      group,
      name: "ClearInvalidStat",
      method: "DELETE",
      access: "user",
      summary: "Removes the records of listings found deleted on Mercado Libre (of one shop group, or every one)",
      query: clearInvalidInput,
      result: clearInvalidResult,
      handler: (ctx, { query }) => sync.clearInvalid(ctx, kind, query.accountGroupId),
    });
  }
}

/** One price edit per listing: its own from `prices`, else the batch's price. */
function pricedEach(price: number, prices: { id: string; price: number }[]): (id: string) => Edit {
  const own = new Map(prices.map((p) => [p.id, p.price]));
  return (id) => ({ op: "price", price: own.get(id) ?? price });
}
