// 采购单 (issue 32): what to buy for the orders matching the list's filter (by default those ready to ship), grouped by
// source shop, one line per offer and variant with its quantity summed over the orders; and an order line marked
// bought with its cost (SetPurchase), which is then the line's cost in the order's profit (profit.ts) instead of its
// product's price, here and whenever the order is stored again (store-orders.ts reads the purchases of a page).
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Tx } from "../../db/client.ts";
import { orderItems, orders } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { OrderStatus } from "#shared/contract/enums.ts";
import type { OrderFilter } from "#shared/contract/orders.ts";
import {
  PURCHASE_LIST_MAX_LINES,
  type PurchaseList,
  type PurchaseListInput,
  type PurchaseListLine,
  type setPurchaseInput,
  type SetPurchaseResult,
} from "#shared/contract/order-sources.ts";
import { currencyDecimals, toMinor } from "#shared/publish/price.ts";
import { orderWhere } from "./list.ts";
import { orderProfit } from "./profit.ts";
import { purchaseOf, readRates, sourceOf, sourceRows, type SourceRow } from "./sources.ts";

/** The list's filter; without a status, the orders ready to ship. */
const readyByDefault = (f: Partial<OrderFilter>): Partial<OrderFilter> => ({ ...f, OrderStatus: f.OrderStatus ?? OrderStatus.ReadyToShip });

/** The purchase list's lines: one per offer and variant (a line without a source stands alone), by source shop. */
export function groupPurchaseLines(rows: SourceRow[]): PurchaseList["groups"] {
  const lines = new Map<string, PurchaseListLine & { shopKey: string }>();
  for (const r of rows) {
    const source = sourceOf(r);
    const offer = source?.offerUrl ?? source?.sourceItemId ?? (source ? `product:${source.productId}` : null);
    const key = offer ? `${offer}|${source?.variant?.sku ?? r.sku ?? ""}` : `line:${r.orderId}:${r.line}`;
    const purchase = purchaseOf(r);
    let l = lines.get(key);
    if (!l) {
      l = {
        key,
        shopKey: source ? (source.shopId ?? source.shopName ?? "") : "\u0000",
        source,
        title: source?.title ?? r.title,
        thumb: source?.image ?? r.thumb,
        quantity: 0,
        boughtQuantity: 0,
        estimatedCost: null,
        orders: [],
      };
      lines.set(key, l);
    }
    l.quantity += r.quantity;
    if (purchase) l.boughtQuantity += r.quantity;
    l.orders.push({ orderId: r.orderId, orderNo: r.orderNo, line: r.line, quantity: r.quantity, purchase });
  }
  const groups = new Map<string, PurchaseList["groups"][number]>();
  for (const { shopKey, ...l } of lines.values()) {
    const price = l.source?.lastKnownPrice;
    l.estimatedCost = price == null ? null : Math.round(price * l.quantity * 100) / 100;
    let g = groups.get(shopKey);
    if (!g) {
      g = { shopId: l.source?.shopId ?? null, shopName: l.source?.shopName ?? null, shopUrl: l.source?.shopUrl ?? null, lines: [] };
      groups.set(shopKey, g);
    }
    g.lines.push(l);
  }
  // Shops by name; lines of no known source last.
  return [...groups.entries()]
    .sort(([a, x], [b, y]) => (a === "\u0000" ? 1 : b === "\u0000" ? -1 : (x.shopName ?? a).localeCompare(y.shopName ?? b, "zh")))
    .map(([, g]) => g);
}

/** The purchase list's order lines (one statement), at most PURCHASE_LIST_MAX_LINES + 1 to tell truncation. */
export const purchaseRows = (ctx: CallContext, filter: Partial<OrderFilter>, source?: SQL) =>
  sourceRows(ctx.tx, and(orderWhere(ctx, readyByDefault(filter)), source)!, PURCHASE_LIST_MAX_LINES + 1);

/** The lines whose source (the product's collection, else the product) is this offer: sourceRows' "c" and "p". */
const fromOffer = (platformType: number, itemId: string) =>
  sql`coalesce(c.platform_type, p.platform_type) = ${platformType} and coalesce(c.item_id, p.item_id) = ${itemId}`;

export async function getPurchaseList(ctx: CallContext, input: PurchaseListInput): Promise<PurchaseList> {
  const { SourcePlatformType, SourceItemId, ...filter } = input;
  if ((SourcePlatformType === undefined) !== (SourceItemId === undefined)) throw badRequest("货源须同时给出平台和商品ID");
  const rows = await purchaseRows(ctx, filter, SourceItemId ? fromOffer(SourcePlatformType!, SourceItemId) : undefined);
  const truncated = rows.length > PURCHASE_LIST_MAX_LINES;
  const groups = groupPurchaseLines(truncated ? rows.slice(0, PURCHASE_LIST_MAX_LINES) : rows);
  return { groups, totalLines: groups.reduce((n, g) => n + g.lines.length, 0), truncated };
}

