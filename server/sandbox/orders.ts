// Orders that appear over time, so order sync has work: each connected seller gets 0-2 orders per slot of the sandbox
// clock, at times fixed by (seed, seller, slot). Lines sell the seller's active items when it has some (their stock
// goes down and sold_quantity up), else a sample product. Statuses move on with the clock (payment_required → paid,
// some paid orders are cancelled an hour later). Each order has a shipment (orders of a pack share one) that moves on
// from its payment: handling, ready_to_ship 2 hours later (its label PDF can be printed then, not before), shipped a
// day after the payment, delivered (or, for a few, not_delivered) two days later; a cancelled order's shipment is
// cancelled. Every change after an order appears (its status, its shipment's) is notified to the app's callback
// (orders_v2 / shipments, marketplace_orders / marketplace_shipments for a global seller's) when the clock reaches it.
import type { FastifyInstance } from "fastify";
import { badRequest, forbidden, notFound } from "./errors.ts";
import { syncGlobalStock } from "./global-items.ts";
import { caller, intQuery, params, query, route } from "./http.ts";
import { textPdf } from "./label-pdf.ts";
import { settleStock } from "./item-rules.ts";
import { notify, notifyGlobalItem, notifyItem } from "./notify.ts";
import { between, pick, unit } from "./random.ts";
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
// Shipments over the clock, and the notifications of every change.

const HOUR = 60 * MINUTE;
/** After the payment: ready to ship (label), shipped, delivered. */
export const READY_AFTER_MS = 2 * HOUR;
export const SHIPPED_AFTER_MS = 24 * HOUR;
export const DELIVERED_AFTER_MS = 72 * HOUR;
/** The seller must hand the parcel over within this after the payment (the shipment's handling limit). */
export const HANDLING_LIMIT_MS = 24 * HOUR;
const ESTIMATED_DELIVERY_MS = 5 * 24 * HOUR;

type ShipmentState = {
  status: "pending" | "handling" | "ready_to_ship" | "shipped" | "delivered" | "not_delivered" | "cancelled";
  substatus: string | null;
  updated: number;
  paidAt: number | null;
  history: Record<string, number>;
};

/** The shipment's status at `now`, from its order's payment and cancellation. */
export function shipmentAt(store: Store, order: Order, now: number): ShipmentState {
  const paid = order.timeline.find((s) => s.status === "paid")?.at ?? null;
  const cancelled = order.timeline.find((s) => s.status === "cancelled" || s.status === "invalid")?.at ?? null;
  const lost = unit(store.seed, "not-delivered", order.shippingId) < 0.03;
  const steps: { at: number; status: ShipmentState["status"]; substatus: string | null }[] = [
    { at: order.createdAt, status: "pending", substatus: null },
  ];
  if (paid !== null) {
    steps.push({ at: paid, status: "handling", substatus: null });
    steps.push({ at: paid + READY_AFTER_MS, status: "ready_to_ship", substatus: "ready_to_print" });
    steps.push({ at: paid + SHIPPED_AFTER_MS, status: "shipped", substatus: null });
    steps.push({
      at: paid + DELIVERED_AFTER_MS,
      status: lost ? "not_delivered" : "delivered",
      substatus: lost ? "returning_to_sender" : null,
    });
  }
  const live =
    cancelled === null
      ? steps
      : [...steps.filter((s) => s.at < cancelled), { at: cancelled, status: "cancelled" as const, substatus: null }];
  // A parcel already shipped is not cancelled with its order.
  const effective = cancelled !== null && paid !== null && cancelled >= paid + SHIPPED_AFTER_MS ? steps : live;
  let current = effective[0];
  const history: Record<string, number> = {};
  for (const step of effective) {
    if (step.at > now) break;
    current = step;
    history[step.status] = step.at;
  }
  return { status: current.status, substatus: current.substatus, updated: current.at, paidAt: paid, history };
}

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
  for (const at of Object.values(far.history)) if (at > order.createdAt) add({ at, orderId: order.id, kind: "shipment" });
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

