// Storing orders read from Mercado Libre: each once per Mercado Libre order id, in the account of its seller, with its
// shipment, its lines linked to the listing and product they came from, and its profit. An older read never goes over
// a newer one. A global selling order is in USD: its fee and freight come from its lines' net proceeds.
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Tx } from "../../db/client.ts";
import { currencies, listings, meliAccountGroups, meliAccounts, orderItems, orders, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { proceedsConcepts } from "../../integrations/mercadolibre/endpoints/orders.ts";
import { emitProgress } from "../events/progress.ts";
import { OrderStatus } from "../../../shared/contract/enums.ts";
import { MELI_SITES, siteNumberOf } from "../../../shared/contract/meli.ts";
import { formatMoney } from "../../../shared/publish/price.ts";
import { freightShare, orderProfit } from "./profit.ts";
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

/** The listings, products and rates a page of orders needs, read at once. */
async function lookups(tx: Tx, tenantId: string, groupId: string, kept: MeliOrder[]) {
  const itemIds = [...new Set(kept.flatMap((o) => o.order_items.map((l) => l.item.id.toUpperCase())))];
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
  const skus = [...new Set(kept.flatMap((o) => o.order_items.map((l) => l.item.seller_sku?.trim()).filter((x): x is string => !!x)))];
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
  const rates = await tx.select({ code: currencies.code, rate: currencies.rate }).from(currencies);
  return {
    listingOf: new Map(listingRows.map((l) => [l.itemId!, l])),
    productOfSku,
    productOf: new Map(productRows.map((p) => [p.id, p])),
    rates,
  };
}

type Lookups = Awaited<ReturnType<typeof lookups>>;

/** The order's lines as stored, linked to their listing and product. */
function linesOf(o: MeliOrder, l: Lookups) {
  return o.order_items.map((line, i) => {
    const itemId = line.item.id.toUpperCase();
    const listing = l.listingOf.get(itemId);
    const sku = line.item.seller_sku?.trim() || null;
    const cbt = line.net_proceeds ? proceedsConcepts(line) : null;
    return {
      line: i + 1,
      itemId,
      variationId: str(line.item.variation_id),
      title: line.item.title ?? itemId,
      thumb: listing?.image ?? null,
      link: listing?.permalink ?? null,
      quantity: Math.max(0, Math.trunc(line.quantity)),
      unitPrice: line.unit_price,
      // A global selling line's fee is among its net proceeds' concepts (the total for the line, per unit here).
      saleFee: cbt?.saleFee != null && line.quantity > 0 ? cbt.saleFee / line.quantity : (line.sale_fee ?? 0),
      shipping: cbt?.shipping ?? null,
      sku,
      vkes: (line.item.variation_attributes ?? []).map((v) => `${v.name ?? ""}: ${v.value_name ?? ""}`),
      listingId: listing?.id ?? null,
      productId: listing?.productId ?? (sku ? (l.productOfSku.get(sku) ?? null) : null),
    };
  });
}

/** The freight the seller pays for this order: its net proceeds' shipping (global selling), else its share of the shipment's. */
function freightOf(lines: ReturnType<typeof linesOf>, shipment: ShipmentFacts | null, currency: string): string {
  if (lines.some((l) => l.shipping !== null)) return lines.reduce((a, l) => a + (l.shipping ?? 0), 0).toFixed(2);
  const total = lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0);
  const sellerCost = Math.max(0, (shipment?.listCost ?? 0) - (shipment?.buyerCost ?? 0));
  return formatMoney(
    freightShare(sellerCost.toFixed(2), total.toFixed(2), shipment?.goodsValue != null ? shipment.goodsValue.toFixed(2) : null, currency),
    currency,
  );
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

async function storeLines(tx: Tx, tenantId: string, orderId: string, lines: ReturnType<typeof linesOf>) {
  if (lines.length) {
    await tx
      .insert(orderItems)
      .values(
        lines.map(({ shipping: _s, ...l }) => ({
          ...l,
          tenantId,
          orderId,
          unitPrice: l.unitPrice.toFixed(2),
          saleFee: l.saleFee.toFixed(2),
        })),
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
    sql`delete from ${orderItems} where ${orderItems.tenantId} = ${tenantId} and ${orderItems.orderId} = ${orderId} and ${orderItems.line} > ${lines.length}`,
  );
}

export type OrderStore = ReturnType<typeof createOrderStore>;
