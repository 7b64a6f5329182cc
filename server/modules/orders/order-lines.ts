// A page of orders' lines as stored: linked to the listing and product they came from (by item id, else by SKU), with
// their fee, and the freight the seller pays for the order (a global selling order's from its lines' net proceeds, a
// local one's share of its shipment's seller cost).
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { currencies, listings, orderItems, products } from "../../db/schema.ts";
import { proceedsConcepts } from "../../integrations/mercadolibre/endpoints/orders.ts";
import { formatMoney } from "#shared/publish/price.ts";
import { freightShare } from "./profit.ts";
import type { MeliOrder, ShipmentFacts } from "./read.ts";

const str = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

/** The listings, products and rates a page of orders needs, read at once. */
export async function lookups(tx: Tx, tenantId: string, groupId: string, kept: MeliOrder[]) {
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

export type Lookups = Awaited<ReturnType<typeof lookups>>;

/** The order's lines as stored, linked to their listing and product. */
export function linesOf(o: MeliOrder, l: Lookups) {
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
export function freightOf(lines: ReturnType<typeof linesOf>, shipment: ShipmentFacts | null, currency: string): string {
  if (lines.some((l) => l.shipping !== null)) return lines.reduce((a, l) => a + (l.shipping ?? 0), 0).toFixed(2);
  const total = lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0);
  const sellerCost = Math.max(0, (shipment?.listCost ?? 0) - (shipment?.buyerCost ?? 0));
  return formatMoney(
    freightShare(sellerCost.toFixed(2), total.toFixed(2), shipment?.goodsValue != null ? shipment.goodsValue.toFixed(2) : null, currency),
    currency,
  );
}

export async function storeLines(tx: Tx, tenantId: string, orderId: string, lines: ReturnType<typeof linesOf>) {
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