/** What the seller pays to ship: the full (list) cost, the buyer's share (0 with free shipping from the site's threshold). */
function shippingCosts(store: Store, orders: Order[]) {
  const site = SITES[orders[0].siteId];
  const units = orders.reduce((s, o) => s + o.lines.reduce((a, l) => a + l.quantity, 0), 0);
  const total = orders.reduce((s, o) => s + o.lines.reduce((a, l) => a + l.unitPrice * l.quantity, 0), 0);
  const listCost = roundPrice(site.id, site.perUsd * (4 + 1.5 * (units - 1)));
  const free = total >= site.fixedFeeUnder;
  return { listCost, buyerCost: free ? 0 : listCost };
}

const STREETS = ["Av. Insurgentes Sur", "Calle Reforma", "Rua Augusta", "Av. Providencia", "Carrera 7", "Calle Juárez"];
const CITIES: Record<LocalSiteId, [string, string][]> = {
  MLM: [
    ["Ciudad de México", "CDMX"],
    ["Guadalajara", "Jalisco"],
    ["Monterrey", "Nuevo León"],
  ],
  MLB: [
    ["São Paulo", "SP"],
    ["Rio de Janeiro", "RJ"],
    ["Belo Horizonte", "MG"],
  ],
  MLC: [
    ["Santiago", "Región Metropolitana"],
    ["Valparaíso", "Valparaíso"],
  ],
  MCO: [
    ["Bogotá", "Bogotá D.C."],
    ["Medellín", "Antioquia"],
  ],
};

/** The orders sharing the order's shipment (its pack's, or itself). */
function shipmentOrders(store: Store, shippingId: number): Order[] {
  return [...store.state.orders.values()].filter((o) => o.shippingId === shippingId).sort((a, b) => a.id - b.id);
}

export function shipmentJson(store: Store, orders: Order[]) {
  const order = orders[0];
  const now = store.now();
  const s = shipmentAt(store, order, now);
  const { listCost, buyerCost } = shippingCosts(store, orders);
  const [city, state] = pick(CITIES[order.siteId], store.seed, "city", order.buyer.id);
  const street = pick(STREETS, store.seed, "street", order.buyer.id);
  const number = between(1, 2999, store.seed, "number", order.buyer.id);
  const zip = String(between(10000, 99999, store.seed, "zip", order.buyer.id));
  const iso = (t: number | undefined) => (t === undefined ? null : store.iso(t));
  const tracked = s.history.ready_to_ship !== undefined && s.status !== "cancelled";
  return {
    id: order.shippingId,
    mode: "me2",
    logistic_type: "drop_off",
    status: s.status,
    substatus: s.substatus,
    order_id: order.id,
    pack_id: order.packId ?? null,
    sender_id: order.sellerId,
    receiver_id: order.buyer.id,
    site_id: order.siteId,
    date_created: store.iso(order.createdAt),
    last_updated: store.iso(s.updated),
    tracking_number: tracked ? `MEL${order.shippingId}${order.siteId.slice(0, 2)}` : null,
    tracking_method: "Mercado Envíos",
    status_history: {
      date_handling: iso(s.history.handling),
      date_ready_to_ship: iso(s.history.ready_to_ship),
      date_shipped: iso(s.history.shipped),
      date_delivered: iso(s.history.delivered),
      date_not_delivered: iso(s.history.not_delivered),
      date_cancelled: iso(s.history.cancelled),
    },
    shipping_option: {
      id: 501245,
      name: "Estándar a domicilio",
      currency_id: order.currency,
      list_cost: listCost,
      cost: buyerCost,
      estimated_delivery_time: { date: s.paidAt === null ? null : store.iso(s.paidAt + ESTIMATED_DELIVERY_MS) },
      estimated_handling_limit: { date: s.paidAt === null ? null : store.iso(s.paidAt + HANDLING_LIMIT_MS) },
    },
    base_cost: listCost,
    order_cost: orders.reduce((a, o) => a + o.lines.reduce((b, l) => b + l.unitPrice * l.quantity, 0), 0),
    receiver_address: {
      id: 1_000_000_000 + (order.buyer.id % 1_000_000_000),
      address_line: `${street} ${number}`,
      street_name: street,
      street_number: String(number),
      zip_code: zip,
      city: { name: city },
      state: { name: state },
      country: { id: SITES[order.siteId].countryId, name: SITES[order.siteId].name },
      neighborhood: { name: "Centro" },
      receiver_name: `Comprador ${order.buyer.nickname}`,
      receiver_phone: `55${String(order.buyer.id).slice(-8)}`,
      comment: null,
    },
  };
}

