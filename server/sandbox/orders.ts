// Orders that appear over time, so order sync has work: each connected seller gets 0-2 orders per slot of the sandbox
// clock, at times fixed by (seed, seller, slot). Lines sell the seller's active items when it has some (their stock
// goes down and sold_quantity up), else a sample product. Statuses move on with the clock (payment_required → paid,
// some paid orders are cancelled an hour later).
import type { FastifyInstance } from "fastify";
import { badRequest, forbidden, notFound } from "./errors.ts";
import { syncGlobalStock } from "./global-items.ts";
import { caller, intQuery, params, query, route } from "./http.ts";
import { settleStock } from "./item-rules.ts";
import { notify, notifyGlobalItem, notifyItem } from "./notify.ts";
import { between, unit } from "./random.ts";
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

export type OrderRequest = { itemId?: string; variationId?: number; quantity?: number; status?: OrderStatus; at?: number };

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
    shippingId: 40_000_000_000 + between(1, 9_999_999_999, store.seed, "shipping", key),
    paymentId: 60_000_000_000 + between(1, 9_999_999_999, store.seed, "payment", key),
  };
  store.state.orders.set(order.id, order);
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
    pack_id: null,
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

  f.get("/marketplace/orders/:id", auth, async (req) => {
    const me = caller(req);
    const order = store.state.orders.get(Number(params(req).id));
    if (!order || order.createdAt > store.now()) throw notFound(`Order not found`);
    if (!store.ownIds(me).includes(order.sellerId)) throw forbidden();
    return orderJson(store, order);
  });
}
