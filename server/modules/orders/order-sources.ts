// GetOrderSources (issue 32): one visible order's lines with the product and collected source each came from
// (sources.ts reads them, one statement), their purchases, and the order's margin at the sources' last known prices.
// Apart from sources.ts because it reads the caller's visibility from list.ts, which reads sources.ts' margins for
// the list's rows.
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client.ts";
import type { CallContext } from "../../http/calls.ts";
import { notFound } from "../../http/errors.ts";
import type { OrderSourceLine, OrderSources } from "#shared/contract/order-sources.ts";
import { orderWhere } from "./list.ts";
import { marginOf, purchaseOf, readRates, sourceOf, sourceRows } from "./sources.ts";

/** GetOrderSources: one visible order's lines with their sources, and its margin at the sources' last known prices. */
export async function getOrderSources(ctx: CallContext, orderId: string): Promise<OrderSources> {
  const rows = await sourceRows(ctx.tx, orderWhere(ctx, { OrderId: orderId }), 10_000);
  if (!rows.length) {
    // An order without lines is still the caller's order: answered with none; another's (or none) is a 404.
    const own = rowsOf<{ id: string; orderNo: string; currency: string }>(
      await ctx.tx.execute(sql`select id, meli_order_id as "orderNo", currency from orders where ${orderWhere(ctx, { OrderId: orderId })}`),
    );
    if (!own.length) throw notFound("订单不存在");
    const currency = own[0].currency;
    const empty = { currency, salePrice: 0, cost: 0, profit: 0, profitCny: null, margin: null, complete: true, missing: [] };
    return { orderId, orderNo: own[0].orderNo, currency, lines: [], margin: empty };
  }
  const lines: OrderSourceLine[] = rows.map((r) => ({
    line: r.line,
    itemId: r.itemId,
    variationId: r.variationId,
    title: r.title,
    thumb: r.thumb,
    quantity: r.quantity,
    sku: r.sku,
    vkes: Array.isArray(r.vkes) ? r.vkes : [],
    source: sourceOf(r),
    purchase: purchaseOf(r),
  }));
  return { orderId, orderNo: rows[0].orderNo, currency: rows[0].orderCurrency, lines, margin: marginOf(rows, await readRates(ctx.tx)) };
}
