// Orders that appear over time, so order sync has work: each connected seller gets 0-2 orders per slot of the sandbox
// clock, at times fixed by (seed, seller, slot). Lines sell the seller's active items when it has some (their stock
// goes down and sold_quantity up), else a sample product. Statuses move on with the clock (payment_required → paid,
// some paid orders are cancelled an hour later). Each order has a shipment (orders of a pack share one: shipments.ts).
// Every change after an order appears (its status, its shipment's) is notified to the app's callback (orders_v2 /
// shipments, marketplace_orders / marketplace_shipments for a global seller's) when the clock reaches it.
// Docs: docs/15-sales-orders/gestiona-ventas.md (GET /orders/search, /orders/{id}); Global Selling "Manage orders"
// (GET /marketplace/orders/search answers purchases wrapping their orders, filtered by date_created / last_updated
// and seller.id, limit ≤ 50; GET /marketplace/orders/{id} in USD with the seller's net proceeds).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { badRequest, forbidden, notFound } from "./errors.ts";
import { syncGlobalStock } from "./global-items.ts";
import { caller, intQuery, params, query, route } from "./http.ts";
import { settleStock } from "./item-rules.ts";
import { notify, notifyGlobalItem, notifyItem } from "./notify.ts";
import { between, unit } from "./random.ts";
import { shipmentAt, shipmentOrders, shippingCosts } from "./shipments.ts";
import { roundPrice, SITES, type LocalSiteId } from "./sites.ts";
import type { Order, OrderStatus, Store, User } from "./store.ts";

const MINUTE = 60_000;

/** The orders planned for a seller in one slot of the clock: times only, the content is decided when they appear. */
function plan(store: Store, sellerId: number, slot: number): number[] {
  const { seed } = store;
  const interval = store.state.orderIntervalMs;
  const r = unit(seed, "orders", sellerId, slot);
  const count = r < 0.5 ? 0 : r < 0.85 ? 1 : 2;
  return Array.from({ length: count }, (_, i) => slot * interval + Math.floor(unit(seed, "order-at", sellerId, slot, i) * interval)).sort(
    (a, b) => a - b,
  );
}

function timeline(store: Store, key: string, at: number): Order["timeline"] {
  const r = unit(store.seed, "order-status", key);
  if (r < 0.75) return [{ at, status: "paid" }];
  if (r < 0.87)
    return [
      { at, status: "payment_required" },
      { at: at + 15 * MINUTE, status: "paid" },
    ];
  if (r < 0.95)
    return [
      { at, status: "paid" },
      { at: at + 60 * MINUTE, status: "cancelled" },
    ];
  return [
    { at, status: "payment_in_process" },
    { at: at + 30 * MINUTE, status: "paid" },
  ];
}

function newOrderId(store: Store, at: number, sellerId: number): number {
  let id = 2_000_000_000_000_000 + Math.floor(at / 1000) * 100 + (sellerId % 97);
  while (store.state.orders.has(id)) id += 1;
  return id;
}

/** Sells the item (or one of its variations) when it has stock; the global item's stock moves with it. */
function sell(store: Store, itemId: string, variationId: number | null, quantity: number) {
  const item = store.state.items.get(itemId);
  if (!item) return;
  const parent = item.parent_item_id ? store.state.items.get(item.parent_item_id) : undefined;
  for (const target of parent ? [parent, item] : [item]) {
    const index = variationId === null ? -1 : item.variations.findIndex((v) => v.id === variationId);
    const v = index >= 0 ? target.variations[index] : undefined;
    if (v) {
      v.available_quantity = Math.max(0, v.available_quantity - quantity);
      v.sold_quantity += quantity;
    } else {
      target.available_quantity = Math.max(0, target.available_quantity - quantity);
    }
    target.sold_quantity += quantity;
    settleStock(target);
  }
  if (parent) syncGlobalStock(store, parent);
  if (parent) notifyGlobalItem(store, parent);
  else notifyItem(store, item);
}

export type OrderRequest = {
  itemId?: string;
  variationId?: number;
  quantity?: number;
  status?: OrderStatus;
  at?: number;
  /** Bought together with other orders: they share the pack id and one shipment. */
  pack?: { id: number; shippingId: number };
};

