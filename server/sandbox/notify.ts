// The sandbox's notifications (MERCADO-LIBRE.md "Notifications"): when an item changes (created, its price, stock or
// status put, sold) or an order appears, the app's notifications URL gets a POST of {_id, resource, user_id, topic,
// application_id, attempts, sent, received}, as Mercado Libre sends them. Delivery never holds the sandbox's answer: it
// starts after the change, and a failure (no answer, a non-2xx, more than the timeout) is tried again a few times with
// a growing wait, `attempts` counting the tries. Without a notifications URL (the default) nothing is sent.
// Tests set the URL (and, in process, the sender) through control.notifications and wait with `settle()`.
import { randomUUID } from "node:crypto";
import type { Item, Store } from "./store.ts";

export type NotificationPayload = {
  _id: string;
  resource: string;
  user_id: number;
  topic: string;
  application_id: number;
  attempts: number;
  sent: string;
  received: string;
};

/** Posts one notification; answers the HTTP status (a throw counts as a failed try). */
export type NotificationSender = (url: string, payload: NotificationPayload) => Promise<number>;

/** One notification as the sandbox tried to deliver it (the last try's payload and status). */
export type Delivery = { payload: NotificationPayload; url: string; status: number | null; delivered: boolean };

/** Tries per notification, and the wait before the 2nd, 3rd… (doubling). */
const NOTIFY_TRIES = 4;
const FIRST_WAIT_MS = 200;
const TIMEOUT_MS = 5000;
/** Deliveries kept for `deliveries()`. */
const KEEP = 2000;

const fetchSender: NotificationSender = async (url, payload) => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await res.body?.cancel();
  return res.status;
};

type Notifier = {
  url: string | null;
  send: NotificationSender;
  inFlight: Set<Promise<void>>;
  log: Delivery[];
  /** Stops retries of deliveries started before (reset). */
  generation: number;
};

const notifiers = new WeakMap<Store, Notifier>();

function notifierOf(store: Store): Notifier {
  let n = notifiers.get(store);
  if (!n) {
    n = { url: null, send: fetchSender, inFlight: new Set(), log: [], generation: 0 };
    notifiers.set(store, n);
  }
  return n;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function deliver(n: Notifier, url: string, payload: NotificationPayload, generation: number) {
  const entry: Delivery = { payload, url, status: null, delivered: false };
  n.log.push(entry);
  if (n.log.length > KEEP) n.log.splice(0, n.log.length - KEEP);
  for (let attempt = 1; attempt <= NOTIFY_TRIES && generation === n.generation; attempt++) {
    if (attempt > 1) await wait(FIRST_WAIT_MS * 2 ** (attempt - 2));
    const body = { ...payload, attempts: attempt };
    entry.payload = body;
    try {
      entry.status = await n.send(url, body);
    } catch {
      entry.status = null;
    }
    if (entry.status !== null && entry.status >= 200 && entry.status < 300) {
      entry.delivered = true;
      return;
    }
  }
}

/** Queues one notification (after the current request's work: never awaited by a route). */
export function notify(store: Store, topic: string, resource: string, userId: number) {
  const n = notifierOf(store);
  const url = n.url;
  if (!url) return;
  const at = store.iso();
  const payload: NotificationPayload = {
    _id: randomUUID(),
    resource,
    user_id: userId,
    topic,
    application_id: Number(store.state.app.clientId),
    attempts: 1,
    sent: at,
    received: at,
  };
  const generation = n.generation;
  const p: Promise<void> = new Promise<void>((r) => setImmediate(r)).then(() => deliver(n, url, payload, generation));
  n.inFlight.add(p);
  void p.finally(() => n.inFlight.delete(p));
}

/** An item changed: `items` for a local or global item, `marketplace_items` for a global item's site item. */
export function notifyItem(store: Store, item: Item) {
  if (item.parent_item_id) notify(store, "marketplace_items", `/marketplace/items/${item.id}`, item.seller_id);
  else notify(store, "items", `/items/${item.id}`, item.seller_id);
}

/** A global item changed: it and each of its site items (their stock and pictures follow it). */
export function notifyGlobalItem(store: Store, parent: Item) {
  notifyItem(store, parent);
  for (const link of store.state.globalLinks.get(parent.id) ?? []) {
    const child = store.state.items.get(link.itemId);
    if (child) notifyItem(store, child);
  }
}

/** What a notification about an item, an order or its shipment says: topic, resource and seller, as a change would. */
export type NotificationAbout = { topic: string; resource: string; userId: number };

/**
 * The notification a change of this item, order or shipment sends (a global seller's on the marketplace topics), or
 * null when the sandbox has no such item, or no such order yet.
 */
function notificationAbout(store: Store, kind: "items" | "orders_v2" | "shipments", id: string): NotificationAbout | null {
  const { state } = store;
  if (kind === "items") {
    const item = state.items.get(id);
    if (!item) return null;
    return item.parent_item_id
      ? { topic: "marketplace_items", resource: `/marketplace/items/${item.id}`, userId: item.seller_id }
      : { topic: "items", resource: `/items/${item.id}`, userId: item.seller_id };
  }
  const order = /^\d+$/.test(id) ? state.orders.get(Number(id)) : undefined;
  if (!order || order.createdAt > store.now()) return null;
  const global = state.users.get(order.sellerId)?.parentId != null;
  const what = kind === "orders_v2" ? `orders/${order.id}` : `shipments/${order.shippingId}`;
  if (global)
    return {
      topic: `marketplace_${kind === "orders_v2" ? "orders" : "shipments"}`,
      resource: `/marketplace/${what}`,
      userId: order.sellerId,
    };
  return { topic: kind, resource: `/${what}`, userId: order.sellerId };
}

/** The controls (control.notifications). */
export function notificationControl(store: Store) {
  const n = notifierOf(store);
  return {
    /** The app's notifications URL (null: send nothing); `send` replaces the HTTP POST (an in-process app). */
    configure(o: { url: string | null; send?: NotificationSender }) {
      n.url = o.url;
      n.send = o.send ?? fetchSender;
    },
    url: () => n.url,
    /** Sends one notification now, as a change would (nothing when no URL is set). */
    send(topic: string, resource: string, userId: number) {
      notify(store, topic, resource, userId);
    },
    /** Sends the notification a change of this item, order or shipment would; null when there is no such thing. */
    sendAbout(kind: "items" | "orders_v2" | "shipments", id: string): NotificationAbout | null {
      const about = notificationAbout(store, kind, id);
      if (about) notify(store, about.topic, about.resource, about.userId);
      return about;
    },
    /** Deliveries so far, oldest first (the last try of each). */
    deliveries: (): Delivery[] => n.log.map((d) => ({ ...d, payload: { ...d.payload } })),
    /** Waits until every queued delivery (with its retries) has finished. */
    async settle() {
      while (n.inFlight.size) await Promise.allSettled([...n.inFlight]);
    },
    /** Forgets the URL, the sender and the log, and stops pending retries. */
    reset() {
      n.generation += 1;
      n.url = null;
      n.send = fetchSender;
      n.log = [];
    },
  };
}
