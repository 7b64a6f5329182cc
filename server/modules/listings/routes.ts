// The listing centre's calls, declared in shared/api/listings.ts (spec §7 MeliStat / MeliStatNew): the same calls under
// both names, MeliStat over local shops' listings and MeliStatNew over cross-border shops'.
import type { z } from "zod";
import type { CallDef } from "#shared/api/define.ts";
import { meliStatListingCalls, meliStatNewListingCalls, type ListingCalls } from "#shared/api/listings.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { BatchEditTask } from "#shared/contract/listing-edits.ts";
import type { CallContext, Registrar } from "../../http/calls.ts";
import type { Services } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import type { Edit } from "./edits.ts";
import { getMeliStatGroupInfo, getMeliStatsByPage, kindOfGroup, type ListingKind } from "./list.ts";
import { getMarginDrift, reprice, undoReprice } from "./margin-drift.ts";

/** Each group's calls with the listings they work on. */
const groups = (): [ListingCalls, ListingKind][] =>
  [meliStatNewListingCalls, meliStatListingCalls].map((calls) => [calls, kindOfGroup(calls.getMeliStatsByPage.group!)]);

export function registerListings(r: Registrar) {
  for (const [calls, kind] of groups()) {
    r.handle(calls.getMeliStatsByPage, { handler: (ctx, { body }) => getMeliStatsByPage(ctx, kind, body) });
    r.handle(calls.getMeliStatGroupInfo, { handler: (ctx, { body }) => getMeliStatGroupInfo(ctx, kind, body) });
  }
}

/**
 * The listing edits: single calls change one listing on Mercado Libre before their transaction and answer what
 * happened; batch calls answer a task at once and change each listing in a job.
 */
export function registerListingEdits(r: Registrar, { listingEdits: edits }: Pick<Services, "listingEdits">) {
  for (const [calls, kind] of groups()) {
    const single = <B extends { id: string }>(declared: CallDef<undefined, z.ZodType<B>, undefined, z.ZodType>, edit: (b: B) => Edit) =>
      r.handle(declared, {
        beforeTransaction: (call, { body }) => edits.runSingle(call, kind, body.id, edit(body)),
        handler: (ctx, { body }) => edits.answerSingle(ctx, kind, body.id),
      });
    single(calls.updateMarketPrice, (b) => ({ op: "price", price: b.price }));
    single(calls.updateMarketTitle, (b) => ({ op: "title", title: b.title }));
    single(calls.updateMarketDescription, (b) => ({ op: "description", description: b.description }));
    single(calls.upOrDownMarket, (b) => ({ op: "status", status: b.status === ListingStatus.Active ? "active" : "paused" }));
    single(calls.deleteMarket, () => ({ op: "delete" }));
    r.handle(calls.removeStat, {
      handler: async (ctx, { body }) => {
        // One named listing that this caller cannot see is not found (RemoveStats counts what it removed).
        const removed = await edits.removeRecords(ctx, kind, [body.id]);
        if (!removed.removed) throw notFound("刊登不存在");
        return removed;
      },
    });
    for (const declared of [calls.removeStats, calls.batchDelete]) {
      r.handle(declared, { handler: (ctx, { body }) => edits.removeRecords(ctx, kind, body.ids) });
    }
    const batch = <B>(
      declared: CallDef<undefined, z.ZodType<B>, undefined, z.ZodType>,
      run: (ctx: CallContext, b: B) => Promise<BatchEditTask>,
      before?: (b: B) => Promise<void>,
    ) =>
      r.handle(declared, {
        ...(before ? { beforeTransaction: (_call, { body }) => before(body) } : {}),
        handler: (ctx, { body }) => run(ctx, body),
      });
    batch(calls.batchUpdatePriceDirect, (ctx, b) =>
      edits.startBatch(ctx, kind, b, b.prices?.length ? pricedEach(b.price, b.prices) : { op: "price", price: b.price }),
    );
    batch(calls.batchUpdateMeliPrice, (ctx, b) =>
      edits.startBatch(ctx, kind, b, { op: "meliPrice", limitMinPrice: b.limitMinPrice ?? null }),
    );
    r.handle(calls.previewMeliPrice, {
      beforeTransaction: (call, { body }) => edits.previewMeliPrices(call, kind, body),
      handler: (ctx) => edits.answerPreview(ctx),
    });
    batch(calls.batchUpdateStock, (ctx, b) => edits.startBatch(ctx, kind, b, { op: "stock", stock: b.stock }));
    batch(calls.batchUp, (ctx, b) => edits.startBatch(ctx, kind, b, { op: "status", status: "active" }));
    batch(calls.batchDown, (ctx, b) => edits.startBatch(ctx, kind, b, { op: "status", status: "paused" }));
    batch(calls.batchUpdateTitle, (ctx, b) => edits.startBatch(ctx, kind, b, { op: "title", title: b.title }));
    batch(calls.batchUpdateDescription, (ctx, b) => edits.startBatch(ctx, kind, b, { op: "description", description: b.description }));
    batch(calls.batchUpdateWeight, (ctx, b) => edits.startBatch(ctx, kind, b, { op: "weight", weight: b.weight, size: b.size ?? null }));
    batch(
      calls.batchUpdateImage,
      (ctx, b) => edits.startImageBatch(ctx, kind, b),
      (b) => edits.probeImages(b.images),
    );
    // Margin that follows the rate (issue 32): the drift by the publish formula, 重新定价 through startBatch, its undo.
    r.handle(calls.getMarginDrift, { handler: (ctx, { body }) => getMarginDrift(ctx, kind, body) });
    r.handle(calls.reprice, { handler: (ctx, { body }) => reprice(ctx, kind, body, edits.startBatch) });
    r.handle(calls.undoReprice, { handler: (ctx, { body }) => undoReprice(ctx, kind, body.taskId, edits.startBatch) });
  }
}

/**
 * The listing sync and import: SyncMelistat re-reads one listing before its transaction; BatchSyncMeliStat,
 * PullMarketStat and AddSyncStatTask answer a task at once and work in a job.
 */
export function registerListingSync(r: Registrar, { listingSync: sync }: Pick<Services, "listingSync">) {
  for (const [calls, kind] of groups()) {
    r.handle(calls.syncMelistat, {
      beforeTransaction: (call, { body }) => sync.syncOneBeforeTransaction(call, kind, body.id),
      handler: (ctx, { body }) => sync.syncOne(ctx, kind, body.id),
    });
    r.handle(calls.batchSyncMeliStat, { handler: (ctx, { body }) => sync.batchSync(ctx, kind, body) });
    r.handle(calls.pullMarketStat, { handler: (ctx, { body }) => sync.pullMarket(ctx, kind, body.accountGroupId) });
    r.handle(calls.addSyncStatTask, { handler: (ctx, { body }) => sync.addSyncTask(ctx, kind, body) });
    r.handle(calls.clearInvalidStat, { handler: (ctx, { query }) => sync.clearInvalid(ctx, kind, query.accountGroupId) });
  }
}

/** One price edit per listing: its own from `prices`, else the batch's price. */
function pricedEach(price: number, prices: { id: string; price: number }[]): (id: string) => Edit {
  const own = new Map(prices.map((p) => [p.id, p.price]));
  return (id) => ({ op: "price", price: own.get(id) ?? price });
}
