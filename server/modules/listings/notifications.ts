// Mercado Libre's notifications, worked through (issue 16; MERCADO-LIBRE.md "Notifications"): MeliCallback answers at
// once and stores each notification once per Mercado Libre id (meli/notifications.ts), then queues this job for it.
// items / marketplace_items: the listing records of the item in the notified shop group are brought up to the item as
// Mercado Libre holds it now (status, price, stock, sold, health, title), read with the shop's token. orders_v2 /
// marketplace_orders and shipments / marketplace_shipments go to the orders module (orders/sync.ts); topics nobody
// handles yet are kept, marked Waiting.
//
// Duplicates and order: a notification says only "this changed", so processing re-reads the current state and never
// applies the notification's own data. A resent notification (same _id) is stored and processed once. One sent before
// the listing's last sync (with a margin for clock skew) is already reflected: it is marked processed without a call.
// Two reads racing for one listing cannot put an older state over a newer one: a write names the time its read started
// and lands only on a listing last synced before it. A re-read that finds nothing changed writes only the sync time.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { listings, meliNotifications } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import type { MeliClient, MeliExchange } from "../../integrations/mercadolibre/client.ts";
import { getItem, getMarketplaceItem, type ListingItem } from "../../integrations/mercadolibre/endpoints/items.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import type { MeliLogService } from "../meli-logs/index.ts";
import { MELI_NOTIFICATION_PROCESS_JOB, MeliNotificationStatus, type NotificationProcessJob } from "../meli/index.ts";
import { PUBLISH_CONCURRENCY } from "../publishing/index.ts";
import { readVisits } from "./market-reads.ts";
import { productsFollowListings } from "../products/index.ts";

/** Topics that change a listing. */
const ITEM_TOPICS = ["items", "marketplace_items"];
/** A notification sent this long before the listing's last sync may still be newer than it (clock skew): re-read it. */
const SYNC_SKEW_MS = 5000;

export type ListingNotificationDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  /** The orders module's handler of its topics (orders/sync.ts); without it they stay Waiting. */
  orders?: { topics: string[]; process(job: NotificationProcessJob): Promise<void> };
  /** The marketplace call log's recorder (the meli-logs service's, handed over by deps.ts). */
  callLog: Pick<MeliLogService, "recordListingCalls">;
};

/** The item as read (GET /items/{id} or GET /marketplace/items/{id}): the fields a listing keeps. */
type MeliItem = Pick<
  ListingItem,
  "id" | "title" | "status" | "sub_status" | "price" | "currency_id" | "available_quantity" | "sold_quantity" | "health" | "permalink"
>;

type Listing = typeof listings.$inferSelect;

/** The item id a resource names: /items/MLM1, /marketplace/items/MLM1 (and a trailing query or path is ignored). */
function itemIdOf(resource: string): string | null {
  const m = /\/items\/([A-Za-z]{3}\d+)/.exec(resource);
  return m ? m[1].toUpperCase() : null;
}

function statusOf(item: MeliItem): ListingStatus {
  if (item.sub_status?.includes("deleted")) return ListingStatus.Closed;
  if (item.status === "paused") return ListingStatus.Paused;
  if (item.status === "closed") return ListingStatus.Closed;
  if (item.status === "under_review" || item.status === "inactive") return ListingStatus.UnderReview;
  return ListingStatus.Active;
}

const money = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) ? n.toFixed(2) : undefined);
const int = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) ? Math.trunc(n) : undefined);