/** Creates one order for the seller now (or at `at`): the order stream's step, also used by the control API. */
export function createOrder(
  store: Store,
  seller: User,
  request: OrderRequest = {},
  key = `${seller.id}:${store.state.counters.order}`,
): Order {
  store.state.counters.order += 1;
  const at = request.at ?? store.now();
  const site = seller.siteId as LocalSiteId;
  const candidates = [...store.state.items.values()]
    .filter((i) => i.seller_id === seller.id && i.status === "active" && !i.deleted && Date.parse(i.date_created) <= at)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const item = request.itemId
    ? store.state.items.get(request.itemId)
    : candidates.length
      ? candidates[Math.floor(unit(store.seed, "order-item", key) * candidates.length)]
      : undefined;
  const quantity = request.quantity ?? between(1, 2, store.seed, "order-quantity", key);
  let line: Order["lines"][number];
  if (item) {
    const variation =
      request.variationId !== undefined
        ? item.variations.find((v) => v.id === request.variationId)
        : item.variations.length
          ? item.variations[Math.floor(unit(store.seed, "order-variation", key) * item.variations.length)]
          : undefined;
    const category = store.trees[item.site_id].byId.get(item.category_id)!;
    const price = variation?.price ?? item.price;
    const sku =
      variation?.attributes.find((a) => a.id === "SELLER_SKU")?.value_name ??
      variation?.seller_custom_field ??
      item.attributes.find((a) => a.id === "SELLER_SKU")?.value_name ??
      item.seller_custom_field;
    line = {
      itemId: item.id,
      title: item.title,
      categoryId: item.category_id,
      variationId: variation?.id ?? null,
      sellerSku: sku ?? null,
      quantity,
      unitPrice: price,
      saleFee: roundPrice(item.site_id, (price * category.feePercent[item.listing_type_id as "gold_special"]) / 100),
      listingTypeId: item.listing_type_id,
    };
    sell(store, item.id, line.variationId, quantity);
  } else {
    // A seller without items still gets orders: a sample product of a leaf of its site.
    const leaves = store.trees[site].all.filter((c) => c.leaf);
    const category = leaves[Math.floor(unit(store.seed, "order-category", key) * leaves.length)];
    const price = roundPrice(site, category.minimumPrice * between(2, 20, store.seed, "order-price", key));
    line = {
      itemId: `${site}${9_000_000_000 + between(1, 999_999, store.seed, "order-sample", key)}`,
      title: `${category.name} ${SITES[site].language === "pt" ? "de teste" : "de prueba"}`,
      categoryId: category.id,
      variationId: null,
      sellerSku: null,
      quantity,
      unitPrice: price,
      saleFee: roundPrice(site, (price * category.feePercent.gold_special) / 100),
      listingTypeId: "gold_special",
    };
  }
  const buyerId = 900_000_000 + between(1, 99_999_999, store.seed, "buyer", key);
  const order: Order = {
    id: newOrderId(store, at, seller.id),
    sellerId: seller.id,
    siteId: site,
    createdAt: at,
    timeline: request.status ? [{ at, status: request.status }] : timeline(store, key, at),
    lines: [line],
    currency: SITES[site].currency,
    buyer: { id: buyerId, nickname: `TESTBUYER${buyerId % 100000}` },
    shippingId: request.pack?.shippingId ?? 40_000_000_000 + between(1, 9_999_999_999, store.seed, "shipping", key),
    paymentId: 60_000_000_000 + between(1, 9_999_999_999, store.seed, "payment", key),
    packId: request.pack?.id ?? null,
  };
  store.state.orders.set(order.id, order);
  queueEvents(store, order);
  // A global seller's marketplace user's orders are marketplace orders.
  if (seller.parentId === null) notify(store, "orders_v2", `/orders/${order.id}`, seller.id);
  else notify(store, "marketplace_orders", `/marketplace/orders/${order.id}`, seller.id);
  return order;
}

/** Materialises every connected seller's orders up to the clock. Cheap when nothing is due: run on each request. */
export function advanceOrders(store: Store) {
  const now = store.now();
  const interval = store.state.orderIntervalMs;
  for (const seller of store.orderSellers()) {
    if (seller.orderCursor >= now) continue;
    for (let slot = Math.floor(seller.orderCursor / interval); slot <= Math.floor(now / interval); slot++) {
      plan(store, seller.id, slot).forEach((at, i) => {
        if (at > seller.orderCursor && at <= now) createOrder(store, seller, { at }, `${seller.id}:${slot}:${i}`);
      });
    }
    seller.orderCursor = now;
  }
  notifyDue(store, now);
}

