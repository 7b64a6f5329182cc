// The listing centre's sync (spec §7 MeliStat / MeliStatNew): SyncMelistat reads one listing (sync-one.ts),
// BatchSyncMeliStat and AddSyncStatTask read many as a task (sync-task.ts), each through the same read of a chunk of
// listings (sync-read.ts); PullMarketStat imports the items not recorded yet (import.ts); ClearInvalidStat is here.
// Marketplace calls are never made inside a transaction: a job reads what it needs in one short transaction, calls,
// then writes each answer in another. This file puts the parts together, with the sync's and the import's job workers.
import { and, eq, sql } from "drizzle-orm";
import { listings } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { worker } from "../../jobs/queue.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { ClearInvalidResult } from "#shared/contract/listing-sync.ts";
import { createListingImport, visibleGroup, type ListingImportDeps } from "./import.ts";
import { listingWhere, type ListingKind } from "./list.ts";
import { createListingSyncOne } from "./sync-one.ts";
import { createListingSyncRead, DELETED_CODE, type ListingSyncReadDeps } from "./sync-read.ts";
import { createListingSyncTasks, LISTING_SYNC_JOB, type SyncJob } from "./sync-task.ts";

export { DELETED_CODE, DELETED_REASON } from "./sync-read.ts";

/** What the import and the sync's reads are built from (the job of the sync tasks needs no more). */
export type ListingSyncDeps = ListingImportDeps & ListingSyncReadDeps;

export function createListingSyncService(deps: ListingSyncDeps) {
  const pull = createListingImport(deps);
  const { syncChunk } = createListingSyncRead(deps);
  const one = createListingSyncOne({ database: deps.database, syncChunk });
  const tasks = createListingSyncTasks({ database: deps.database, jobs: deps.jobs, log: deps.log, syncChunk });

  // ClearInvalidStat: the records of listings found deleted on the marketplace (the items are gone already).
  async function clearInvalid(ctx: CallContext, kind: ListingKind, groupId: string | null | undefined): Promise<ClearInvalidResult> {
    if (groupId) await visibleGroup(ctx, kind, groupId);
    const removed = await ctx.tx
      .delete(listings)
      .where(
        and(
          listingWhere(ctx, kind, { accountGroupId: groupId ?? null }),
          eq(listings.status, ListingStatus.Closed),
          sql`${listings.problems} @> ${JSON.stringify([{ code: DELETED_CODE }])}::jsonb`,
        ),
      )
      .returning({ id: listings.id });
    return { removed: removed.length };
  }

  return {
    syncOneBeforeTransaction: one.syncOneBeforeTransaction,
    syncOne: one.syncOne,
    batchSync: tasks.batchSync,
    addSyncTask: tasks.addSyncTask,
    pullMarket: pull.pullMarket,
    clearInvalid,
    runSync: tasks.runSync,
    runPull: pull.runPull,
    workers: [worker<SyncJob>(LISTING_SYNC_JOB, tasks.runSync, { concurrency: 2, heartbeatSeconds: 10 }), ...pull.workers],
  };
}
