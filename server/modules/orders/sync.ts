// Orders from Mercado Libre (issue 18; MERCADO-LIBRE.md "Orders, shipments, labels"). They arrive three ways and are
// stored once per Mercado Libre order id (an upsert that never puts an older read over a newer one: store-orders.ts):
// - a notification (orders_v2 / marketplace_orders, shipments / marketplace_shipments), stored by MeliCallback and
//   handed here by the notification job (listings/notifications.ts): the order is re-read, with its shipment;
// - the periodic pull: every ORDER_PULL_MINUTES a tick queues one pull per shop group with an enabled shop that
//   receives orders (EnableRecieveOrder), reading the orders changed since the group's newest stored change (pull.ts);
// - FetchOrders: the caller's shops' orders bought in a time range, as a task with live progress (fetch-task.ts).
// Every Mercado Libre call goes through integrations/mercadolibre/endpoints (orders, shipments, invoices). Marketplace
// calls never run inside a transaction: a pull reads a page, then stores it in one short transaction.
import { and, eq, inArray, isNotNull, max } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { meliAccounts, meliNotifications, orders } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { loadSessionUser } from "../identity/session-user.ts";
import { MELI_NOTIFICATION_PROCESS_JOB, MeliNotificationStatus, type NotificationProcessJob } from "../meli/notifications.ts";
import { createOrderDocuments, visibleRef } from "./documents.ts";
import { createOrderFetch, ORDER_FETCH_JOB, type FetchJob } from "./fetch-task.ts";
import { createOrderPull, ORDER_SEARCH_RATE, type OrderSearchRate, type PullPoint, type PullTotals, type Window } from "./pull.ts";
import { createOrderReads } from "./read.ts";
import { createOrderStore, groupAndAccounts } from "./store-orders.ts";

export { CBT_SEARCH_LIMIT, LOCAL_SEARCH_LIMIT, ORDER_SEARCH_RATE, orderSearchBucket, SEARCH_MAX_OFFSET } from "./pull.ts";
export type { OrderSearchRate } from "./pull.ts";
export { orderStatusOf } from "./read.ts";

export const ORDER_PULL_JOB = "orders.pull";
export const ORDER_TICK_JOB = "orders.pull-tick";
/** The periodic pull's period. */
export const ORDER_PULL_MINUTES = 10;
/** A group's first periodic pull reaches back this far; later ones from its newest stored change less this margin. */
export const FIRST_PULL_DAYS = 2;
export const PULL_OVERLAP_MS = 10 * 60_000;
/** Topics this module works through. */
export const ORDER_TOPICS = ["orders_v2", "marketplace_orders", "shipments", "marketplace_shipments"];

/**
 * Queues the periodic pull's next tick (once per period, whichever process asks: the job's singleton key names the
 * period). The worker's start calls it (main.ts); each tick queues the next, and an order notification or FetchOrders
 * queues it too, so a chain lost with a database restore starts again by itself.
 */
export async function scheduleOrderTick(jobs: Jobs, tx?: Tx): Promise<void> {
  const period = ORDER_PULL_MINUTES * 60_000;
  const slot = Math.floor(Date.now() / period) + 1;
  const wait = (slot * period - Date.now()) / 1000;
  await jobs.send<{ slot: number }>(
    ORDER_TICK_JOB,
    { slot },
    { singletonKey: `${ORDER_TICK_JOB}:${slot}`, startAfterSeconds: Math.max(1, wait), tx },
  );
}

export type OrderSyncDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  /** The order-search bucket's rate (tests speed it up). */
  orderSearchRate?: OrderSearchRate;
};

type PullJob = { tenantId: string; groupId: string };
type TickJob = { slot: number };

const idOf = (resource: string, kind: "orders" | "shipments") => new RegExp(`/${kind}/(\\d+)`).exec(resource)?.[1] ?? null;