/** Several orders bought together now by one buyer: one pack id, one shipment. */
export function createPack(store: Store, seller: User, count: number, request: Omit<OrderRequest, "pack"> = {}): Order[] {
  const n = store.state.counters.order;
  const pack = {
    id: 2_100_000_000_000_000 + n * 10 + (seller.id % 7),
    shippingId: 40_000_000_000 + between(1, 9_999_999_999, store.seed, "pack-shipping", seller.id, n),
  };
  const orders = Array.from({ length: count }, () => createOrder(store, seller, { status: "paid", ...request, pack }));
  const buyer = orders[0].buyer;
  for (const o of orders) o.buyer = buyer;
  return orders;
}

// ---------------------------------------------------------------------------------------------------------------
// The notifications of every change, when the clock reaches it.

type Event = { at: number; orderId: number; kind: "order" | "shipment" };
/** Keyed by the orders map (replaced on reset), so a reset forgets the pending notifications. */
const events = new WeakMap<Map<number, Order>, Event[]>();

function queueEvents(store: Store, order: Order) {
  let list = events.get(store.state.orders);
  if (!list) {
    list = [];
    events.set(store.state.orders, list);
  }
  const add = (e: Event) => {
    let lo = 0;
    let hi = list!.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list![mid].at <= e.at) lo = mid + 1;
      else hi = mid;
    }
    list!.splice(lo, 0, e);
  };
  for (const step of order.timeline.slice(1)) add({ at: step.at, orderId: order.id, kind: "order" });
  const far = shipmentAt(store, order, Number.MAX_SAFE_INTEGER);
  for (const step of far.steps) if (step.at > order.createdAt) add({ at: step.at, orderId: order.id, kind: "shipment" });
}

/** Sends the notifications of every change the clock has reached. */
function notifyDue(store: Store, now: number) {
  const list = events.get(store.state.orders);
  if (!list?.length || list[0].at > now) return;
  let i = 0;
  while (i < list.length && list[i].at <= now) i++;
  const due = list.splice(0, i);
  const sent = new Set<string>();
  for (const e of due) {
    const order = store.state.orders.get(e.orderId);
    if (!order) continue;
    const global = store.state.users.get(order.sellerId)?.parentId != null;
    const key = `${e.kind}:${e.kind === "order" ? order.id : order.shippingId}`;
    if (sent.has(key)) continue;
    sent.add(key);
    if (e.kind === "order") {
      if (global) notify(store, "marketplace_orders", `/marketplace/orders/${order.id}`, order.sellerId);
      else notify(store, "orders_v2", `/orders/${order.id}`, order.sellerId);
    } else if (global) notify(store, "marketplace_shipments", `/marketplace/shipments/${order.shippingId}`, order.sellerId);
    else notify(store, "shipments", `/shipments/${order.shippingId}`, order.sellerId);
  }
}

/** The order's status at `now`, when it last changed, and when it was paid. */
export function statusAt(order: Order, now: number): { status: OrderStatus; updated: number; paidAt: number | null } {
  let current = order.timeline[0];
  let paidAt: number | null = null;
  for (const step of order.timeline) {
    if (step.at > now) break;
    current = step;
    if (step.status === "paid" && paidAt === null) paidAt = step.at;
  }
  return { status: current.status, updated: current.at, paidAt };
}

export function orderJson(store: Store, order: Order) {
  const { status, updated, paidAt } = statusAt(order, store.now());
  const total = order.lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0);
  const paymentStatus = status === "paid" ? "approved" : status === "cancelled" ? (paidAt ? "refunded" : "cancelled") : "pending";
  return {
    id: order.id,
    status,
    status_detail: null,
    date_created: store.iso(order.createdAt),
    date_closed: paidAt === null ? null : store.iso(paidAt),
    last_updated: store.iso(updated),
    date_last_updated: store.iso(updated),
    expiration_date: store.iso(order.createdAt + 30 * 24 * 60 * MINUTE),
    order_items: order.lines.map((l) => ({
      item: {
        id: l.itemId,
        title: l.title,
        category_id: l.categoryId,
        variation_id: l.variationId,
        seller_sku: l.sellerSku,
        variation_attributes: [],
        condition: "new",
        warranty: null,
      },
      quantity: l.quantity,
      unit_price: l.unitPrice,
      full_unit_price: l.unitPrice,
      currency_id: order.currency,
      sale_fee: l.saleFee,
      listing_type_id: l.listingTypeId,
    })),
    total_amount: total,
    paid_amount: status === "paid" || (status === "cancelled" && paidAt) ? total : 0,
    currency_id: order.currency,
    payments: [
      {
        id: order.paymentId,
        order_id: order.id,
        payer_id: order.buyer.id,
        status: paymentStatus,
        transaction_amount: total,
        currency_id: order.currency,
        date_created: store.iso(order.createdAt),
        date_approved: paidAt === null ? null : store.iso(paidAt),
        payment_type: "credit_card",
      },
    ],
    shipping: { id: order.shippingId },
    buyer: order.buyer,
    seller: { id: order.sellerId },
    pack_id: order.packId ?? null,
    tags: status === "paid" ? ["paid", "not_delivered"] : status === "cancelled" ? ["not_delivered"] : ["not_paid"],
    context: { channel: "marketplace", site: order.siteId, flows: [] },
    cancel_detail:
      status === "cancelled" ? { code: "buyer_cancel", description: "The buyer cancelled the purchase", date: store.iso(updated) } : null,
  };
}

