// The listing centre's sync and import calls (spec §7 MeliStat / MeliStatNew SyncMelistat, BatchSyncMeliStat,
// PullMarketStat, AddSyncStatTask, ClearInvalidStat): re-reading listings from Mercado Libre (multiget, 20 ids a call),
// importing a shop's existing listings (scan search + multiget) and removing the records of listings deleted there.
import { z } from "zod";
import { id } from "./common.ts";
import { listingFilter } from "./listings.ts";

/** Listings one BatchSyncMeliStat takes (a larger selection is cut; the answer says how many it took). */
export const BATCH_SYNC_MAX_LISTINGS = 10_000;

/** SyncMelistat: one listing, re-read now; answers the listing's row as stored after the read. */
export const syncListingInput = z.object({ id });

/** BatchSyncMeliStat: the listings named, or those matching the list's filter (only listings with an item id are read). */
export const batchSyncInput = z
  .object({
    ids: z.array(id).max(BATCH_SYNC_MAX_LISTINGS).nullish(),
    filter: listingFilter.nullish(),
  })
  .refine((b) => (b.ids?.length ?? 0) > 0 || b.filter != null, "请选择在线商品或给出筛选条件");
export type BatchSyncRequest = z.output<typeof batchSyncInput>;

/** A sync or import started as a task (the task centre and the progress stream follow it). */
export const listingTaskResult = z.object({
  taskId: z.string(),
  /** Listings the task reads (BatchSyncMeliStat; 0 for an import, which learns its total from the marketplace). */
  total: z.number().int(),
});
export type ListingTaskResult = z.infer<typeof listingTaskResult>;

/** PullMarketStat: import every listing of the shop group's seller(s) not recorded yet. */
export const pullMarketInput = z.object({ accountGroupId: id });

/** AddSyncStatTask: a full sync of the shop group now and, with everyHours, again every so many hours. */
export const addSyncTaskInput = z.object({
  accountGroupId: id,
  everyHours: z.number().int().min(1).max(168).nullish(),
});
export type AddSyncTaskRequest = z.output<typeof addSyncTaskInput>;

/** ClearInvalidStat: removes the records of listings found deleted on Mercado Libre (of one shop group, or all). */
export const clearInvalidInput = z.object({ accountGroupId: id.nullish() });
export const clearInvalidResult = z.object({ removed: z.number().int() });
export type ClearInvalidResult = z.infer<typeof clearInvalidResult>;

/** What an import reports at its end (the task's remark says it in Chinese). */
export type PullReport = { scanned: number; imported: number; known: number; linked: number; failed: number; restarts: number };
/** What a sync reports at its end. */
export type SyncReport = { total: number; synced: number; deleted: number; failed: number };