export function createOrderSyncService(deps: OrderSyncDeps) {
  const db = deps.database.db;
  const reads = createOrderReads(deps.log);
  const { storeOrders } = createOrderStore(deps.database);
  const pull = createOrderPull({ meli: deps.meli, reads, store: { storeOrders }, searchRate: deps.orderSearchRate ?? ORDER_SEARCH_RATE });
  const scheduleTick = (tx?: Tx) => scheduleOrderTick(deps.jobs, tx);
  const groupOf = (tenantId: string, groupId: string) => inScope(db, { tenantId }, (tx) => groupAndAccounts(tx, tenantId, groupId));

  /** Reads orders (by Mercado Libre id) and their shipments, and stores them. */
  async function refreshOrders(tenantId: string, groupId: string, ids: string[]): Promise<number> {
    return (await refreshRead(tenantId, groupId, ids)).stored;
  }

  /** Reads the orders again and stores them; answers how many Mercado Libre answered and how many were stored. */
  async function refreshRead(tenantId: string, groupId: string, ids: string[]): Promise<{ read: number; stored: number }> {
    const found = await groupOf(tenantId, groupId);
    if (!found) return { read: 0, stored: 0 };
    const shop = deps.meli.shop({ tenantId, groupId });
    const read = await reads.readOrders(shop, found.group.isCbt, ids);
    return {
      read: read.length,
      stored: await storeOrders(tenantId, groupId, read, await reads.readShipments(shop, found.group.isCbt, read)),
    };
  }

  /** Pulls the group's orders in the window (pull.ts); answers {read, stored, total}. */
  async function pullGroup(
    tenantId: string,
    groupId: string,
    window: Window,
    onlyAccounts: string[] | null,
    onPage?: (p: PullTotals) => Promise<void>,
    point?: { resume: PullPoint | null; save: (tx: Tx, p: PullPoint) => Promise<void> },
  ): Promise<PullTotals> {
    const found = await groupOf(tenantId, groupId);
    if (!found) {
      const r = point?.resume;
      return { read: r?.read ?? 0, stored: r?.stored ?? 0, total: r?.total ?? 0, withoutShipment: r?.withoutShipment ?? 0 };
    }
    return pull.pullGroup(found, tenantId, window, onlyAccounts, onPage, point);
  }

  const fetch = createOrderFetch({ database: deps.database, jobs: deps.jobs, pullGroup, scheduleTick });
  const documents = createOrderDocuments({ meli: deps.meli, reads, refreshOrders });

  /** Every group with an enabled shop receiving orders gets its pull; waiting order notifications are worked through. */
  async function tick() {
    const groups = await inScope(db, hostAllScope, (tx) =>
      tx
        .selectDistinct({ tenantId: meliAccounts.tenantId, groupId: meliAccounts.groupId })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.isEnabled, true), eq(meliAccounts.isReceiveOrder, true))),
    );
    for (const g of groups) {
      await deps.jobs.send<PullJob>(ORDER_PULL_JOB, g, { singletonKey: `${ORDER_PULL_JOB}:${g.tenantId}:${g.groupId}` });
    }
    await processWaiting();
  }

  async function runTick() {
    try {
      await tick();
    } finally {
      await scheduleTick();
    }
  }

  /** One group's periodic pull: the orders changed since its newest stored change (less an overlap). */
  async function runPull(job: PullJob) {
    const newest = await inScope(db, { tenantId: job.tenantId }, async (tx) => {
      const [r] = await tx
        .select({ at: max(orders.meliUpdated) })
        .from(orders)
        .where(and(eq(orders.tenantId, job.tenantId), eq(orders.accountGroupId, job.groupId), isNotNull(orders.meliUpdated)));
      return r?.at ?? null;
    });
    const from = newest ? new Date(newest.getTime() - PULL_OVERLAP_MS) : new Date(Date.now() - FIRST_PULL_DAYS * 86_400_000);
    await pullGroup(job.tenantId, job.groupId, { by: "changed", from }, null);
  }

  /** Order notifications kept Waiting (before this handler existed) go back to the notification job. */
  async function processWaiting() {
    const waiting = await inScope(db, hostAllScope, (tx) =>
      tx
        .update(meliNotifications)
        .set({ status: MeliNotificationStatus.Pending })
        .where(and(eq(meliNotifications.status, MeliNotificationStatus.Waiting), inArray(meliNotifications.topic, ORDER_TOPICS)))
        .returning({ tenantId: meliNotifications.tenantId, id: meliNotifications.id }),
    );
    for (const w of waiting) {
      await deps.jobs.send<NotificationProcessJob>(MELI_NOTIFICATION_PROCESS_JOB, w, { singletonKey: `meli-notification-process:${w.id}` });
    }
    return waiting.length;
  }

  /** The orders a notification names: its order, or a shipment's order and every stored order of that shipment. */
  async function notifiedOrders(tenantId: string, groupId: string, topic: string, resource: string): Promise<string[]> {
    if (!topic.endsWith("shipments")) {
      const orderId = idOf(resource, "orders");
      return orderId ? [orderId] : [];
    }
    const shipmentId = idOf(resource, "shipments");
    if (!shipmentId) return [];
    const stored = await inScope(db, { tenantId }, (tx) =>
      tx
        .select({ id: orders.meliOrderId })
        .from(orders)
        .where(and(eq(orders.tenantId, tenantId), eq(orders.shipmentId, shipmentId))),
    );
    if (stored.length) return stored.map((s) => s.id);
    // Not stored yet: the new shipment format names no order, its items do (envios.md).
    const found = await groupOf(tenantId, groupId);
    if (!found) return [];
    const shop = deps.meli.shop({ tenantId, groupId });
    const items = await reads.readShipmentItems(shop, found.group.isCbt, shipmentId);
    return [...new Set(items.map((i) => i.order_id).filter((x): x is string => !!x))];
  }

  async function processNotification({ tenantId, id }: NotificationProcessJob) {
    const n = await inScope(db, { tenantId }, async (tx) => {
      const [row] = await tx
        .select()
        .from(meliNotifications)
        .where(and(eq(meliNotifications.tenantId, tenantId), eq(meliNotifications.id, id)));
      return row && row.status === MeliNotificationStatus.Pending ? row : null;
    });
    if (!n) return;
    if (n.groupId) {
      const ids = await notifiedOrders(tenantId, n.groupId, n.topic, n.resource);
      if (ids.length) await refreshOrders(tenantId, n.groupId, ids);
    }
    await inScope(db, { tenantId }, (tx) =>
      tx
        .update(meliNotifications)
        .set({ status: MeliNotificationStatus.Processed })
        .where(and(eq(meliNotifications.tenantId, tenantId), eq(meliNotifications.id, id))),
    );
    // Orders are arriving: the periodic pull runs from now on.
    await scheduleTick();
  }

  /** GetNewOrder's read: before the call's transaction (the handler answers the stored row). */
  async function refreshBeforeTransaction(call: Omit<CallContext, "tx" | "user">, id: string) {
    const principal = call.principal;
    if (!principal) return;
    const ref = await inScope(db, { tenantId: call.tenantId }, async (tx) => {
      const ctx = { ...call, tx, user: await loadSessionUser(tx, principal) } as CallContext;
      return visibleRef(ctx, id).catch((err: unknown) => {
        if (err instanceof AppError && err.status === 404) return null;
        throw err;
      });
    });
    if (!ref) return;
    const r = await refreshRead(call.tenantId, ref.accountGroupId, [ref.meliOrderId]);
    // Mercado Libre refused the order (its answer is in the shop's call log): a failure, never the stored row as if synced.
    if (!r.read) throw businessError(`订单 ${ref.meliOrderId} 同步失败：美客多拒绝读取该订单`, "Order.SyncFailed");
  }

  deps.jobs.handle<PullJob>(ORDER_PULL_JOB, runPull, { concurrency: 4, heartbeatSeconds: 10 });
  deps.jobs.handle<TickJob>(ORDER_TICK_JOB, runTick);
  deps.jobs.handle<FetchJob>(ORDER_FETCH_JOB, fetch.runFetch, { concurrency: 2, heartbeatSeconds: 10, onLastFailure: fetch.fetchFailed });

  return {
    /** The notification job's handler for ORDER_TOPICS (listings/notifications.ts hands them here). */
    notifications: { topics: ORDER_TOPICS, process: processNotification },
    storeOrders,
    refreshOrders,
    pullGroup,
    runPull,
    tick,
    scheduleTick,
    processWaiting,
    fetchOrders: fetch.fetchOrders,
    runFetch: fetch.runFetch,
    refreshBeforeTransaction,
    label: documents.label,
    invoice: documents.invoice,
  };
}

export type OrderSyncService = ReturnType<typeof createOrderSyncService>;
/** What the notification job needs of this module. */
export type OrderNotificationHandler = OrderSyncService["notifications"];
