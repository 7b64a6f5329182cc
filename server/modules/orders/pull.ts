// Searches: a group's orders by creation or last change, page by page, each page stored before the next is read. A
// local group searches /orders/search as each of its sellers (pages of whole orders); a global seller searches
// /marketplace/orders/search once for all its marketplace users (pages of purchases, whose orders are then read one by
// one). Order searches are held to Mercado Libre's 100 a minute per seller by a bucket of their own.
import type { Tx } from "../../db/client.ts";
import type { MeliClient, MeliSession } from "../../integrations/mercadolibre/client.ts";
import { orderIdsOf, searchOrders, searchPurchases, type MeliOrder } from "../../integrations/mercadolibre/endpoints/orders.ts";
import type { Bucket } from "../../integrations/mercadolibre/rate-limit.ts";
import type { OrderReads } from "./read.ts";
import type { Account, Group, OrderStore } from "./store-orders.ts";

/** Orders per search page (Mercado Libre's maximum: 51 local, 50 global selling). */
export const LOCAL_SEARCH_LIMIT = 51;
const CBT_SEARCH_LIMIT = 50;
/** The search's offset stops here: a longer range is read in windows of creation time. */
const SEARCH_MAX_OFFSET = 10_000;

/** Mercado Libre allows 100 order searches a minute per seller: 95 + a burst of 5 never puts more than 100 in a minute. */
export type OrderSearchRate = { perMinute: number; burst: number };
export const ORDER_SEARCH_RATE: OrderSearchRate = { perMinute: 95, burst: 5 };
const orderSearchBucket = (sellerId: string, rate: OrderSearchRate = ORDER_SEARCH_RATE): Bucket => ({
  key: `orders:${sellerId}`,
  ...rate,
});

/** Which orders a pull reads: those created, or changed, in the window. */
export type Window = { by: "created" | "changed"; from: Date; to?: Date };
/** Where a pull's next search goes: the seller, its window's start (moved on past SEARCH_MAX_OFFSET), the offset. */
type PagePoint = { seller: string; from: string; offset: number };
/** withoutShipment: orders stored without their shipment, which Mercado Libre refused to read (a partial pull). */
export type PullTotals = { read: number; stored: number; total: number; withoutShipment: number };
/** A pull's resume point: its totals so far and its next search (null: the group is done). */
export type PullPoint = PullTotals & { next: PagePoint | null };

type Page = { orders: MeliOrder[]; total: number; count: number };

export function createOrderPull(deps: { meli: MeliClient; reads: OrderReads; store: OrderStore; searchRate: OrderSearchRate }) {
  /** One search page of the group as the seller: its orders (read whole), the search's total and the page's size. */
  async function searchPage(shop: MeliSession, group: Group, seller: string, window: Window, from: Date, offset: number): Promise<Page> {
    if (!group.isCbt) {
      const page = await searchOrders(shop, {
        seller,
        field: window.by === "created" ? "date_created" : "date_last_updated",
        from,
        to: window.to,
        limit: LOCAL_SEARCH_LIMIT,
        offset,
      });
      return { orders: page.results, total: page.paging.total, count: page.results.length };
    }
    const page = await searchPurchases(shop, {
      field: window.by === "created" ? "date_created" : "last_updated",
      from,
      to: window.to,
      limit: CBT_SEARCH_LIMIT,
      offset,
    });
    const orders = await deps.reads.readOrders(shop, true, orderIdsOf(page));
    return { orders, total: page.paging.total, count: page.results.length };
  }

  /**
   * Pulls the group's orders in the window; `onPage` hears the running totals. With `point`, each page's resume point
   * is saved in the transaction that stores the page, and a pull given `resume` goes on from its next search. Answers
   * {read, stored, total}.
   */
  async function pullGroup(
    found: { group: Group; accounts: Account[] },
    tenantId: string,
    window: Window,
    onlyAccounts: string[] | null,
    onPage?: (p: PullTotals) => Promise<void>,
    point?: { resume: PullPoint | null; save: (tx: Tx, p: PullPoint) => Promise<void> },
  ): Promise<PullTotals> {
    const resume = point?.resume ?? null;
    const totals = {
      read: resume?.read ?? 0,
      stored: resume?.stored ?? 0,
      total: resume?.total ?? 0,
      withoutShipment: resume?.withoutShipment ?? 0,
    };
    if (resume && !resume.next) return totals;
    const { group, accounts } = found;
    const receiving = accounts.filter((a) => a.isEnabled && a.isReceiveOrder && (!onlyAccounts || onlyAccounts.includes(a.id)));
    if (!receiving.length) return totals;
    const shop = deps.meli.shop({ tenantId, groupId: group.id });
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
        await deps.meli.buckets.take([orderSearchBucket(group.custId, deps.searchRate)]);
        const page = await searchPage(shop, group, seller, window, from, offset);
        if (offset === 0) totals.total += page.total;
        if (!page.count) break;
        // The next search: the next page; past SEARCH_MAX_OFFSET the window goes on from the last creation time read
        // (creation windows); none when this was the last page.
        const end = offset + page.count;
        const last = page.orders[page.orders.length - 1];
        let next: { from: Date; offset: number } | null = null;
        if (end < page.total) {
          if (end + limit <= SEARCH_MAX_OFFSET) next = { from, offset: end };
          else if (window.by === "created" && last?.date_created) next = { from: new Date(last.date_created), offset: 0 };
        }
        totals.read += page.orders.length;
        const following = next
          ? { seller, from: next.from.toISOString(), offset: next.offset }
          : i + 1 < sellers.length
            ? { seller: sellers[i + 1], from: window.from.toISOString(), offset: 0 }
            : null;
        const saved = point
          ? (tx: Tx, stored: number) => point.save(tx, { ...totals, stored: totals.stored + stored, next: following })
          : undefined;
        const shipments = await deps.reads.readShipments(shop, group.isCbt, page.orders);
        totals.withoutShipment += [...shipments.values()].filter((facts) => facts === null).length;
        totals.stored += await deps.store.storeOrders(tenantId, group.id, page.orders, shipments, saved);
        await onPage?.({ ...totals });
        if (!next) break;
        ({ from, offset } = next);
      }
    }
    return totals;
  }

  return { pullGroup };
}
