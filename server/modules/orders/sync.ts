// Orders from Mercado Libre (issue 18; MERCADO-LIBRE.md "Orders, shipments, labels"). They arrive three ways and are
// stored once per Mercado Libre order id (an upsert that never puts an older read over a newer one):
// - a notification (orders_v2 / marketplace_orders, shipments / marketplace_shipments), stored by MeliCallback and
//   handed here by the notification job (listings/notifications.ts): the order is re-read, with its shipment;
// - the periodic pull: every ORDER_PULL_MINUTES a tick queues one pull per shop group with an enabled shop that
//   receives orders (EnableRecieveOrder), reading the orders changed since the group's newest stored change;
// - FetchOrders: the caller's shops' orders bought in a time range, as a task with live progress; a retried job goes on
//   after the last page it stored (the resume point on its task, task_infos.state).
// Order searches are held to Mercado Libre's 100 a minute per seller by a bucket of their own (ORDER_SEARCH_BUCKET,
// shared by every process through meli_rate_buckets) on top of the seller's and the app's. Marketplace calls never run
// inside a transaction: a pull reads a page, then stores it in one short transaction.
import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, max, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { currencies, listings, meliAccountGroups, meliAccounts, meliNotifications, orderItems, orders, products } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { AfterCommit, type CallContext } from "../../http/calls.ts";
import { AppError, badRequest, notFound } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createTask, readTaskState, saveTaskState, updateTask } from "../../jobs/tasks.ts";
import type { MeliClient, MeliSession } from "../../integrations/mercadolibre/client.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import type { Bucket } from "../../integrations/mercadolibre/rate-limit.ts";
import { emitProgress } from "../events/progress.ts";
import { loadSessionUser } from "../identity/session-user.ts";
import { MELI_NOTIFICATION_PROCESS_JOB, MeliNotificationStatus, type NotificationProcessJob } from "../meli/notifications.ts";
import { OrderStatus, TaskStatus, TaskType } from "../../../shared/contract/enums.ts";
import { MELI_SITES, siteNumberOf } from "../../../shared/contract/meli.ts";
import { FETCH_ORDERS_MAX_DAYS, type FetchOrdersResult, type OrderInvoice } from "../../../shared/contract/orders.ts";
import { formatMoney } from "../../../shared/publish/price.ts";
import { freightShare, orderProfit } from "./profit.ts";
import { orderWhere, visibleOrderGroups } from "./service.ts";

export const ORDER_PULL_JOB = "orders.pull";
export const ORDER_TICK_JOB = "orders.pull-tick";
/** The periodic pull's period. */
export const ORDER_PULL_MINUTES = 10;
/** A group's first periodic pull reaches back this far; later ones from its newest stored change less this margin. */
export const FIRST_PULL_DAYS = 2;
export const PULL_OVERLAP_MS = 10 * 60_000;
/** Orders per search page (Mercado Libre's maximum: 51 local, 50 global selling). */
export const LOCAL_SEARCH_LIMIT = 51;
export const CBT_SEARCH_LIMIT = 50;
/** The search's offset stops here: a longer range is read in windows of creation time. */
export const SEARCH_MAX_OFFSET = 10_000;
/** Topics this module works through. */
export const ORDER_TOPICS = ["orders_v2", "marketplace_orders", "shipments", "marketplace_shipments"];

/** Mercado Libre allows 100 order searches a minute per seller: 95 + a burst of 5 never puts more than 100 in a minute. */
export type OrderSearchRate = { perMinute: number; burst: number };
export const ORDER_SEARCH_RATE: OrderSearchRate = { perMinute: 95, burst: 5 };
export const orderSearchBucket = (sellerId: string, rate: OrderSearchRate = ORDER_SEARCH_RATE): Bucket => ({
  key: `orders:${sellerId}`,
  ...rate,
});

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

/** An order as Mercado Libre answers it (the fields kept). */
export type MeliOrder = {
  id: number | string;
  status?: string;
  date_created?: string;
  last_updated?: string;
  date_last_updated?: string;
  currency_id?: string;
  total_amount?: number;
  pack_id?: number | string | null;
  shipping?: { id?: number | string | null } | null;
  buyer?: { id?: number | string; nickname?: string } | null;
  seller?: { id?: number | string } | null;
  context?: { site?: string } | null;
  order_items?: {
    item?: {
      id?: string;
      title?: string;
      variation_id?: number | string | null;
      seller_sku?: string | null;
      variation_attributes?: { name?: string; value_name?: string }[];
    };
    quantity?: number;
    unit_price?: number;
    sale_fee?: number;
  }[];
};