/** The shipment's label: a small PDF, only when ready_to_ship. */
function labelPdf(store: Store, orders: Order[]): Buffer {
  const ship = shipmentJson(store, orders);
  if (ship.status !== "ready_to_ship") {
    throw badRequest(`Shipment ${ship.id} is not ready to ship (status ${ship.status})`, "not_ready_to_ship");
  }
  const a = ship.receiver_address;
  return textPdf([
    "Mercado Envios",
    `Envio ${ship.id}  Venta ${orders.map((o) => o.id).join(", ")}`,
    `Rastreo ${ship.tracking_number}`,
    `Para: ${a.receiver_name}`,
    `${a.address_line}, ${a.neighborhood.name}`,
    `${a.city.name}, ${a.state.name} ${a.zip_code}`,
    ...orders.flatMap((o) => o.lines.map((l) => `${l.quantity} x ${l.itemId} ${l.title}`)),
  ]);
}

function invoiceJson(store: Store, order: Order) {
  const s = statusAt(order, store.now());
  if (s.paidAt === null) throw notFound(`Invoice for order ${order.id} not found`);
  const total = order.lines.reduce((a, l) => a + l.unitPrice * l.quantity, 0);
  return {
    id: 7_000_000_000 + (order.id % 1_000_000_000),
    order_id: order.id,
    invoice_number: `FAC-${order.siteId}-${String(order.id).slice(-8)}`,
    status: s.status === "cancelled" ? "cancelled" : "authorized",
    issued_date: store.iso(s.paidAt),
    currency_id: order.currency,
    amount: total,
    buyer: { id: order.buyer.id, name: `Comprador ${order.buyer.nickname}` },
    items: order.lines.map((l) => ({ item_id: l.itemId, title: l.title, quantity: l.quantity, unit_price: l.unitPrice })),
    fiscal_document: { url: `https://www.mercadolibre.com/invoices/${order.id}.pdf` },
  };
}