/** What differs between the listing and the item (only fields the item carries). */
export function listingChanges(l: Listing, item: MeliItem, views?: number): Partial<typeof listings.$inferInsert> {
  const next: Partial<typeof listings.$inferInsert> = {
    status: statusOf(item),
    price: money(item.price),
    currency: item.currency_id ?? undefined,
    stock: int(item.available_quantity),
    orders: int(item.sold_quantity),
    health: typeof item.health === "number" && Number.isFinite(item.health) ? item.health.toFixed(2) : undefined,
    title: item.title,
    permalink: item.permalink ?? undefined,
    views,
  };
  const out: Partial<typeof listings.$inferInsert> = {};
  for (const [k, v] of Object.entries(next) as [keyof Listing, unknown][]) {
    if (v === undefined) continue;
    const current = l[k];
    const same = k === "price" || k === "health" ? current !== null && Number(current) === Number(v) : current === v;
    if (!same) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export function createListingNotificationService(deps: ListingNotificationDeps) {
  const db = deps.database.db;

  async function mark(tenantId: string, id: string, status: number) {
    await inScope(db, { tenantId }, (tx) =>
      tx
        .update(meliNotifications)
        .set({ status })
        .where(and(eq(meliNotifications.tenantId, tenantId), eq(meliNotifications.id, id))),
    );
  }

  /** Works through one stored notification; safe to run again (a retried job finds it processed, or re-reads). */
  async function processNotification({ tenantId, id }: NotificationProcessJob) {
    const found = await inScope(db, { tenantId }, async (tx) => {
      const [n] = await tx
        .select()
        .from(meliNotifications)
        .where(and(eq(meliNotifications.tenantId, tenantId), eq(meliNotifications.id, id)));
      if (!n || n.status !== MeliNotificationStatus.Pending) return null;
      if (!ITEM_TOPICS.includes(n.topic)) return { n, rows: null };
      const itemId = itemIdOf(n.resource);
      const rows = itemId
        ? await tx
            .select()
            .from(listings)
            .where(
              and(
                eq(listings.tenantId, tenantId),
                eq(listings.itemId, itemId),
                // The notified seller's shop group only (the store found it in this tenant).
                n.groupId ? eq(listings.accountGroupId, n.groupId) : undefined,
              ),
            )
        : [];
      return { n, rows, itemId };
    });
    if (!found) return;
    const { n, rows } = found;
    // Orders and shipments go to the orders module; topics with no handler yet stay stored for one.
    if (rows === null && deps.orders?.topics.includes(n.topic)) return deps.orders.process({ tenantId, id });
    if (rows === null) return mark(tenantId, id, MeliNotificationStatus.Waiting);
    if (!rows.length) return mark(tenantId, id, MeliNotificationStatus.Processed);

    // Already reflected: every listing was synced after the notification was sent.
    const sent = n.sentTime?.getTime() ?? null;
    if (sent !== null && rows.every((l) => l.syncTime && l.syncTime.getTime() - SYNC_SKEW_MS > sent)) {
      return mark(tenantId, id, MeliNotificationStatus.Processed);
    }

    const first = rows[0];
    const marketplace = n.topic === "marketplace_items" || first.cbtId !== null;
    const exchanges: MeliExchange[] = [];
    const readAt = new Date();
    let item: MeliItem | null = null;
    let views: number | undefined;
    try {
      const shop = deps.meli.shop({ tenantId, groupId: first.accountGroupId });
      const observe = (x: MeliExchange) => exchanges.push(x);
      item = await (marketplace ? getMarketplaceItem : getItem)(shop, found.itemId!, { observe });
      // A local item's views (global items have none); a failed read keeps the views the listing has.
      if (!marketplace) views = (await readVisits(shop, [found.itemId!], observe, deps.log)).get(found.itemId!);
    } catch (err) {
      if (!(err instanceof MeliApiError)) throw err;
      if (err.retryable) {
        await inScope(db, { tenantId }, (tx) => logCalls(tx, rows, exchanges));
        throw err; // the queue tries again
      }
      // Gone or no longer ours (the shop's authorization withdrawn): nothing to apply. ClearInvalidStat removes
      // records of deleted listings.
      deps.log.info({ tenantId, notification: id, status: err.status }, "notified item could not be read");
    }

    await inScope(db, { tenantId }, async (tx) => {
      if (item) {
        for (const l of rows) {
          const changes = listingChanges(l, item, views);
          const changed = Object.keys(changes).length > 0;
          await tx
            .update(listings)
            .set(changed ? { ...changes, syncTime: readAt, lastModificationTime: new Date() } : { syncTime: readAt })
            .where(
              and(
                eq(listings.tenantId, tenantId),
                eq(listings.id, l.id),
                // A read started later has written already: keep its newer state.
                or(isNull(listings.syncTime), lt(listings.syncTime, readAt)),
              ),
            );
        }
        // A listing closed or reactivated on Mercado Libre moves its product between 已发布 and 待发布.
        await productsFollowListings(
          tx,
          tenantId,
          rows.map((l) => l.productId),
        );
      }
      await logCalls(tx, rows, exchanges);
      await tx
        .update(meliNotifications)
        .set({ status: MeliNotificationStatus.Processed })
        .where(and(eq(meliNotifications.tenantId, tenantId), eq(meliNotifications.id, id)));
    });
  }

  /** The read goes to the call log (MeliStatLog) of the item's listing (the first, when several share it). */
  async function logCalls(tx: Tx, rows: Listing[], exchanges: MeliExchange[]) {
    await deps.callLog.recordListingCalls(tx, rows[0], exchanges);
  }

  return {
    processNotification,
    // Many at once (the seller's shared rate bucket paces the reads), as publishing's jobs.
    workers: [
      worker<NotificationProcessJob>(MELI_NOTIFICATION_PROCESS_JOB, processNotification, {
        concurrency: PUBLISH_CONCURRENCY,
        heartbeatSeconds: 10,
      }),
    ],
  };
}