/**
 * The order's cost and profit again from its stored lines (purchases where marked, else the product's price), as the
 * store computes them: sale price, fee and freight as stored.
 */
async function recomputeProfit(tx: Tx, tenantId: string, orderId: string) {
  const rows = rowsOf<{
    currency: string;
    freightFee: string;
    itemId: string;
    quantity: number;
    unitPrice: string;
    saleFee: string;
    productPrice: string | null;
    productCurrency: string | null;
    purchaseCost: string | null;
    purchaseCurrency: string | null;
  }>(
    await tx.execute(sql`
      select o.currency, o.freight_fee::text as "freightFee", i.item_id as "itemId", i.quantity,
        i.unit_price::text as "unitPrice", i.sale_fee::text as "saleFee", p.price::text as "productPrice",
        p.currency as "productCurrency", i.purchase_cost::text as "purchaseCost", i.purchase_currency as "purchaseCurrency"
      from orders o
      join order_items i on i.tenant_id = o.tenant_id and i.order_id = o.id
      left join products p on p.tenant_id = i.tenant_id and p.id = i.product_id
      where o.tenant_id = ${tenantId} and o.id = ${orderId}
      order by i.line`),
  );
  const profit = orderProfit({
    currency: rows[0].currency,
    freight: rows[0].freightFee,
    rates: await readRates(tx),
    lines: rows.map((r) => ({
      quantity: r.quantity,
      unitPrice: r.unitPrice,
      saleFee: r.saleFee,
      productPrice: r.productPrice,
      productCurrency: r.productCurrency,
      label: r.itemId,
      purchase: r.purchaseCost !== null && r.purchaseCurrency ? { cost: Number(r.purchaseCost), currency: r.purchaseCurrency } : null,
    })),
  });
  const { minor: _minor, ...profitDetail } = profit;
  await tx
    .update(orders)
    .set({ cost: String(profit.productCost), profit: String(profit.profit), profitDetail })
    .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
  return profit;
}

/** SetPurchase: the visible order's line marked bought with its cost (null: the mark cleared); the order's profit follows. */
export async function setPurchase(ctx: CallContext, input: z.output<typeof setPurchaseInput>): Promise<SetPurchaseResult> {
  const [order] = rowsOf<{ id: string }>(
    await ctx.tx.execute(sql`select id from orders where ${orderWhere(ctx, { OrderId: input.orderId })} for update`),
  );
  if (!order) throw notFound("订单不存在");
  if (input.cost !== null && currencyDecimals(input.currency) === 0 && !Number.isInteger(input.cost))
    throw badRequest(`${input.currency}的采购成本须为整数`, undefined, [
      { message: `${input.currency}的采购成本须为整数`, members: ["cost"] },
    ]);
  const cost = input.cost === null ? null : toMinor(String(input.cost), input.currency)!;
  const now = new Date();
  const [updated] = await ctx.tx
    .update(orderItems)
    .set(
      cost === null
        ? { purchaseCost: null, purchaseCurrency: null, purchaseOrderNo: null, purchaseTime: null, purchaserId: null }
        : {
            purchaseCost: cost,
            purchaseCurrency: input.currency,
            purchaseOrderNo: input.purchaseOrderNo || null,
            purchaseTime: now,
            purchaserId: ctx.user!.id,
          },
    )
    .where(and(eq(orderItems.tenantId, ctx.tenantId), eq(orderItems.orderId, order.id), eq(orderItems.line, input.line)))
    .returning({ line: orderItems.line });
  if (!updated) throw notFound("订单没有这一行商品");
  const profit = await recomputeProfit(ctx.tx, ctx.tenantId, order.id);
  return {
    orderId: order.id,
    line: input.line,
    purchase:
      cost === null
        ? null
        : { cost: input.cost!, currency: input.currency, purchaseOrderNo: input.purchaseOrderNo || null, purchaseTime: now.toISOString() },
    cost: profit.productCost,
    profit: profit.profit,
  };
}

/**
 * The purchases of a page of orders about to be stored again (by Mercado Libre order id, then line), so their profit
 * keeps counting them: one read per page.
 */
export async function purchasesOf(tx: Tx, tenantId: string, meliOrderIds: string[]) {
  const out = new Map<string, { cost: number; currency: string }>();
  if (!meliOrderIds.length) return out;
  const rows = await tx
    .select({ orderNo: orders.meliOrderId, line: orderItems.line, cost: orderItems.purchaseCost, currency: orderItems.purchaseCurrency })
    .from(orders)
    .innerJoin(orderItems, and(eq(orderItems.tenantId, orders.tenantId), eq(orderItems.orderId, orders.id)))
    .where(and(eq(orders.tenantId, tenantId), inArray(orders.meliOrderId, meliOrderIds), sql`${orderItems.purchaseCost} is not null`));
  for (const r of rows)
    if (r.cost !== null && r.currency) out.set(`${r.orderNo}|${r.line}`, { cost: Number(r.cost), currency: r.currency });
  return out;
}
