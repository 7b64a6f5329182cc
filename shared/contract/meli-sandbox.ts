// The host's 沙箱 page (built-in Mercado Libre sandbox only, absent when MELI_API_URL is set): what the sandbox holds
// and the few things the host makes happen on it: an order for a listing (paid, ready to ship), the marketplace clock
// moved on, a notification sent to the app, the next calls refused with a 429, and the pace of the order stream.
import { z } from "zod";

const sandboxItem = z.object({
  id: z.string(),
  title: z.string(),
  price: z.number(),
  currency: z.string(),
  available: z.number().int(),
  sold: z.number().int(),
  status: z.string(),
});

const sandboxSeller = z.object({
  id: z.number().int(),
  nickname: z.string(),
  siteId: z.string(),
  /** Its active items (the first 100), the ones an order can sell. */
  items: z.array(sandboxItem),
});

export const sandboxOrder = z.object({
  id: z.number().int(),
  sellerId: z.number().int(),
  itemId: z.string().nullable(),
  title: z.string(),
  status: z.string(),
  shipmentStatus: z.string().nullable(),
  dateCreated: z.string(),
});
export type SandboxOrder = z.infer<typeof sandboxOrder>;

export const sandboxState = z.object({
  /** False when the server talks to Mercado Libre itself (MELI_API_URL set): the page is absent then. */
  enabled: z.boolean(),
  now: z.string().nullable(),
  /** Each connected seller gets 0-2 orders (0.85 on average) per this many minutes. */
  orderIntervalMinutes: z.number().nullable(),
  /** Calls still to be refused with a 429. */
  refusalsPending: z.number().int(),
  /** Whether notifications reach the app (its MeliCallback). */
  notificationsConnected: z.boolean(),
  sellers: z.array(sandboxSeller),
  /** The newest orders (20). */
  orders: z.array(sandboxOrder),
});
export type SandboxState = z.infer<typeof sandboxState>;

export const createSandboxOrderBody = z.object({
  itemId: z.string().trim().min(1, "请选择在线商品").max(40),
  quantity: z.number().int().min(1, "数量至少为 1").max(10, "数量最多为 10").default(1),
});

export const moveSandboxClockBody = z.object({
  minutes: z
    .number()
    .int("请输入整数分钟")
    .min(1, "至少前进 1 分钟")
    .max(7 * 24 * 60, "一次最多前进 7 天"),
});
export const moveSandboxClockResult = z.object({ now: z.string() });

export const sandboxTopics = ["orders_v2", "items", "shipments"] as const;
export const sendSandboxNotificationBody = z.object({
  topic: z.enum(sandboxTopics, { message: "请选择通知主题" }),
  /** The order id (orders_v2, shipments) or the item id (items). */
  resourceId: z.string().trim().min(1, "请填写订单号或商品 ID").max(40),
});
export const sendSandboxNotificationResult = z.object({ resource: z.string(), userId: z.number().int() });

export const refuseSandboxCallsBody = z.object({
  count: z.number().int("请输入整数").min(1, "至少 1 次").max(100, "最多 100 次"),
});
export const refuseSandboxCallsResult = z.object({ refusalsPending: z.number().int() });

export const setSandboxOrderRateBody = z.object({
  intervalMinutes: z
    .number()
    .int("请输入整数分钟")
    .min(1, "至少 1 分钟")
    .max(24 * 60, "最多 1440 分钟"),
});
export const setSandboxOrderRateResult = z.object({ orderIntervalMinutes: z.number() });
