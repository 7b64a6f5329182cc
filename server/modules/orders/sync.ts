// Orders from Mercado Libre (issue 18; MERCADO-LIBRE.md "Orders, shipments, labels"). They arrive three ways and are
// stored once per Mercado Libre order id (an upsert that never puts an older read over a newer one: store-orders.ts):
// - a notification (orders_v2 / marketplace_orders, shipments / marketplace_shipments), stored by MeliCallback and
//   handed here by the notification job (listings/notifications.ts): the order is re-read, with its shipment
//   (notifications.ts);
// - the periodic pull: every ORDER_PULL_MINUTES a tick queues one pull per shop group with an enabled shop that
//   receives orders (EnableRecieveOrder), reading the orders changed since the group's newest stored change
//   (periodic-pull.ts, pull.ts);
// - FetchOrders: the caller's shops' orders bought in a time range, as a task with live progress (fetch-task.ts).
// Every Mercado Libre call goes through integrations/mercadolibre/endpoints (orders, shipments, invoices). Marketplace
// calls never run inside a transaction: a pull reads a page, then stores it in one short transaction. This file puts
// the parts together, with their job workers (registered by the app: deps.ts registerWorkers).
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { createOrderDocuments } from "./documents.ts";
import { createOrderFetch, ORDER_FETCH_JOB, type FetchJob } from "./fetch-task.ts";
import { createOrderNotifications, ORDER_TOPICS } from "./notifications.ts";
import { createOrderPeriodicPull, ORDER_PULL_JOB, ORDER_TICK_JOB, scheduleOrderTick, type PullJob, type TickJob } from "./periodic-pull.ts";
import { createOrderPull, ORDER_SEARCH_RATE, type OrderSearchRate } from "./pull.ts";
import { createOrderReads } from "./read.ts";
import { createOrderRefresh } from "./refresh.ts";
import { createOrderStore } from "./store-orders.ts";

export { LOCAL_SEARCH_LIMIT, ORDER_SEARCH_RATE } from "./pull.ts";
export { scheduleOrderTick } from "./periodic-pull.ts";

export type OrderSyncDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  /** The order-search bucket's rate (tests speed it up). */
  orderSearchRate?: OrderSearchRate;
};

export function createOrderSyncService(deps: OrderSyncDeps) {
  const reads = createOrderReads(deps.log);
  const { storeOrders } = createOrderStore(deps.database);
  const pull = createOrderPull({ meli: deps.meli, reads, store: { storeOrders }, searchRate: deps.orderSearchRate ?? ORDER_SEARCH_RATE });
  const scheduleTick = (tx?: Tx) => scheduleOrderTick(deps.jobs, tx);
  const refresh = createOrderRefresh({ database: deps.database, meli: deps.meli, reads, storeOrders, pull });
  const { refreshOrders, pullGroup } = refresh;
  const notified = createOrderNotifications({ database: deps.database, jobs: deps.jobs, meli: deps.meli, reads, refresh, scheduleTick });
  const periodic = createOrderPeriodicPull({
    database: deps.database,
    jobs: deps.jobs,
    pullGroup,
    processWaiting: notified.processWaiting,
  });
  const fetch = createOrderFetch({ database: deps.database, jobs: deps.jobs, pullGroup, scheduleTick });
  const documents = createOrderDocuments({ meli: deps.meli, reads, refreshOrders });

  return {
    workers: [
      worker<PullJob>(ORDER_PULL_JOB, periodic.runPull, { concurrency: 4, heartbeatSeconds: 10 }),
      worker<TickJob>(ORDER_TICK_JOB, periodic.runTick),
      worker<FetchJob>(ORDER_FETCH_JOB, fetch.runFetch, { concurrency: 2, heartbeatSeconds: 10, onLastFailure: fetch.fetchFailed }),
    ],
    /** The notification job's handler for ORDER_TOPICS (listings/notifications.ts hands them here). */
    notifications: { topics: ORDER_TOPICS, process: notified.processNotification },
    storeOrders,
    refreshOrders,
    pullGroup,
    runPull: periodic.runPull,
    tick: periodic.tick,
    scheduleTick,
    processWaiting: notified.processWaiting,
    fetchOrders: fetch.fetchOrders,
    runFetch: fetch.runFetch,
    refreshBeforeTransaction: refresh.refreshBeforeTransaction,
    label: documents.label,
    invoice: documents.invoice,
  };
}
