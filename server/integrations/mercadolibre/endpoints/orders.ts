// Orders: a local seller's order search and order read, a global seller's purchase search and marketplace order read.
// Docs: docs/15-sales-orders/gestiona-ventas.md (GET /orders/search?seller=&order.status=&order.date_created.from=
// &sort=, GET /orders/{id}; limit ≤ 51); Global Selling "Manage orders" (global-selling.mercadolibre.com/devsite/
// manage-sales-global-selling: GET /marketplace/orders/search answers purchases, each wrapping its orders, whose
// ids are read one by one through GET /marketplace/orders/{id}; filters date_created.from/.to, last_updated.from/.to,
// seller.id; limit ≤ 50, offset; amounts in USD with the seller's net proceeds).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import { mlId } from "../types.ts";

const paging = z.looseObject({ total: z.number(), offset: z.number().optional(), limit: z.number().optional() });

/** What the seller nets on a global selling line, in USD, and what was taken from the sale (sale_fee, shipping_cost). */
const netProceeds = z.looseObject({
  amount: z.number(),
  currency_id: z.string().optional(),
  additional_concepts: z.array(z.looseObject({ id: z.string(), amount: z.number() })).optional(),
});

/** An order (GET /orders/{id}, a result of /orders/search, GET /marketplace/orders/{id}): the fields we read. */
const meliOrder = z.looseObject({
  id: mlId,
  status: z.string(),
  date_created: z.string(),
  date_closed: z.string().nullish(),
  last_updated: z.string().nullish(),
  date_last_updated: z.string().nullish(),
  currency_id: z.string().nullish(),
  total_amount: z.number().nullish(),
  pack_id: mlId.nullish(),
  shipping: z.looseObject({ id: mlId.nullish() }).nullish(),
  buyer: z.looseObject({ id: mlId.optional(), nickname: z.string().nullish() }).nullish(),
  seller: z.looseObject({ id: mlId.optional() }).nullish(),
  context: z.looseObject({ site: z.string().nullish() }).nullish(),
  order_items: z.array(
    z.looseObject({
      item: z.looseObject({
        id: z.string(),
        title: z.string().nullish(),
        variation_id: mlId.nullish(),
        seller_sku: z.string().nullish(),
        variation_attributes: z.array(z.looseObject({ name: z.string().nullish(), value_name: z.string().nullish() })).nullish(),
      }),
      quantity: z.number(),
      unit_price: z.number(),
      sale_fee: z.number().nullish(),
      currency_id: z.string().nullish(),
      /** Global selling only. */
      net_proceeds: netProceeds.nullish(),
    }),
  ),
});
export type MeliOrder = z.infer<typeof meliOrder>;

/** GET /orders/search: a page of whole orders. */
const orderSearchPage = z.looseObject({ results: z.array(meliOrder), paging });
export type OrderSearchPage = z.infer<typeof orderSearchPage>;

/** GET /marketplace/orders/search: a page of purchases; only `orders[].id` names an order (the purchase id does not). */
const purchase = z.looseObject({
  id: mlId,
  orders: z.array(z.looseObject({ id: mlId, seller: z.looseObject({ id: mlId.optional() }).nullish() })),
  shipment: z.looseObject({ id: mlId.nullish() }).nullish(),
});
const purchaseSearchPage = z.looseObject({ results: z.array(purchase), paging });
export type PurchaseSearchPage = z.infer<typeof purchaseSearchPage>;

/** A window of /orders/search: by creation or last change, oldest first. */
export type OrderSearchQuery = {
  seller: string;
  field: "date_created" | "date_last_updated";
  from: Date;
  to?: Date;
  /** At most 51. */
  limit: number;
  offset: number;
};

/** GET /orders/search (gestiona-ventas.md "Buscar órdenes"): order.date_created / order.date_last_updated windows. */
export const searchOrders = (s: MeliSession, q: OrderSearchQuery, o: CallOptions = {}) =>
  s.send<OrderSearchPage>("GET", "/orders/search", {
    ...o,
    query: {
      seller: q.seller,
      [`order.${q.field}.from`]: q.from.toISOString(),
      ...(q.to ? { [`order.${q.field}.to`]: q.to.toISOString() } : {}),
      sort: "date_asc",
      limit: q.limit,
      offset: q.offset,
    },
    schema: orderSearchPage,
  });

/** GET /orders/{id} (gestiona-ventas.md "Obtener una orden"). */
export const getOrder = (s: MeliSession, orderId: string, o: CallOptions = {}) =>
  s.send<MeliOrder>("GET", `/orders/${encodeURIComponent(orderId)}`, { ...o, schema: meliOrder });

/** A window of /marketplace/orders/search: by creation or last change, of one marketplace user or all of them. */
export type PurchaseSearchQuery = {
  /** seller.id: one marketplace user; without it, every marketplace user of the global seller. */
  sellerId?: string;
  field: "date_created" | "last_updated";
  from: Date;
  to?: Date;
  /** At most 50. */
  limit: number;
  offset: number;
};

/** GET /marketplace/orders/search (Global Selling "Manage orders", "Search orders with filters"). */
export const searchPurchases = (s: MeliSession, q: PurchaseSearchQuery, o: CallOptions = {}) =>
  s.send<PurchaseSearchPage>("GET", "/marketplace/orders/search", {
    ...o,
    query: {
      "seller.id": q.sellerId,
      [`${q.field}.from`]: q.from.toISOString(),
      ...(q.to ? { [`${q.field}.to`]: q.to.toISOString() } : {}),
      sort: "date_asc",
      limit: q.limit,
      offset: q.offset,
    },
    schema: purchaseSearchPage,
  });

/** The order ids a page of purchases names, in order (a cart purchase names several). */
export const orderIdsOf = (page: PurchaseSearchPage): string[] => [...new Set(page.results.flatMap((p) => p.orders.map((x) => x.id)))];

/** GET /marketplace/orders/{id} (Global Selling "Manage orders", "Get an order detail"): amounts in USD. */
export const getMarketplaceOrder = (s: MeliSession, orderId: string, o: CallOptions = {}) =>
  s.send<MeliOrder>("GET", `/marketplace/orders/${encodeURIComponent(orderId)}`, { ...o, schema: meliOrder });

/** What a global selling line cost the seller, from its net proceeds' concepts (USD): the fee and the freight. */
export function proceedsConcepts(line: MeliOrder["order_items"][number]): { saleFee: number | null; shipping: number | null } {
  const concepts = line.net_proceeds?.additional_concepts ?? [];
  const sum = (id: string) => {
    const found = concepts.filter((c) => c.id === id);
    return found.length ? found.reduce((a, c) => a + c.amount, 0) : null;
  };
  return { saleFee: sum("sale_fee"), shipping: sum("shipping_cost") };
}
