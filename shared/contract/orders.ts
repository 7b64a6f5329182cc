// Orders (spec §3 Orders: order with items and address; §7 Order GetMeliOrderGroupInfo, GetOrders, FetchOrders,
// GetNewOrder, GetOrderLabel, GetMeliOrderInvoice; issue 18). An order is stored once per Mercado Libre order id,
// whichever way it arrived (a notification, the periodic pull of a shop with order receiving on, FetchOrders); orders
// bought together share a packId. Field names as the spec spells them (recieveAddress, moblle, estima_DeliveryTime,
// vkes). Money is in the order's currency, as numbers with the currency's decimals (exact: at most 2 decimals).
import { z } from "zod";
import { id, isoDate, pagedQuery, queryInt } from "./common.ts";
import { OrderStatus } from "./enums.ts";

/** A query integer that must be one of the enum's values. */
const enumQuery = (e: Record<string, number>) => {
  const values = Object.values(e);
  return z.coerce
    .number()
    .int()
    .refine((v) => values.includes(v), `must be one of ${values.join(", ")}`);
};

/** A Mercado Libre order or pack id: digits. */
const meliOrderNumber = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "must be a Mercado Libre order number (digits)");

/** The buyer's address (spec §3 recieveAddress), as the shipment carries it. */
const orderAddress = z.object({
  id: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** The spec's spelling of "mobile". */
  moblle: z.string().nullable(),
  country: z.string().nullable(),
  state: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  company: z.string().nullable(),
  street: z.string().nullable(),
  /** The whole address on one line. */
  address: z.string().nullable(),
});

/** One line of the order (spec §3 items), linked to the listing and the product it came from when known. */
const orderItem = z.object({
  /** Mercado Libre's item id (MLM…). */
  meliId: z.string(),
  variationId: z.string().nullable(),
  thumb: z.string().nullable(),
  title: z.string(),
  /** The item's page on Mercado Libre. */
  link: z.string().nullable(),
  /** Quantity. */
  num: z.number().int(),
  /** Unit price. */
  price: z.number(),
  /** Mercado Libre's sale fee for the line (all units). */
  saleFee: z.number(),
  sku: z.string().nullable(),
  /** The variation's attributes as "name: value" (the spec's vkes). */
  vkes: z.array(z.string()),
  /** The listing record of the item in this shop, and its product; null when none is recorded. */
  listingId: z.string().nullable(),
  productId: z.string().nullable(),
  /** The collected source of the product (issue 32; GetOrderSources has the matched variant and prices). */
  source: z
    .object({ offerUrl: z.string().nullable(), platformType: z.number().int().nullable(), shopName: z.string().nullable() })
    .nullable(),
});

/** A currency rate the profit used: CNY for one unit of the currency (as the settings store it). */
const usedRate = z.object({ code: z.string(), rate: z.string() });

/**
 * The profit and where it comes from, in the order's currency: profit = salePrice − saleFee − freight − productCost.
 * productCost is the linked products' prices × quantities converted through the currency rates (exact decimals,
 * half up to the currency's minor unit, as the publish price formula). `complete` is false when a line has no product,
 * the product no price, or a currency no rate: that line's cost counts as 0 and `missing` says why.
 */
const profitBreakdown = z.object({
  currency: z.string(),
  /** Units the buyer paid for the items (unit price × quantity). */
  salePrice: z.number(),
  saleFee: z.number(),
  /** What the seller pays for the shipment. */
  freight: z.number(),
  productCost: z.number(),
  profit: z.number(),
  /** The profit in CNY (null without a rate for the order's currency). */
  profitCny: z.number().nullable(),
  rates: z.array(usedRate),
  complete: z.boolean(),
  missing: z.array(z.string()),
});
export type ProfitBreakdown = z.infer<typeof profitBreakdown>;

/** The order's profit with the sources' last known prices as the cost of lines not bought yet (bought lines: their
 *  cost; issue 32): GetOrderSources' margin, and the list row's. */
