// Reading a shop group's orders again and storing them: by Mercado Libre id (a notification, GetNewOrder, a label or an
// invoice) or by a window (pull.ts: the periodic pull and FetchOrders). The Mercado Libre reads run outside any
// transaction; each store is one short transaction (store-orders.ts).
import type { Database, Tx } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError, businessError } from "../../http/errors.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { loadSessionUser } from "../../http/session-user.ts";
import { visibleRef } from "./documents.ts";
import type { createOrderPull, PullPoint, PullTotals, Window } from "./pull.ts";
import type { OrderReads } from "./read.ts";
import { groupAndAccounts, type OrderStore } from "./store-orders.ts";

export type OrderRefreshDeps = {
  database: Database;
  meli: MeliClient;
  reads: OrderReads;
  storeOrders: OrderStore["storeOrders"];
  pull: ReturnType<typeof createOrderPull>;
};

export function createOrderRefresh(deps: OrderRefreshDeps) {
  const { reads, storeOrders } = deps;
  const groupOf = (tenantId: string, groupId: string) =>
    inScope(deps.database.db, { tenantId }, (tx) => groupAndAccounts(tx, tenantId, groupId));

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
    return deps.pull.pullGroup(found, tenantId, window, onlyAccounts, onPage, point);
  }

  /** GetNewOrder's read: before the call's transaction (the handler answers the stored row). */
  async function refreshBeforeTransaction(call: Omit<CallContext, "tx" | "user">, id: string) {
    const principal = call.principal;
    if (!principal) return;
    const ref = await inScope(deps.database.db, { tenantId: call.tenantId }, async (tx) => {
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

  return { groupOf, refreshOrders, pullGroup, refreshBeforeTransaction };
}

export type OrderRefresh = ReturnType<typeof createOrderRefresh>;
