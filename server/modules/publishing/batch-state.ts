// A publish batch's state: its counts and status recomputed from its listings (announced on the progress stream), and
// the views the calls answer for a batch and a listing.
import { sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../../db/client.ts";
import type { listings, publishBatches } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import type { Listing, PublishBatch } from "#shared/contract/publish.ts";
import { emitProgress } from "../../jobs/progress.ts";

type BatchCounts = { status: number; total: number; success: number; fail: number; creatorId: string | null };

/** Tells the progress stream how the batch stands (sent when the transaction commits). */
export function announce(tx: Tx, tenantId: string, batchId: string, b: BatchCounts) {
  return emitProgress(tx, {
    tenantId,
    creatorId: b.creatorId,
    kind: "publishBatch",
    id: batchId,
    status: b.status,
    total: b.total,
    success: b.success,
    fail: b.fail,
  });
}

/** The batch's counts and status from its listings, in one statement, announced on the progress stream. */
export async function refreshBatch(db: Db, tenantId: string, batchId: string) {
  await inScope(db, { tenantId }, (tx) => refreshBatchIn(tx, tenantId, batchId));
}

export async function refreshBatchIn(tx: Tx, tenantId: string, batchId: string) {
  // Refreshes of one batch take turns, so each counts after the one before it committed and none writes stale counts.
  await tx.execute(sql`select 1 from publish_batches where tenant_id = ${tenantId} and id = ${batchId} for update`);
  const live = [ListingStatus.Active, ListingStatus.Paused, ListingStatus.UnderReview];
  const [b] = rowsOf<BatchCounts>(
    await tx.execute(sql`with c as (
        select count(*) filter (where status in (${sql.join(
          live.map((s) => sql`${s}::int`),
          sql`, `,
        )}))::int as ok,
          count(*) filter (where status in (${ListingStatus.Refused}::int, ${ListingStatus.Failed}::int))::int as bad,
          count(*) filter (where status in (${ListingStatus.Pending}::int, ${ListingStatus.Publishing}::int))::int as open,
          count(*) filter (where status = ${ListingStatus.Skipped}::int)::int as skipped
        from listings where tenant_id = ${tenantId} and batch_id = ${batchId}
      )
      update publish_batches b set success = c.ok, fail = c.bad, skipped = c.skipped, last_update_time = now(),
        status = case when c.open > 0 then ${PublishBatchStatus.Running}::int
          when c.ok = 0 then ${PublishBatchStatus.Failed}::int
          when c.bad = 0 and c.skipped = 0 then ${PublishBatchStatus.Succeeded}::int
          else ${PublishBatchStatus.PartlySucceeded}::int end
      from c where b.tenant_id = ${tenantId} and b.id = ${batchId}
      returning b.status, b.total, b.success, b.fail, b.creator_id as "creatorId"`),
  );
  if (b) await announce(tx, tenantId, batchId, b);
}

/**
 * The tenant's batches still being written or being removed (a negative status: batch-write.ts), almost always none;
 * reads leave their listings out. A lookup of the small partial index of migration 0028.
 */
export async function hiddenBatchIds(tx: Tx, tenantId: string): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(await tx.execute(sql`select id from publish_batches where tenant_id = ${tenantId} and status < 0`));
  return rows.map((r) => r.id);
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function batchView(b: typeof publishBatches.$inferSelect, groupName: string | null): PublishBatch {
  return {
    id: b.id,
    accountGroupId: b.accountGroupId,
    accountGroupName: groupName,
    sites: b.sites as number[],
    creationTime: iso(b.creationTime),
    creatorId: b.creatorId,
    status: b.status as PublishBatch["status"],
    total: b.total,
    success: b.success,
    fail: b.fail,
    skipped: b.skipped,
    lastUpdateTime: iso(b.lastUpdateTime),
  };
}

export function listingView(l: typeof listings.$inferSelect, productTitle: string | null = null): Listing {
  return {
    id: l.id,
    productTitle,
    batchId: l.batchId,
    accountGroupId: l.accountGroupId,
    productId: l.productId,
    productLabelId: l.productLabelId,
    site: l.site,
    cbtId: l.cbtId,
    itemId: l.itemId,
    cateId: l.cateId,
    cateName: l.cateName,
    title: l.title,
    status: l.status as Listing["status"],
    price: l.price === null ? null : Number(l.price),
    currency: l.currency,
    price_Content: l.priceContent ?? null,
    reason: l.reason,
    problems: l.problems as Listing["problems"],
    permalink: l.permalink,
    listingType: l.listingType,
    image: l.image,
    stock: l.stock,
    creationTime: iso(l.creationTime),
    lastModificationTime: l.lastModificationTime ? iso(l.lastModificationTime) : null,
  };
}