export const sourceMargin = z.object({
  currency: z.string(),
  salePrice: z.number(),
  cost: z.number(),
  profit: z.number(),
  profitCny: z.number().nullable(),
  /** Profit ÷ sale price, in %, one decimal (null at a zero sale price). */
  margin: z.number().nullable(),
  complete: z.boolean(),
  missing: z.array(z.string()),
});
export type SourceMargin = z.infer<typeof sourceMargin>;

/** An order row (spec §3 Order) with what the orders screen shows of it. */
export const orderRow = z.object({
  /** Our record's id (GetNewOrder, GetOrderLabel and GetMeliOrderInvoice take it). */
  id: z.string(),
  /** Mercado Libre's order id. */
  orderNo: z.string(),
  /** Mercado Libre's pack id when several orders were bought together (they share it), else null. */
  packId: z.string().nullable(),
  accountGroupId: z.string(),
  /** The shop account (the group's account on the order's site) and its name. */
  accountId: z.string(),
  shopName: z.string().nullable(),
  /** 1-5 (Site); a cross-border shop's order names the marketplace site it was sold on. */
  site: z.number().int(),
  isCbt: z.boolean(),
  currency: z.string(),
  /** OrderStatus. */
  orderStatus: z.number().int(),
  /** Mercado Libre's own statuses, as read. */
  meliStatus: z.string(),
  shipmentStatus: z.string().nullable(),
  shipmentSubstatus: z.string().nullable(),
  shipmentId: z.string().nullable(),
  buyerId: z.string().nullable(),
  buyerNickname: z.string().nullable(),
  /** Total of the items (unit price × quantity). */
  totalAmount: z.number(),
  /** The spec's money fields: the sale fee, the freight the seller pays, the product cost and the profit. */
  saleFee: z.number(),
  freightFee: z.number(),
  cost: z.number(),
  profit: z.number(),
  profitDetail: profitBreakdown,
  /** Ours (issue 28): the shop's minimum margin in % (null: the default); the list warns in red under it. */
  minMargin: z.number().nullable(),
  /** The margin at the sources' last known prices (issue 32); null when no line has a product. */
  sourceMargin: sourceMargin.nullable(),
  logisticsName: z.string().nullable(),
  logisticsNumber: z.string().nullable(),
  thumb: z.string().nullable(),
  recieveAddress: orderAddress.nullable(),
  /** When it was bought (Mercado Libre's date_created). */
  orderTime: z.string(),
  /** When it was shipped, and delivered (signingTime); null until then. */
  deliveryTime: z.string().nullable(),
  signingTime: z.string().nullable(),
  /** The delivery Mercado Libre promises the buyer. */
  estima_DeliveryTime: z.string().nullable(),
  /** Ship before this (the shipment's handling limit); null when not known or no longer relevant. */
  mustSendTime: z.string().nullable(),
  /** Whether the label can be downloaded now (ready_to_ship). */
  labelReady: z.boolean(),
  items: z.array(orderItem),
  /** The owner of the shop (a sub-account sees its shops' orders). */
  userId: z.string(),
  syncTime: z.string(),
  creationTime: z.string(),
  lastModificationTime: z.string().nullable(),
});
export type OrderRow = z.infer<typeof orderRow>;

const orderSortFields = ["orderTime", "mustSendTime", "lastModificationTime"] as const;

/** The orders list's filter (spec §7 GetOrders): query names as the spec writes them. */
export const orderFilterQuery = z.object({
  /** Our record's id. */
  OrderId: id.optional(),
  /** Every order of the pack. */
  PackOrderId: meliOrderNumber.optional(),
  /** Mercado Libre's order id. */
  OrderNo: meliOrderNumber.optional(),
  OrderStatus: enumQuery(OrderStatus).optional(),
  /** The shop's owner (a main account's filter; a sub-account sees its own shops' orders whatever it names). */
  UserId: id.optional(),
  /** Bought from (inclusive) and up to (exclusive). */
  StartTime: isoDate.optional(),
  EndTime: isoDate.optional(),
  AccountGroupId: id.optional(),
  Site: queryInt(1, 5).optional(),
});
export type OrderFilter = z.output<typeof orderFilterQuery>;