function dateParam(value: string | undefined, name: string): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw badRequest(`Invalid date for ${name}: ${value}`);
  return t;
}

/** The orders of the seller, filtered and paged as /orders/search does (gestiona-ventas.md "Buscar órdenes"). */
function search(store: Store, sellerId: number, q: Record<string, string | undefined>) {
  const limit = intQuery(q.limit, "limit", 51, 0, 51);
  const offset = intQuery(q.offset, "offset", 0, 0, 10_000);
  const sort = sortOf(q.sort);
  const from = dateParam(q["order.date_created.from"], "order.date_created.from");
  const to = dateParam(q["order.date_created.to"], "order.date_created.to");
  const updatedFrom = dateParam(q["order.date_last_updated.from"], "order.date_last_updated.from");
  const updatedTo = dateParam(q["order.date_last_updated.to"], "order.date_last_updated.to");
  const statuses = q["order.status"]?.split(",").filter(Boolean);
  const now = store.now();
  const rows = [...store.state.orders.values()]
    .filter((o) => o.sellerId === sellerId && o.createdAt <= now)
    .map((o) => ({ o, s: statusAt(o, now) }))
    .filter(({ o }) => within(o.createdAt, from, to))
    .filter(({ s }) => within(s.updated, updatedFrom, updatedTo))
    .filter(({ s }) => !statuses || statuses.includes(s.status))
    .sort((a, b) => (sort === "date_asc" ? 1 : -1) * (a.o.createdAt - b.o.createdAt || a.o.id - b.o.id));
  return {
    query: null,
    results: rows.slice(offset, offset + limit).map(({ o }) => orderJson(store, o)),
    sort: { id: sort, name: sort === "date_asc" ? "Date ascending" : "Date descending" },
    available_sorts: SORTS,
    filters: [],
    paging: { total: rows.length, offset, limit },
    display: "complete",
  };
}

const SORTS = [
  { id: "date_asc", name: "Date ascending" },
  { id: "date_desc", name: "Date descending" },
];
function sortOf(value: string | undefined): "date_asc" | "date_desc" {
  const sort = value ?? "date_asc";
  if (sort !== "date_asc" && sort !== "date_desc") throw badRequest(`Invalid sort: ${sort}`);
  return sort;
}
const within = (t: number, from: number | null, to: number | null) => (from === null || t >= from) && (to === null || t <= to);

// ---------------------------------------------------------------------------------------------------------------
// Global selling: purchases and marketplace orders in USD (Global Selling "Manage orders").

/** A local amount in US dollars (the site's rate), to the cent. */
const usd = (site: LocalSiteId, amount: number) => Math.round((amount / SITES[site].perUsd) * 100) / 100;
const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * GET /marketplace/orders/{id}: the order with its amounts in USD, and on each line what the seller nets
 * (net_proceeds, USD) after the sale fee and its share of the freight the seller pays.
 */
export function marketplaceOrderJson(store: Store, order: Order) {
  const local = orderJson(store, order);
  const together = shipmentOrders(store, order.shippingId);
  const { listCost, buyerCost, goods } = shippingCosts(together.length ? together : [order]);
  const orderGoods = order.lines.reduce((a, l) => a + l.unitPrice * l.quantity, 0);
  const freight = usd(order.siteId, Math.max(0, listCost - buyerCost)) * (goods ? orderGoods / goods : 1);
  const items = local.order_items.map((line, i) => {
    const l = order.lines[i];
    const unitPrice = usd(order.siteId, l.unitPrice);
    const fee = usd(order.siteId, l.saleFee);
    const shipping = cents(freight * (orderGoods ? (l.unitPrice * l.quantity) / orderGoods : 0));
    return {
      ...line,
      unit_price: unitPrice,
      full_unit_price: unitPrice,
      currency_id: "USD",
      sale_fee: fee,
      net_proceeds: {
        amount: cents(unitPrice * l.quantity - fee * l.quantity - shipping),
        currency_id: "USD",
        additional_concepts: [
          { id: "sale_fee", amount: cents(fee * l.quantity) },
          { id: "shipping_cost", amount: shipping },
        ],
      },
    };
  });
  const total = cents(items.reduce((a, l) => a + l.unit_price * l.quantity, 0));
  return {
    ...local,
    order_items: items,
    total_amount: total,
    paid_amount: local.paid_amount ? total : 0,
    currency_id: "USD",
    payments: local.payments.map((p) => ({ ...p, transaction_amount: total, currency_id: "USD" })),
  };
}