/** A shipment as Mercado Libre answers it (the fields kept). */
export type MeliShipment = {
  id: number | string;
  status?: string;
  substatus?: string | null;
  order_id?: number | string;
  order_cost?: number | null;
  last_updated?: string | null;
  tracking_number?: string | null;
  tracking_method?: string | null;
  status_history?: Record<string, string | null> | null;
  shipping_option?: {
    name?: string | null;
    list_cost?: number | null;
    cost?: number | null;
    estimated_delivery_time?: { date?: string | null } | null;
    estimated_handling_limit?: { date?: string | null } | null;
  } | null;
  receiver_address?: {
    id?: number | string | null;
    address_line?: string | null;
    street_name?: string | null;
    street_number?: string | null;
    zip_code?: string | null;
    city?: { name?: string | null } | null;
    state?: { name?: string | null } | null;
    country?: { id?: string | null; name?: string | null } | null;
    neighborhood?: { name?: string | null } | null;
    receiver_name?: string | null;
    receiver_phone?: string | null;
  } | null;
};

type Group = { id: string; custId: string; isCbt: boolean; name: string };
type Account = { id: string; custId: string; site: number; ownerId: string; isEnabled: boolean; isReceiveOrder: boolean };

/** Mercado Libre's order and shipment statuses as one OrderStatus. */
export function orderStatusOf(meliStatus: string | undefined, shipmentStatus: string | null | undefined): OrderStatus {
  if (meliStatus === "cancelled" || meliStatus === "invalid") return OrderStatus.Cancelled;
  if (meliStatus !== "paid") return OrderStatus.Unpaid;
  switch (shipmentStatus) {
    case "ready_to_ship":
      return OrderStatus.ReadyToShip;
    case "shipped":
      return OrderStatus.Shipped;
    case "delivered":
      return OrderStatus.Delivered;
    case "not_delivered":
      return OrderStatus.NotDelivered;
    case "cancelled":
      return OrderStatus.Cancelled;
    default:
      return OrderStatus.Paid;
  }
}

const date = (v: string | null | undefined) => {
  const t = v ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? new Date(t) : null;
};
const str = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

function addressOf(s: MeliShipment | null) {
  const a = s?.receiver_address;
  if (!a) return null;
  const line = a.address_line ?? ([a.street_name, a.street_number].filter(Boolean).join(" ") || null);
  return {
    id: str(a.id),
    name: a.receiver_name ?? null,
    email: null,
    phone: a.receiver_phone ?? null,
    moblle: a.receiver_phone ?? null,
    country: a.country?.name ?? a.country?.id ?? null,
    state: a.state?.name ?? null,
    city: a.city?.name ?? null,
    region: a.neighborhood?.name ?? null,
    postalCode: a.zip_code ?? null,
    company: null,
    street: line,
    address: [line, a.neighborhood?.name, a.city?.name, a.state?.name, a.zip_code, a.country?.name].filter(Boolean).join(", ") || null,
  };
}