/** GetOrders: the filter with paging; newest first by default. */
export const getOrdersQuery = pagedQuery(orderSortFields).extend(orderFilterQuery.shape);

/**
 * totalCount is exact up to ORDER_COUNT_CAP matching orders, then capped (totalCountCapped), as the listing list; so is
 * each tab's count (GetMeliOrderGroupInfo).
 */
export const ORDER_COUNT_CAP = 1_000;
export const orderPage = z.object({
  items: z.array(orderRow),
  totalCount: z.number().int(),
  totalCountCapped: z.boolean(),
});
export type OrderPage = z.infer<typeof orderPage>;

const orderCount = z.object({ count: z.number().int(), capped: z.boolean() });
export const orderGroupInfo = z.object({
  /** Per OrderStatus (every value, zero included), ignoring the filter's status. */
  statuses: z.array(orderCount.extend({ status: z.number().int() })),
  /** Per site (1-5), ignoring the filter's site. */
  sites: z.array(orderCount.extend({ site: z.number().int() })),
  /** Per shop group the caller sees, ignoring the filter's AccountGroupId. */
  accountGroups: z.array(orderCount.extend({ accountGroupId: z.string(), name: z.string() })),
  total: orderCount,
});
export type OrderGroupInfo = z.infer<typeof orderGroupInfo>;

/**
 * FetchOrders: pull the orders bought in [StartTime, EndTime) from Mercado Libre now, of one shop group or of every
 * shop the caller sees with order receiving on. Answers the task at once (TaskType.SyncOrders).
 */
export const fetchOrdersQuery = z.object({
  StartTime: isoDate.optional(),
  EndTime: isoDate.optional(),
  GroupId: id.optional(),
});
/** A pull may reach back at most this many days. */
export const FETCH_ORDERS_MAX_DAYS = 90;
export const fetchOrdersResult = z.object({ taskId: z.string() });
export type FetchOrdersResult = z.infer<typeof fetchOrdersResult>;

/** GetNewOrder: re-read one order (our id) from Mercado Libre; answers it as stored. */
export const getNewOrderQuery = z.object({ id });

/** GetOrderLabel / GetMeliOrderInvoice: our order id. GetOrderLabel answers application/pdf, not JSON. */
export const orderIdQuery = z.object({ orderId: id });

/** The invoice of an order as Mercado Libre holds it (GetMeliOrderInvoice). */
export const orderInvoice = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  invoiceNumber: z.string(),
  /** Mercado Libre's fiscal document status (e.g. authorized). */
  status: z.string(),
  issuedAt: z.string().nullable(),
  currency: z.string(),
  total: z.number(),
  buyerName: z.string().nullable(),
  items: z.array(z.object({ meliId: z.string(), title: z.string(), num: z.number().int(), price: z.number() })),
  /** Where Mercado Libre serves the fiscal document (XML/PDF), when it says. */
  documentUrl: z.string().nullable(),
});
export type OrderInvoice = z.infer<typeof orderInvoice>;

/** Mercado Libre's shipment statuses in Chinese: the order screens, the invoice's shipping note, the host's sandbox. */
const shipmentStatusNames: Record<string, string> = {
  pending: "待付款",
  handling: "备货中",
  ready_to_ship: "可打单发货",
  shipped: "运输中",
  delivered: "已送达",
  not_delivered: "未送达",
  cancelled: "已取消",
};

/** A shipment status in Chinese (Mercado Libre's own word when it is one we do not know); null for none. */
export const shipmentStatusLabel = (s: string | null | undefined) => (s ? (shipmentStatusNames[s] ?? s) : null);
