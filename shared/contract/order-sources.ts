// The source behind every order (issue 32): each order line back to the product it was published from and the
// collected offer (its URL, the variant matching the order's variation, the price when collected and the last known
// one), the purchase list of the ready orders grouped by source shop, and a line marked bought with its cost.
import { z } from "zod";
import { id } from "./common.ts";
import { PlatformType } from "./enums.ts";
import { orderFilterQuery, sourceMargin } from "./orders.ts";

/** How the line's variant was found: by its SKU, by its variation's values, the product's only variant; null: not found. */
const variantMatches = ["sku", "values", "only"] as const;

const sourceVariant = z.object({
  /** The source platform's SKU id (the variant's sku). */
  sku: z.string(),
  /** Its option values in option order ("红色", "XL"). */
  values: z.array(z.string()),
  image: z.string().nullable(),
  match: z.enum(variantMatches),
});

/** What an order line was bought from: null fields where the product or its collection does not say. */
const orderLineSource = z.object({
  productId: z.string(),
  /** The collection the product came from (null: created or imported without one). */
  collectionId: z.string().nullable(),
  /** PlatformType of the source (1688, Taobao, …). */
  platformType: z.number().int().nullable(),
  /** The offer's page and the source platform's item id. */
  offerUrl: z.string().nullable(),
  sourceItemId: z.string().nullable(),
  title: z.string().nullable(),
  image: z.string().nullable(),
  /** The source shop as collected (1688 supplier, Taobao store). */
  shopId: z.string().nullable(),
  shopName: z.string().nullable(),
  shopUrl: z.string().nullable(),
  /** The variant the order's variation matches (null: the product has several and none matched). */
  variant: sourceVariant.nullable(),
  /** 去采购: the offer's page on that variant (the platform's sku parameter where it takes one). */
  purchaseUrl: z.string().nullable(),
  currency: z.string().nullable(),
  /** The unit price when the product was collected (the product's variant, else the product's price). */
  collectedPrice: z.number().nullable(),
  /** The source's last known unit price (the collection's, refreshed when the offer is collected again). */
  lastKnownPrice: z.number().nullable(),
});
export type OrderLineSource = z.infer<typeof orderLineSource>;

/** A line marked bought (SetPurchase). */
const purchase = z.object({
  /** What it cost, all its quantity, in `currency`. */
  cost: z.number(),
  currency: z.string(),
  purchaseOrderNo: z.string().nullable(),
  purchaseTime: z.string().nullable(),
});

const orderSourceLine = z.object({
  line: z.number().int(),
  itemId: z.string(),
  variationId: z.string().nullable(),
  title: z.string(),
  thumb: z.string().nullable(),
  quantity: z.number().int(),
  sku: z.string().nullable(),
  vkes: z.array(z.string()),
  source: orderLineSource.nullable(),
  purchase: purchase.nullable(),
});
export type OrderSourceLine = z.infer<typeof orderSourceLine>;

/** GetOrderSources: the order's lines with their sources and purchases, and the margin at the sources' last known prices. */
export const orderSources = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  currency: z.string(),
  lines: z.array(orderSourceLine),
  margin: sourceMargin,
});
export type OrderSources = z.infer<typeof orderSources>;

/**
 * GetPurchaseList: the orders list's filter; without a status, the orders ready to ship (待发货). With a source (its
 * platform and item id, as collected), only the lines bought from that offer: the extension shows them on its page.
 */
export const purchaseListInput = orderFilterQuery.extend({
  SourcePlatformType: z
    .number()
    .int()
    .refine((v) => (Object.values(PlatformType) as number[]).includes(v), "unknown platform")
    .optional(),
  SourceItemId: z.string().trim().min(1).max(128).optional(),
});
export type PurchaseListInput = z.output<typeof purchaseListInput>;

/** At most this many order lines go into one purchase list (truncated says when more matched). */
export const PURCHASE_LIST_MAX_LINES = 5_000;

const purchaseOrderLine = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  line: z.number().int(),
  quantity: z.number().int(),
  purchase: purchase.nullable(),
});

/** One thing to buy: an offer's variant, its quantity summed over the orders wanting it. */
const purchaseListLine = z.object({
  /** Stable within the list: offer and variant (or the order line when it has no source). */
  key: z.string(),
  source: orderLineSource.nullable(),
  title: z.string(),
  thumb: z.string().nullable(),
  quantity: z.number().int(),
  /** Of it, already bought (lines marked bought). */
  boughtQuantity: z.number().int(),
  /** lastKnownPrice × quantity, in the source's currency (null without a price). */
  estimatedCost: z.number().nullable(),
  orders: z.array(purchaseOrderLine),
});
export type PurchaseListLine = z.infer<typeof purchaseListLine>;

export const purchaseList = z.object({
  /** By source shop; lines without a known source last, under shopName null. */
  groups: z.array(
    z.object({
      shopId: z.string().nullable(),
      shopName: z.string().nullable(),
      shopUrl: z.string().nullable(),
      lines: z.array(purchaseListLine),
    }),
  ),
  totalLines: z.number().int(),
  truncated: z.boolean(),
});
export type PurchaseList = z.infer<typeof purchaseList>;

/** The largest cost one line may carry (10 million in its currency). */
const MAX_COST = 10_000_000;

/** SetPurchase: an order line marked bought with what it cost (all its quantity); cost null clears the mark. */
export const setPurchaseInput = z.object({
  orderId: id,
  line: z.number().int().min(1).max(10_000),
  cost: z
    .number()
    .finite()
    .min(0)
    .max(MAX_COST)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "最多两位小数")
    .nullable(),
  /** ISO 4217; the source's currency is usually CNY (the default). */
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, "币种须为三位字母代码")
    .transform((s) => s.toUpperCase())
    .default("CNY"),
  purchaseOrderNo: z.string().trim().max(100).nullish(),
});

/** SetPurchase's answer: the line's purchase and the order's profit as it now counts it. */
export const setPurchaseResult = z.object({
  orderId: z.string(),
  line: z.number().int(),
  purchase: purchase.nullable(),
  cost: z.number(),
  profit: z.number(),
});
export type SetPurchaseResult = z.infer<typeof setPurchaseResult>;

/** ExportPurchaseList answers the export task; DownloadPurchaseListExport takes its id. */
export const exportPurchaseListResult = z.object({ taskId: z.string() });
export const downloadPurchaseListQuery = z.object({ taskId: id });
export const exportPurchaseListInput = orderFilterQuery.extend({
  /** The caller's offset from UTC in minutes (the file name's time), default 480 (China). */
  UtcOffsetMinutes: z.number().int().min(-720).max(840).optional(),
});

/** The xlsx's columns, in order. */
export const purchaseListExportHeaders = [
  "来源店铺",
  "商品",
  "来源SKU",
  "规格",
  "数量",
  "已采购",
  "单价",
  "币种",
  "预计成本",
  "采购链接",
  "订单号",
] as const;

/** 去采购: the offer's page on the variant, where the platform's page takes its sku in the address (else the offer). */
export function purchaseUrlOf(platformType: number | null, offerUrl: string | null, sku: string | null): string | null {
  if (!offerUrl) return null;
  const takesSku: number[] = [PlatformType.Alibaba1688, PlatformType.Taobao, PlatformType.Tmall, PlatformType.AliExpress];
  if (!sku || platformType === null || !takesSku.includes(platformType)) return offerUrl;
  try {
    const u = new URL(offerUrl);
    u.searchParams.set(platformType === PlatformType.AliExpress ? "sku_id" : "skuId", sku);
    return u.toString();
  } catch {
    return offerUrl;
  }
}