export function createOrderSyncService(deps: OrderSyncDeps) {
  const db = deps.database.db;
  const searchRate = deps.orderSearchRate ?? ORDER_SEARCH_RATE;

  async function groupAndAccounts(tx: Tx, tenantId: string, groupId: string): Promise<{ group: Group; accounts: Account[] } | null> {
    const [group] = await tx
      .select({ id: meliAccountGroups.id, custId: meliAccountGroups.custId, isCbt: meliAccountGroups.isCbt, name: meliAccountGroups.name })
      .from(meliAccountGroups)
      .where(and(eq(meliAccountGroups.tenantId, tenantId), eq(meliAccountGroups.id, groupId)));
    if (!group) return null;
    const accounts = await tx
      .select({
        id: meliAccounts.id,
        custId: meliAccounts.custId,
        site: meliAccounts.site,
        ownerId: meliAccounts.ownerId,
        isEnabled: meliAccounts.isEnabled,
        isReceiveOrder: meliAccounts.isReceiveOrder,
      })
      .from(meliAccounts)
      .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.groupId, groupId)));
    return { group, accounts };
  }

  /** The shipment of an order (null when it has none or it cannot be read: the order is stored without it). */
  async function readShipment(shop: MeliSession, group: Group, shipmentId: string | null): Promise<MeliShipment | null> {
    if (!shipmentId) return null;
    try {
      return await shop.send<MeliShipment>(
        "GET",
        `${group.isCbt ? "/marketplace/shipments" : "/shipments"}/${encodeURIComponent(shipmentId)}`,
      );
    } catch (err) {
      if (!(err instanceof MeliApiError) || err.retryable) throw err;
      deps.log.info({ shipmentId, status: err.status }, "order shipment could not be read");
      return null;
    }
  }

  /** The shipments of a page of orders, one read per shipment (a pack's orders share one). */
  async function readShipments(shop: MeliSession, group: Group, list: MeliOrder[]): Promise<Map<string, MeliShipment | null>> {
    const ids = [...new Set(list.map((o) => str(o.shipping?.id)).filter((x): x is string => !!x))];
    const out = new Map<string, MeliShipment | null>();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < ids.length; i = next++) out.set(ids[i], await readShipment(shop, group, ids[i]));
    };
    await Promise.all(Array.from({ length: Math.min(5, ids.length) }, worker));
    return out;
  }

  /**
   * Stores the orders (each once per Mercado Libre id, in the account of its seller), with their shipment, lines linked
   * to the listing and product they came from, and their profit. Orders of a shop not receiving orders, or of a seller
   * the group does not have, are left out. Answers how many were stored (inserted or changed). `also` runs in the same
   * transaction, whatever was kept (a pull's resume point: it moves exactly when its page is stored).
   */
  async function storeOrders(
    tenantId: string,
    groupId: string,
    list: MeliOrder[],
    shipments: Map<string, MeliShipment | null>,
    also?: (tx: Tx, stored: number) => Promise<void>,
  ) {
    if (!list.length && !also) return 0;
    return inScope(db, { tenantId }, async (tx) => {
      const done = async (stored: number) => {
        await also?.(tx, stored);
        return stored;
      };
      const found = await groupAndAccounts(tx, tenantId, groupId);
      if (!found) return done(0);
      const { group, accounts } = found;
      const bySeller = new Map(accounts.map((a) => [a.custId, a]));
      const bySite = new Map(accounts.map((a) => [a.site, a]));
      const accountOf = (o: MeliOrder) => {
        const seller = str(o.seller?.id);
        const site = o.context?.site ? siteNumberOf(o.context.site) : null;
        return (seller && bySeller.get(seller)) || (!group.isCbt ? accounts[0] : site ? bySite.get(site) : undefined) || null;
      };
      const kept = list.filter((o) => {
        const a = accountOf(o);
        return a && a.isEnabled && a.isReceiveOrder;
      });
      if (!kept.length) return done(0);
      const itemIds = [...new Set(kept.flatMap((o) => (o.order_items ?? []).map((l) => l.item?.id).filter((x): x is string => !!x)))];
      const listingRows = itemIds.length
        ? await tx
            .select({
              id: listings.id,
              itemId: listings.itemId,
              productId: listings.productId,
              image: listings.image,
              permalink: listings.permalink,
            })
            .from(listings)
            .where(and(eq(listings.tenantId, tenantId), eq(listings.accountGroupId, groupId), inArray(listings.itemId, itemIds)))
        : [];
      const listingOf = new Map(listingRows.map((l) => [l.itemId!, l]));
      const skus = [
        ...new Set(kept.flatMap((o) => (o.order_items ?? []).map((l) => l.item?.seller_sku?.trim()).filter((x): x is string => !!x))),
      ];
      const skuProducts = skus.length
        ? await tx
            .select({ id: products.id, sku: products.sku })
            .from(products)
            .where(and(eq(products.tenantId, tenantId), eq(products.isDeleted, false), inArray(products.sku, skus)))
        : [];
      const productOfSku = new Map<string, string>();
      for (const p of skuProducts) if (p.sku && !productOfSku.has(p.sku)) productOfSku.set(p.sku, p.id);
      const productIds = [
        ...new Set([...listingRows.map((l) => l.productId), ...skuProducts.map((p) => p.id)].filter((x): x is string => !!x)),
      ];
      const productRows = productIds.length
        ? await tx
            .select({ id: products.id, price: products.price, currency: products.currency })
            .from(products)
            .where(and(eq(products.tenantId, tenantId), inArray(products.id, productIds)))
        : [];
      const productOf = new Map(productRows.map((p) => [p.id, p]));
      const rates = await tx.select({ code: currencies.code, rate: currencies.rate }).from(currencies);
      const now = new Date();
      let stored = 0;
      // The shop owners whose orders this page stored: each hears one "order" event (the orders screen refetches).
      const owners = new Set<string>();

      for (const o of kept) {
        const account = accountOf(o)!;
        const shipmentId = str(o.shipping?.id);
        const shipment = shipmentId ? (shipments.get(shipmentId) ?? null) : null;
        const currency = (o.currency_id ?? MELI_SITES[account.site as keyof typeof MELI_SITES]?.currency ?? "USD").toUpperCase();
        const status = orderStatusOf(o.status, shipment?.status);
        const lines = (o.order_items ?? []).map((l, i) => {
          const itemId = (l.item?.id ?? "").toUpperCase();
          const listing = listingOf.get(itemId);
          const sku = l.item?.seller_sku?.trim() || null;
          const productId = listing?.productId ?? (sku ? (productOfSku.get(sku) ?? null) : null);
          return {
            line: i + 1,
            itemId,
            variationId: str(l.item?.variation_id),
            title: l.item?.title ?? itemId,
            thumb: listing?.image ?? null,
            link: listing?.permalink ?? null,
            quantity: Math.max(0, Math.trunc(l.quantity ?? 0)),
            unitPrice: l.unit_price ?? 0,
            saleFee: l.sale_fee ?? 0,
            sku,
            vkes: (l.item?.variation_attributes ?? []).map((v) => `${v.name ?? ""}: ${v.value_name ?? ""}`),
            listingId: listing?.id ?? null,
            productId,
          };
        });
        const total = lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0);
        const opt = shipment?.shipping_option;
        const sellerCost = Math.max(0, (opt?.list_cost ?? 0) - (opt?.cost ?? 0));
        const freight = freightShare(
          sellerCost.toFixed(2),
          total.toFixed(2),
          shipment?.order_cost != null ? shipment.order_cost.toFixed(2) : null,
          currency,
        );
        const profit = orderProfit({
          currency,
          freight: formatMoney(freight, currency),
          rates,
          lines: lines.map((l) => {
            const p = l.productId ? productOf.get(l.productId) : undefined;
            return {
              quantity: l.quantity,
              unitPrice: String(l.unitPrice),
              saleFee: String(l.saleFee),
              productPrice: p?.price ?? null,
              productCurrency: p?.currency ?? null,
              label: l.itemId,
            };
          }),
        });
        const { minor: _minor, ...profitDetail } = profit;
        const history = shipment?.status_history ?? {};
        // The newer of the order's and its shipment's last change: a read older in either is not stored over a newer one.
        const changed = [date(o.last_updated ?? o.date_last_updated), date(shipment?.last_updated)].filter((d): d is Date => !!d);
        const updated = changed.length ? new Date(Math.max(...changed.map((d) => d.getTime()))) : now;
        const values = {
          tenantId,
          id: randomUUID(),
          meliOrderId: String(o.id),
          packId: str(o.pack_id),
          accountGroupId: groupId,
          accountId: account.id,
          userId: account.ownerId,
          site: account.site,
          isCbt: group.isCbt,
          currency,
          status,
          meliStatus: o.status ?? "unknown",
          shipmentId,
          shipmentStatus: shipment?.status ?? null,
          shipmentSubstatus: shipment?.substatus ?? null,
          buyerId: str(o.buyer?.id),
          buyerNickname: o.buyer?.nickname ?? null,
          totalAmount: String(profit.salePrice),
          saleFee: String(profit.saleFee),
          freightFee: String(profit.freight),
          cost: String(profit.productCost),
          profit: String(profit.profit),
          profitDetail,
          logisticsName: opt?.name ?? shipment?.tracking_method ?? null,
          logisticsNumber: shipment?.tracking_number ?? null,
          thumb: lines.find((l) => l.thumb)?.thumb ?? null,
          address: addressOf(shipment),
          orderTime: date(o.date_created) ?? now,
          deliveryTime: date(history.date_shipped),
          signingTime: date(history.date_delivered),
          estimatedDeliveryTime: date(opt?.estimated_delivery_time?.date),
          mustSendTime:
            status === OrderStatus.Paid || status === OrderStatus.ReadyToShip ? date(opt?.estimated_handling_limit?.date) : null,
          meliUpdated: updated,
          syncTime: now,
          creationTime: now,
        };
        const { tenantId: _t, id: _i, creationTime: _c, ...changes } = values;
        // Once per Mercado Libre id; a read older than the stored one (a late notification's) changes nothing.
        const [row] = await tx
          .insert(orders)
          .values(values)
          .onConflictDoUpdate({
            target: [orders.tenantId, orders.meliOrderId],
            set: { ...changes, lastModificationTime: now },
            setWhere: sql`${orders.meliUpdated} is null or ${orders.meliUpdated} <= excluded.meli_updated`,
          })
          .returning({ id: orders.id });
        if (!row) continue;
        stored++;
        owners.add(account.ownerId);
        if (lines.length) {
          await tx
            .insert(orderItems)
            .values(
              lines.map((l) => ({ ...l, tenantId, orderId: row.id, unitPrice: l.unitPrice.toFixed(2), saleFee: l.saleFee.toFixed(2) })),
            )
            .onConflictDoUpdate({
              target: [orderItems.tenantId, orderItems.orderId, orderItems.line],
              set: {
                itemId: sql`excluded.item_id`,
                variationId: sql`excluded.variation_id`,
                title: sql`excluded.title`,
                thumb: sql`excluded.thumb`,
                link: sql`excluded.link`,
                quantity: sql`excluded.quantity`,
                unitPrice: sql`excluded.unit_price`,
                saleFee: sql`excluded.sale_fee`,
                sku: sql`excluded.sku`,
                vkes: sql`excluded.vkes`,
                listingId: sql`excluded.listing_id`,
                productId: sql`excluded.product_id`,
              },
            });
        }
        await tx.execute(
          sql`delete from ${orderItems} where ${orderItems.tenantId} = ${tenantId} and ${orderItems.orderId} = ${row.id} and ${orderItems.line} > ${lines.length}`,
        );
      }
      for (const creatorId of owners) await emitProgress(tx, { kind: "order", id: groupId, tenantId, creatorId });
      return done(stored);
    });
  }

  /** Reads orders (by Mercado Libre id) and their shipments, and stores them. */
  async function refreshOrders(tenantId: string, groupId: string, ids: string[]): Promise<number> {
    const found = await inScope(db, { tenantId }, (tx) => groupAndAccounts(tx, tenantId, groupId));
    if (!found) return 0;
    const shop = deps.meli.shop({ tenantId, groupId });
    const read: MeliOrder[] = [];
    for (const id of [...new Set(ids)]) {
      try {
        read.push(await shop.send<MeliOrder>("GET", `${found.group.isCbt ? "/marketplace/orders" : "/orders"}/${encodeURIComponent(id)}`));
      } catch (err) {
        if (!(err instanceof MeliApiError) || err.retryable) throw err;
        deps.log.info({ tenantId, orderId: id, status: err.status }, "order could not be read");
      }
    }
    return storeOrders(tenantId, groupId, read, await readShipments(shop, found.group, read));
  }

  // ------------------------------------------------------------------------------------------------------------
  // Searches: a group's orders by creation or last change, page by page, each page stored before the next is read.

  type Window = { field: "order.date_created" | "order.date_last_updated"; from: Date; to?: Date };
  /** Where a pull's next search goes: the seller, its window's start (moved on past SEARCH_MAX_OFFSET), the offset. */
  type PagePoint = { seller: string; from: string; offset: number };
  type PullTotals = { read: number; stored: number; total: number };
  /** A pull's resume point: its totals so far and its next search (null: the group is done). */
  type PullPoint = PullTotals & { next: PagePoint | null };

  /**
   * Pulls the group's orders in the window; `onPage` hears the running totals. With `point`, each page's resume point
   * is saved in the transaction that stores the page, and a pull given `resume` goes on from its next search. Answers
   * {read, stored, total}.
   */
  async function pullGroup(
    tenantId: string,
    groupId: string,
    window: Window,
    onlyAccounts: string[] | null,
    onPage?: (p: PullTotals) => Promise<void>,
    point?: { resume: PullPoint | null; save: (tx: Tx, p: PullPoint) => Promise<void> },
  ): Promise<PullTotals> {
    const resume = point?.resume ?? null;
    const totals = { read: resume?.read ?? 0, stored: resume?.stored ?? 0, total: resume?.total ?? 0 };
    if (resume && !resume.next) return totals;
    const found = await inScope(db, { tenantId }, (tx) => groupAndAccounts(tx, tenantId, groupId));
    if (!found) return totals;
    const { group, accounts } = found;
    const receiving = accounts.filter((a) => a.isEnabled && a.isReceiveOrder && (!onlyAccounts || onlyAccounts.includes(a.id)));
    if (!receiving.length) return totals;
    const shop = deps.meli.shop({ tenantId, groupId });
    const limit = group.isCbt ? CBT_SEARCH_LIMIT : LOCAL_SEARCH_LIMIT;
    // A local group searches as its seller; a global seller's search covers its marketplace users at once. In one
    // order, so a resumed pull skips the sellers before the one it stopped at.
    const sellers = (group.isCbt ? [group.custId] : receiving.map((a) => a.custId)).sort();
    const at = resume?.next ?? null;
    for (const [i, seller] of sellers.entries()) {
      if (at && seller < at.seller) continue;
      const resumed = at?.seller === seller ? at : null;
      let from = resumed ? new Date(resumed.from) : window.from;
      let offset = resumed?.offset ?? 0;
      for (;;) {
        await deps.meli.buckets.take([orderSearchBucket(group.custId, searchRate)]);
        const page = await shop.send<{ results?: MeliOrder[]; paging?: { total?: number } }>(
          "GET",
          group.isCbt ? "/marketplace/orders/search" : "/orders/search",
          {
            query: {
              ...(group.isCbt ? {} : { seller }),
              [`${window.field}.from`]: from.toISOString(),
              ...(window.to ? { [`${window.field}.to`]: window.to.toISOString() } : {}),
              sort: "date_asc",
              limit,
              offset,
            },
          },
        );
        const results = page.results ?? [];
        if (offset === 0) totals.total += page.paging?.total ?? results.length;
        if (!results.length) break;
        // The next search: the next page; past SEARCH_MAX_OFFSET the window goes on from the last creation time read
        // (date_created windows); none when this was the last page.
        const end = offset + results.length;
        const last = results[results.length - 1];
        let next: { from: Date; offset: number } | null = null;
        if (end < (page.paging?.total ?? 0)) {
          if (end + limit <= SEARCH_MAX_OFFSET) next = { from, offset: end };
          else if (window.field === "order.date_created" && last?.date_created) next = { from: new Date(last.date_created), offset: 0 };
        }
        totals.read += results.length;
        const following = next
          ? { seller, from: next.from.toISOString(), offset: next.offset }
          : i + 1 < sellers.length
            ? { seller: sellers[i + 1], from: window.from.toISOString(), offset: 0 }
            : null;
        const saved = point
          ? (tx: Tx, stored: number) => point.save(tx, { ...totals, stored: totals.stored + stored, next: following })
          : undefined;
        totals.stored += await storeOrders(tenantId, groupId, results, await readShipments(shop, group, results), saved);
        await onPage?.({ ...totals });
        if (!next) break;
        ({ from, offset } = next);
      }
    }
    return totals;
  }

  // ------------------------------------------------------------------------------------------------------------
  // The periodic pull.

  type PullJob = { tenantId: string; groupId: string };
  type TickJob = { slot: number };

  const scheduleTick = (tx?: Tx) => scheduleOrderTick(deps.jobs, tx);

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
    await pullGroup(job.tenantId, job.groupId, { field: "order.date_last_updated", from }, null);
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

  // ------------------------------------------------------------------------------------------------------------
  // Notifications (called by the notification job for ORDER_TOPICS).

  const idOf = (resource: string, kind: "orders" | "shipments") => new RegExp(`/${kind}/(\\d+)`).exec(resource)?.[1] ?? null;

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
      const shipmentTopic = n.topic.endsWith("shipments");
      let ids: string[] = [];
      if (!shipmentTopic) {
        const orderId = idOf(n.resource, "orders");
        if (orderId) ids = [orderId];
      } else {
        const shipmentId = idOf(n.resource, "shipments");
        if (shipmentId) {
          const found = await inScope(db, { tenantId }, (tx) => groupAndAccounts(tx, tenantId, n.groupId!));
          const shipment = found ? await readShipment(deps.meli.shop({ tenantId, groupId: n.groupId }), found.group, shipmentId) : null;
          // The shipment's order, and every stored order of the shipment (a pack's).
          const stored = await inScope(db, { tenantId }, (tx) =>
            tx
              .select({ id: orders.meliOrderId })
              .from(orders)
              .where(and(eq(orders.tenantId, tenantId), eq(orders.shipmentId, shipmentId))),
          );
          ids = [...(shipment?.order_id != null ? [String(shipment.order_id)] : []), ...stored.map((s) => s.id)];
        }
      }
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

  // ------------------------------------------------------------------------------------------------------------
  // FetchOrders: the caller's shops' orders bought in a range, as a task.

  type FetchJob = {
    tenantId: string;
    taskId: string;
    creatorId: string;
    from: string;
    to: string | null;
    groups: { groupId: string; accountIds: string[] | null }[];
  };
  const ORDER_FETCH_JOB = "orders.fetch";

  async function fetchOrders(ctx: CallContext, q: { StartTime?: Date; EndTime?: Date; GroupId?: string }): Promise<FetchOrdersResult> {
    const to = q.EndTime ?? null;
    const from = q.StartTime ?? new Date((to?.getTime() ?? Date.now()) - 7 * 86_400_000);
    if (to && from >= to) throw badRequest("开始时间须早于结束时间");
    if ((to?.getTime() ?? Date.now()) - from.getTime() > FETCH_ORDERS_MAX_DAYS * 86_400_000) {
      throw badRequest(`一次最多拉取 ${FETCH_ORDERS_MAX_DAYS} 天的订单`);
    }
    const u = ctx.user!;
    const owned = u.isMainAccount || u.isHost ? null : u.id;
    const groups = await ctx.tx
      .select({ id: meliAccountGroups.id, name: meliAccountGroups.name })
      .from(meliAccountGroups)
      .where(and(visibleOrderGroups(ctx), q.GroupId ? eq(meliAccountGroups.id, q.GroupId) : undefined));
    if (q.GroupId && !groups.length) throw notFound("店铺不存在");
    const accounts = await ctx.tx
      .select({ id: meliAccounts.id, groupId: meliAccounts.groupId })
      .from(meliAccounts)
      .where(
        and(
          eq(meliAccounts.tenantId, ctx.tenantId),
          eq(meliAccounts.isEnabled, true),
          eq(meliAccounts.isReceiveOrder, true),
          owned ? eq(meliAccounts.ownerId, owned) : undefined,
        ),
      );
    const jobGroups = groups
      .map((g) => ({ groupId: g.id, accountIds: accounts.filter((a) => a.groupId === g.id).map((a) => a.id) }))
      .filter((g) => g.accountIds.length);
    if (!jobGroups.length) throw badRequest(q.GroupId ? "该店铺未开启接收订单" : "没有开启接收订单的店铺");
    const taskId = await createTask(ctx.tx, {
      tenantId: ctx.tenantId,
      taskType: TaskType.SyncOrders,
      content: `拉取订单：${groups.length === 1 ? groups[0].name : `${jobGroups.length} 个店铺`}（${from.toISOString().slice(0, 10)} 至 ${to ? to.toISOString().slice(0, 10) : "现在"}）`,
      creatorId: u.id,
    });
    await deps.jobs.send<FetchJob>(
      ORDER_FETCH_JOB,
      {
        tenantId: ctx.tenantId,
        taskId,
        creatorId: u.id,
        from: from.toISOString(),
        to: to?.toISOString() ?? null,
        groups: jobGroups.map((g) => ({ ...g, accountIds: owned ? g.accountIds : null })),
      },
      { tx: ctx.tx },
    );
    await scheduleTick(ctx.tx);
    return { taskId };
  }

  /**
   * FetchOrders' resume point on its task (task_infos.state): the group it is in (by its place in the job's groups),
   * the totals of the groups before it and that group's own point, saved with each stored page. The queue retries a
   * failed job with the same data: the retry reads the point and goes on with the search after the last stored page.
   */
  type FetchPoint = { group: number; before: { read: number; stored: number }; pull: PullPoint | null };

  async function runFetch(job: FetchJob) {
    const task = (change: Parameters<typeof updateTask>[3]) => updateTask(db, job.tenantId, job.taskId, change);
    const resume = await readTaskState<FetchPoint>(db, job.tenantId, job.taskId);
    const done = { read: 0, stored: 0 };
    if (resume) {
      done.read = resume.before.read + (resume.pull?.read ?? 0);
      done.stored = resume.before.stored + (resume.pull?.stored ?? 0);
    }
    const remark = () => `已读取 ${done.read} 个订单，新增或更新 ${done.stored} 个`;
    await task(
      resume
        ? { taskStatus: TaskStatus.Running, taskRemark: `继续拉取（${remark()}）` }
        : { taskStatus: TaskStatus.Running, progress: 0, taskRemark: "开始拉取" },
    );
    let lastReport = 0;
    try {
      for (const [i, g] of job.groups.entries()) {
        if (resume && i < resume.group) continue;
        const before = resume && i === resume.group ? resume.before : { ...done };
        const point = {
          resume: resume && i === resume.group ? resume.pull : null,
          save: (tx: Tx, p: PullPoint) =>
            saveTaskState(
              tx,
              job.tenantId,
              job.taskId,
              (p.next
                ? { group: i, before, pull: p }
                : {
                    group: i + 1,
                    before: { read: before.read + p.read, stored: before.stored + p.stored },
                    pull: null,
                  }) satisfies FetchPoint,
            ),
        };
        const r = await pullGroup(
          job.tenantId,
          g.groupId,
          { field: "order.date_created", from: new Date(job.from), to: job.to ? new Date(job.to) : undefined },
          g.accountIds,
          async (p) => {
            done.read = before.read + p.read;
            done.stored = before.stored + p.stored;
            if (Date.now() - lastReport < 500) return;
            lastReport = Date.now();
            const share = p.total ? Math.min(1, p.read / p.total) : 1;
            await task({ progress: Math.min(99, Math.floor(((i + share) * 100) / job.groups.length)), taskRemark: remark() });
          },
          point,
        );
        done.read = before.read + r.read;
        done.stored = before.stored + r.stored;
      }
    } catch (err) {
      // The queue retries (from the resume point); its last attempt's failure fails the task (fetchFailed).
      if (err instanceof MeliApiError && err.retryable) throw err;
      await fetchFailed(job, err);
      if (!(err instanceof AppError)) throw err;
      return;
    }
    await task({ taskStatus: TaskStatus.Succeeded, progress: 100, taskRemark: remark() });
  }

  /** The task of a fetch that stops: failed, with what it read before. */
  async function fetchFailed(job: FetchJob, err: unknown) {
    const point = await readTaskState<FetchPoint>(db, job.tenantId, job.taskId);
    const read = (point?.before.read ?? 0) + (point?.pull?.read ?? 0);
    const stored = (point?.before.stored ?? 0) + (point?.pull?.stored ?? 0);
    await updateTask(db, job.tenantId, job.taskId, {
      taskStatus: TaskStatus.Failed,
      progress: 100,
      taskRemark: `已读取 ${read} 个订单，新增或更新 ${stored} 个；拉取中止：${err instanceof Error ? err.message : String(err)}`,
    });
  }

  // ------------------------------------------------------------------------------------------------------------
  // GetNewOrder, GetOrderLabel, GetMeliOrderInvoice.

  type Ref = { id: string; meliOrderId: string; accountGroupId: string; shipmentId: string | null; isCbt: boolean; custId: string };

  async function visibleRef(ctx: CallContext, id: string): Promise<Ref> {
    const [row] = await ctx.tx
      .select({
        id: orders.id,
        meliOrderId: orders.meliOrderId,
        accountGroupId: orders.accountGroupId,
        shipmentId: orders.shipmentId,
        isCbt: orders.isCbt,
        custId: meliAccounts.custId,
      })
      .from(orders)
      .innerJoin(meliAccounts, and(eq(meliAccounts.tenantId, orders.tenantId), eq(meliAccounts.id, orders.accountId)))
      .where(orderWhere(ctx, { OrderId: id }));
    if (!row) throw notFound("订单不存在");
    return row;
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
    if (ref) await refreshOrders(call.tenantId, ref.accountGroupId, [ref.meliOrderId]);
  }

  const statusNames: Record<string, string> = {
    pending: "待处理",
    handling: "备货中",
    ready_to_ship: "待发货",
    shipped: "已发货",
    delivered: "已送达",
    not_delivered: "未送达",
    cancelled: "已取消",
  };

  /** GetOrderLabel: the shipment is read again; its label PDF when ready_to_ship, else a message saying why not. */
  async function label(ctx: CallContext, id: string): Promise<AfterCommit> {
    const ref = await visibleRef(ctx, id);
    if (!ref.shipmentId) throw badRequest("该订单没有美客多物流运单，无法下载面单");
    const tenantId = ctx.tenantId;
    return new AfterCommit(async (reply) => {
      const shop = deps.meli.shop({ tenantId, groupId: ref.accountGroupId });
      const shipment = await readShipment(shop, { id: ref.accountGroupId, custId: ref.custId, isCbt: ref.isCbt, name: "" }, ref.shipmentId);
      if (shipment?.status !== "ready_to_ship") {
        // What the shop shows is brought up to the shipment as read.
        await refreshOrders(tenantId, ref.accountGroupId, [ref.meliOrderId]);
        const now = shipment?.status ? (statusNames[shipment.status] ?? shipment.status) : "未知";
        throw badRequest(`面单只在订单待发货（ready_to_ship）时可以下载，该订单当前物流状态：${now}`);
      }
      const pdf = await shop.send<Buffer>(
        "GET",
        ref.isCbt ? `/marketplace/shipments/${encodeURIComponent(ref.shipmentId!)}/labels` : "/shipment_labels",
        { binary: true, ...(ref.isCbt ? {} : { query: { shipment_ids: ref.shipmentId!, response_type: "pdf" } }) },
      );
      await reply.type("application/pdf").header("content-disposition", `attachment; filename="label-${ref.meliOrderId}.pdf"`).send(pdf);
    });
  }

  type MeliInvoice = {
    invoice_number?: string;
    status?: string;
    issued_date?: string | null;
    currency_id?: string;
    amount?: number;
    buyer?: { name?: string | null } | null;
    items?: { item_id?: string; title?: string; quantity?: number; unit_price?: number }[];
    fiscal_document?: { url?: string | null } | null;
  };

  /** GetMeliOrderInvoice: the invoice as Mercado Libre holds it (read after the call's transaction). */
  async function invoice(ctx: CallContext, id: string): Promise<AfterCommit> {
    const ref = await visibleRef(ctx, id);
    const tenantId = ctx.tenantId;
    return new AfterCommit(async (reply) => {
      const shop = deps.meli.shop({ tenantId, groupId: ref.accountGroupId });
      let body: MeliInvoice;
      try {
        body = await shop.send<MeliInvoice>(
          "GET",
          ref.isCbt
            ? `/marketplace/orders/${encodeURIComponent(ref.meliOrderId)}/invoice`
            : `/users/${encodeURIComponent(ref.custId)}/invoices/orders/${encodeURIComponent(ref.meliOrderId)}`,
        );
      } catch (err) {
        if (err instanceof MeliApiError && err.status === 404) throw notFound("该订单尚无发票（订单付款后才会开具）");
        throw err;
      }
      const answer: OrderInvoice = {
        orderId: ref.id,
        orderNo: ref.meliOrderId,
        invoiceNumber: body.invoice_number ?? "",
        status: body.status ?? "unknown",
        issuedAt: body.issued_date ?? null,
        currency: body.currency_id ?? "",
        total: body.amount ?? 0,
        buyerName: body.buyer?.name ?? null,
        items: (body.items ?? []).map((i) => ({
          meliId: i.item_id ?? "",
          title: i.title ?? "",
          num: i.quantity ?? 0,
          price: i.unit_price ?? 0,
        })),
        documentUrl: body.fiscal_document?.url ?? null,
      };
      await reply.send({ result: answer });
    });
  }

  deps.jobs.handle<PullJob>(ORDER_PULL_JOB, runPull, { concurrency: 4, heartbeatSeconds: 10 });
  deps.jobs.handle<TickJob>(ORDER_TICK_JOB, runTick);
  deps.jobs.handle<FetchJob>(ORDER_FETCH_JOB, runFetch, { concurrency: 2, heartbeatSeconds: 10, onLastFailure: fetchFailed });

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
    fetchOrders,
    runFetch,
    refreshBeforeTransaction,
    label,
    invoice,
  };
}

export type OrderSyncService = ReturnType<typeof createOrderSyncService>;
/** What the notification job needs of this module. */
export type OrderNotificationHandler = OrderSyncService["notifications"];
