// A listing sync's read (spec §7 SyncMelistat, BatchSyncMeliStat, AddSyncStatTask): up to VISITS_IDS listings of one shop
// group read from Mercado Libre with multiget (GET /items?ids=, 20 ids a call; a cross-border listing's site item is
// read the same way), their views from the visits resource (GET /visits/items?ids=, 50 ids a call) with the same
// seller's token (a failed visits call keeps the old views: market-reads.ts), then each answer written in one short
// transaction. A listing deleted on the marketplace (404 in the multiget, or sub_status "deleted") is kept as Closed
// with the problem code DELETED_CODE, which ClearInvalidStat removes.
import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { listings } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { MeliClient, MeliExchange } from "../../integrations/mercadolibre/client.ts";
import type { MeliLogService } from "../meli-logs/index.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { chunks, itemValues, MULTIGET_IDS, readItems, readVisits, type ItemRead } from "./market-reads.ts";
import { productsFollowListings } from "../products/index.ts";

/** Marks a listing found deleted on Mercado Libre (in its problems; status Closed); ClearInvalidStat removes these. */
export const DELETED_CODE = "meli.deleted";
export const DELETED_REASON = "该商品已在美客多删除";

/** What a sync needs of a listing to read its item and log the call. */
export const refColumns = {
  id: listings.id,
  itemId: listings.itemId,
  accountGroupId: listings.accountGroupId,
  site: listings.site,
  batchId: listings.batchId,
};

export type ListingRef = { id: string; itemId: string; accountGroupId: string; site: number; batchId: string | null };

export type SyncCounts = { synced: number; deleted: number; failed: number; reasons: string[] };

export type ListingSyncReadDeps = {
  database: Database;
  meli: MeliClient;
  log: FastifyBaseLogger;
  /** The marketplace call log's recorder (the meli-logs service's, handed over by deps.ts). */
  callLog: Pick<MeliLogService, "recordMeliCalls">;
};

export function createListingSyncRead(deps: ListingSyncReadDeps) {
  const db = deps.database.db;

  /** A multiget or visits call serves many listings: it is logged once, on the listing when it read only one. */
  async function logCalls(tx: Tx, tenantId: string, refs: ListingRef[], groupId: string, creatorId: string | null, xs: MeliExchange[]) {
    const one = refs.length === 1 ? refs[0] : null;
    const where = { tenantId, accountGroupId: groupId, listingId: one?.id ?? null, batchId: one?.batchId ?? null, site: one?.site ?? null };
    await deps.callLog.recordMeliCalls(tx, { ...where, creatorId }, xs);
  }

  /**
   * Reads up to VISITS_IDS listings of one shop group from the marketplace (multigets of 20, then one visits call for
   * the items found) and stores what it answered.
   */
  async function syncChunk(tenantId: string, groupId: string, refs: ListingRef[], creatorId: string | null): Promise<SyncCounts> {
    const exchanges: MeliExchange[] = [];
    const shop = deps.meli.shop({ tenantId, groupId });
    const reads = new Map<string, ItemRead>();
    for (const c of chunks(refs, MULTIGET_IDS)) {
      const read = await readItems(
        shop,
        c.map((r) => r.itemId),
        (x) => exchanges.push(x),
      );
      for (const [id, r] of read) reads.set(id, r);
    }
    const local = [...reads].filter(([, r]) => r.kind === "item" && r.item.site_id !== "CBT").map(([id]) => id);
    const visits = local.length ? await readVisits(shop, local, (x) => exchanges.push(x), deps.log) : new Map<string, number>();
    const now = new Date();
    const counts: SyncCounts = { synced: 0, deleted: 0, failed: 0, reasons: [] };
    await inScope(db, { tenantId }, async (tx) => {
      const products: (string | null)[] = [];
      for (const ref of refs) {
        const read = reads.get(ref.itemId)!;
        if (read.kind === "failed") {
          counts.failed++;
          // Mercado Libre's reason, for the task's remark (the count alone would hide why).
          if (!counts.reasons.includes(read.reason)) counts.reasons.push(read.reason);
          continue;
        }
        const set: Partial<typeof listings.$inferInsert> =
          read.kind === "item"
            ? {
                ...itemValues(read.item, now),
                ...(visits.has(ref.itemId) ? { views: visits.get(ref.itemId) } : {}),
                reason: null,
                problems: [],
              }
            : {
                status: ListingStatus.Closed,
                reason: DELETED_REASON,
                problems: [{ code: DELETED_CODE, field: null, message: DELETED_REASON, severity: "error" }],
                syncTime: now,
              };
        if (read.kind === "item") counts.synced++;
        else counts.deleted++;
        const [row] = await tx
          .update(listings)
          .set({ ...set, lastModificationTime: now })
          .where(and(eq(listings.tenantId, tenantId), eq(listings.id, ref.id)))
          .returning({ productId: listings.productId });
        products.push(row?.productId ?? null);
      }
      // A listing read closed or gone may leave its product without a live one; a reactivated one publishes it.
      await productsFollowListings(tx, tenantId, products);
      await logCalls(tx, tenantId, refs, groupId, creatorId, exchanges);
    });
    return counts;
  }

  return { syncChunk };
}

export type SyncChunk = ReturnType<typeof createListingSyncRead>["syncChunk"];