function statusAt(order: Order, now: number): { status: OrderStatus; updated: number; paidAt: number | null } {
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

/** The orders of the sellers, filtered and paged as /orders/search does. */
function search(store: Store, sellerIds: number[], q: Record<string, string | undefined>, maxLimit: number) {
  const limit = intQuery(q.limit, "limit", maxLimit >= 51 ? 51 : maxLimit, 0, maxLimit);
  const offset = intQuery(q.offset, "offset", 0, 0, 10_000);
  const sort = q.sort ?? "date_asc";
  if (sort !== "date_asc" && sort !== "date_desc") throw badRequest(`Invalid sort: ${sort}`);
  const from = dateParam(q["order.date_created.from"], "order.date_created.from");
  const to = dateParam(q["order.date_created.to"], "order.date_created.to");
  const updatedFrom = dateParam(q["order.date_last_updated.from"], "order.date_last_updated.from");
  const updatedTo = dateParam(q["order.date_last_updated.to"], "order.date_last_updated.to");
  const statuses = q["order.status"]?.split(",").filter(Boolean);
  const now = store.now();
  const rows = [...store.state.orders.values()]
    .filter((o) => sellerIds.includes(o.sellerId) && o.createdAt <= now)
    .map((o) => ({ o, s: statusAt(o, now) }))
    .filter(({ o }) => (from === null || o.createdAt >= from) && (to === null || o.createdAt <= to))
    .filter(({ s }) => (updatedFrom === null || s.updated >= updatedFrom) && (updatedTo === null || s.updated <= updatedTo))
    .filter(({ s }) => !statuses || statuses.includes(s.status))
    .sort((a, b) =>
      sort === "date_asc" ? a.o.createdAt - b.o.createdAt || a.o.id - b.o.id : b.o.createdAt - a.o.createdAt || b.o.id - a.o.id,
    );
  return {
    query: null,
    results: rows.slice(offset, offset + limit).map(({ o }) => orderJson(store, o)),
    sort: { id: sort, name: sort === "date_asc" ? "Date ascending" : "Date descending" },
    available_sorts: [
      { id: "date_asc", name: "Date ascending" },
      { id: "date_desc", name: "Date descending" },
    ],
    filters: [],
    paging: { total: rows.length, offset, limit },
    display: "complete",
  };
}

export function registerOrderRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });
  const limited = route({ auth: "required", limit: "orders" });

  f.get("/orders/search", limited, async (req) => {
    const me = caller(req);
    const q = query(req);
    if (!q.seller) throw badRequest("The seller param is required");
    const seller = Number(q.seller);
    if (!store.ownIds(me).includes(seller)) throw forbidden("Invalid caller.id: the seller is not the caller");
    return search(store, [seller], q, 51);
  });

  f.get("/orders/:id", auth, async (req) => {
    const order = store.state.orders.get(Number(params(req).id));
    if (!order || order.createdAt > store.now()) throw notFound(`Order not found`);
    if (!store.ownIds(caller(req)).includes(order.sellerId)) throw forbidden();
    return orderJson(store, order);
  });

  f.get("/marketplace/orders/search", limited, async (req) => {
    const me = caller(req);
    if (me.siteId !== "CBT") throw forbidden("The user is not a global seller");
    const q = query(req);
    if (q.seller && Number(q.seller) !== me.id) throw forbidden("Invalid caller.id: the seller is not the caller");
    return search(store, store.ownIds(me), q, 50);
  });

  /** The caller's order (or a marketplace user's of the caller's), or 404 / 403 as the real API. */
  const ownOrder = (req: Parameters<typeof caller>[0], id: unknown) => {
    const order = store.state.orders.get(Number(id));
    if (!order || order.createdAt > store.now()) throw notFound(`Order not found`);
    if (!store.ownIds(caller(req)).includes(order.sellerId)) throw forbidden();
    return order;
  };
  const ownShipment = (req: Parameters<typeof caller>[0], id: unknown) => {
    const orders = shipmentOrders(store, Number(id)).filter((o) => o.createdAt <= store.now());
    if (!orders.length) throw notFound(`Shipment not found`);
    if (!store.ownIds(caller(req)).includes(orders[0].sellerId)) throw forbidden();
    return orders;
  };

  f.get("/shipments/:id", auth, async (req) => shipmentJson(store, ownShipment(req, params(req).id)));
  f.get("/marketplace/shipments/:id", auth, async (req) => shipmentJson(store, ownShipment(req, params(req).id)));
  f.get("/marketplace/shipments/:id/labels", auth, async (req, reply) =>
    reply.type("application/pdf").send(labelPdf(store, ownShipment(req, params(req).id))),
  );
  f.get("/shipment_labels", auth, async (req, reply) => {
    const q = query(req);
    if (!q.shipment_ids) throw badRequest("The shipment_ids param is required");
    if (q.response_type && q.response_type !== "pdf") throw badRequest(`Invalid response_type: ${q.response_type}`);
    const ids = q.shipment_ids.split(",").filter(Boolean);
    if (ids.length !== 1) throw badRequest("One shipment id per label in the sandbox");
    return reply.type("application/pdf").send(labelPdf(store, ownShipment(req, ids[0])));
  });
  f.get("/marketplace/orders/:id/invoice", auth, async (req) => invoiceJson(store, ownOrder(req, params(req).id)));
  f.get("/users/:userId/invoices/orders/:id", auth, async (req) => {
    const order = ownOrder(req, params(req).id);
    if (String(order.sellerId) !== params(req).userId) throw forbidden();
    return invoiceJson(store, order);
  });

  f.get("/marketplace/orders/:id", auth, async (req) => {
    const me = caller(req);
    const order = store.state.orders.get(Number(params(req).id));
    if (!order || order.createdAt > store.now()) throw notFound(`Order not found`);
    if (!store.ownIds(me).includes(order.sellerId)) throw forbidden();
    return orderJson(store, order);
  });
}
