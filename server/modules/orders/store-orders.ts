// Storing orders read from Mercado Libre: each once per Mercado Libre order id, in the account of its seller, with its
// shipment, its lines (order-lines.ts) and its profit. An older read never goes over a newer one. A global selling
// order is in USD: its fee and freight come from its lines' net proceeds.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database, Tx } from "../../db/client.ts";
import { meliAccountGroups, meliAccounts, orders } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { emitProgress } from "../../jobs/progress.ts";
import { OrderStatus } from "#shared/contract/enums.ts";
import { MELI_SITES, siteNumberOf } from "#shared/contract/meli.ts";
import { freightOf, linesOf, lookups, storeLines } from "./order-lines.ts";
import { orderProfit } from "./profit.ts";
import { purchasesOf } from "./purchase.ts";
import { orderStatusOf, type MeliOrder, type ShipmentFacts } from "./read.ts";

export type Group = { id: string; custId: string; isCbt: boolean; name: string };
export type Account = { id: string; custId: string; site: number; ownerId: string; isEnabled: boolean; isReceiveOrder: boolean };

const date = (v: string | null | undefined) => {
  const t = v ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? new Date(t) : null;
};
const str = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

export async function groupAndAccounts(tx: Tx, tenantId: string, groupId: string): Promise<{ group: Group; accounts: Account[] } | null> {
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

export function createOrderStore(database: Database) {
  const db = database.db;

  /**
   * Stores the orders with their shipments. Orders of a shop not receiving orders, or of a seller the group does not
   * have, are left out. Answers how many were stored (inserted or changed). `also` runs in the same transaction,
   * whatever was kept (a pull's resume point: it moves exactly when its page is stored).
   */
  async function storeOrders(
    tenantId: string,
    groupId: string,
    list: MeliOrder[],
    shipments: Map<string, ShipmentFacts | null>,
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
      const lk = await lookups(tx, tenantId, groupId, kept);
      // Lines marked bought (issue 32): their cost counts in the profit instead of the product's price.
      const bought = await purchasesOf(
        tx,
        tenantId,
        kept.map((o) => String(o.id)),
      );
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
        const lines = linesOf(o, lk);
        const profit = orderProfit({
          currency,
          freight: freightOf(lines, shipment, currency),
          rates: lk.rates,
          lines: lines.map((l) => {
            const p = l.productId ? lk.productOf.get(l.productId) : undefined;
            return {
              quantity: l.quantity,
              unitPrice: String(l.unitPrice),
              saleFee: String(l.saleFee),
              productPrice: p?.price ?? null,
              productCurrency: p?.currency ?? null,
              label: l.itemId,
              purchase: bought.get(`${o.id}|${l.line}`) ?? null,
            };
          }),
        });
        const { minor: _minor, ...profitDetail } = profit;
        // The newer of the order's and its shipment's last change: a read older in either is not stored over a newer one.
        const changed = [date(o.last_updated ?? o.date_last_updated), date(shipment?.lastUpdated)].filter((d): d is Date => !!d);
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
          meliStatus: o.status,
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
          logisticsName: shipment?.logisticsName ?? null,
          logisticsNumber: shipment?.trackingNumber ?? null,
          thumb: lines.find((l) => l.thumb)?.thumb ?? null,
          address: shipment?.address ?? null,
          orderTime: date(o.date_created) ?? now,
          deliveryTime: date(shipment?.shippedAt),
          signingTime: date(shipment?.deliveredAt),
          estimatedDeliveryTime: date(shipment?.estimatedDelivery),
          mustSendTime: status === OrderStatus.Paid || status === OrderStatus.ReadyToShip ? date(shipment?.handlingLimit) : null,
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
        await storeLines(tx, tenantId, row.id, lines);
      }
      for (const creatorId of owners) await emitProgress(tx, { kind: "order", id: groupId, tenantId, creatorId });
      return done(stored);
    });
  }

  return { storeOrders };
}

export type OrderStore = ReturnType<typeof createOrderStore>;