/**
 * GET /marketplace/orders/search: purchases, newest change filters included; a cart purchase (a pack) wraps its
 * orders, a single order is a purchase of its own. Only orders[].id names an order: each is read through
 * /marketplace/orders/{id}.
 */
function searchPurchases(store: Store, sellerIds: number[], q: Record<string, string | undefined>) {
  const limit = intQuery(q.limit, "limit", 50, 0, 50);
  const offset = intQuery(q.offset, "offset", 0, 0, 10_000);
  const sort = sortOf(q.sort);
  const from = dateParam(q["date_created.from"], "date_created.from");
  const to = dateParam(q["date_created.to"], "date_created.to");
  const updatedFrom = dateParam(q["last_updated.from"], "last_updated.from");
  const updatedTo = dateParam(q["last_updated.to"], "last_updated.to");
  const now = store.now();
  const purchases = new Map<number, Order[]>();
  for (const o of store.state.orders.values()) {
    if (!sellerIds.includes(o.sellerId) || o.createdAt > now) continue;
    const key = o.packId ?? o.id;
    purchases.set(key, [...(purchases.get(key) ?? []), o]);
  }
  const rows = [...purchases.entries()]
    .map(([id, orders]) => ({
      id,
      orders: orders.sort((a, b) => a.id - b.id),
      created: Math.min(...orders.map((o) => o.createdAt)),
      updated: Math.max(...orders.map((o) => statusAt(o, now).updated)),
    }))
    .filter((p) => within(p.created, from, to) && within(p.updated, updatedFrom, updatedTo))
    .sort((a, b) => (sort === "date_asc" ? 1 : -1) * (a.created - b.created || a.id - b.id));
  return {
    results: rows.slice(offset, offset + limit).map((p) => ({
      id: p.id,
      buyer: { id: p.orders[0].buyer.id },
      config: { items: p.orders.flatMap((o) => o.lines.map((l) => ({ id: l.itemId }))) },
      orders: p.orders.map((o) => ({
        id: o.id,
        items: null,
        feedback: { purchase: null, sale: null },
        payments: [{ id: o.paymentId }],
        mediations: [],
        seller: { id: o.sellerId },
      })),
      shipment: { id: p.orders[0].shippingId, payments: [] },
    })),
    paging: { total: rows.length, offset, limit },
  };
}

export function registerOrderRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });
  const limited = route({ auth: "required", limit: "orders" });

  /** The caller's order (a marketplace user's of the caller's included), or 404 / 403 as the real API. */
  const ownOrder = (req: FastifyRequest, id: unknown) => {
    const order = store.state.orders.get(Number(id));
    if (!order || order.createdAt > store.now()) throw notFound(`Order not found`);
    if (!store.ownIds(caller(req)).includes(order.sellerId)) throw forbidden();
    return order;
  };

  f.get("/orders/search", limited, async (req) => {
    const me = caller(req);
    const q = query(req);
    if (!q.seller) throw badRequest("The seller param is required");
    const seller = Number(q.seller);
    if (!store.ownIds(me).includes(seller)) throw forbidden("Invalid caller.id: the seller is not the caller");
    return search(store, seller, q);
  });

  f.get("/orders/:id", auth, async (req) => orderJson(store, ownOrder(req, params(req).id)));

  f.get("/marketplace/orders/search", limited, async (req) => {
    const me = caller(req);
    if (me.siteId !== "CBT") throw forbidden("The user is not a global seller");
    const q = query(req);
    const seller = q["seller.id"] ?? q.seller;
    if (seller && !store.ownIds(me).includes(Number(seller))) throw forbidden("Invalid caller.id: the seller is not the caller");
    // seller.id: the global seller (all its marketplace users) or one marketplace user.
    const sellers = !seller || Number(seller) === me.id ? store.ownIds(me) : [Number(seller)];
    return searchPurchases(store, sellers, q);
  });

  f.get("/marketplace/orders/:id", auth, async (req) => marketplaceOrderJson(store, ownOrder(req, params(req).id)));
}
