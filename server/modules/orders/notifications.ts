// Order and shipment notifications (orders_v2 / marketplace_orders, shipments / marketplace_shipments), handed here by
// the notification job (listings/notifications.ts): the orders a notification names are read again, with their
// shipment, and stored (refresh.ts). A notification only says "this changed": its own data is never applied.
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { meliNotifications, orders } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { Jobs } from "../../jobs/queue.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { MELI_NOTIFICATION_PROCESS_JOB, MeliNotificationStatus, type NotificationProcessJob } from "../meli/index.ts";
import type { OrderReads } from "./read.ts";
import type { OrderRefresh } from "./refresh.ts";

/** Topics this module works through. */
export const ORDER_TOPICS = ["orders_v2", "marketplace_orders", "shipments", "marketplace_shipments"];

export type OrderNotificationDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  reads: OrderReads;
  refresh: Pick<OrderRefresh, "groupOf" | "refreshOrders">;
  /** Queues the periodic pull's next tick (periodic-pull.ts). */
  scheduleTick: () => Promise<void>;
};

const idOf = (resource: string, kind: "orders" | "shipments") => new RegExp(`/${kind}/(\\d+)`).exec(resource)?.[1] ?? null;

export function createOrderNotifications(deps: OrderNotificationDeps) {
  const db = deps.database.db;

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
    const found = await deps.refresh.groupOf(tenantId, groupId);
    if (!found) return [];
    const shop = deps.meli.shop({ tenantId, groupId });
    const items = await deps.reads.readShipmentItems(shop, found.group.isCbt, shipmentId);
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
      if (ids.length) await deps.refresh.refreshOrders(tenantId, n.groupId, ids);
    }
    await inScope(db, { tenantId }, (tx) =>
      tx
        .update(meliNotifications)
        .set({ status: MeliNotificationStatus.Processed })
        .where(and(eq(meliNotifications.tenantId, tenantId), eq(meliNotifications.id, id))),
    );
    // Orders are arriving: the periodic pull runs from now on.
    await deps.scheduleTick();
  }

  return { processNotification, processWaiting };
}
