// The orders screen's words and the pure rules it shows by: each order status in Chinese with its badge tone, the
// shipping deadline (mustSendTime) as the seller reads it (in the browser's time: left, due soon, overdue), and money
// in the order's currency.
import { OrderStatus } from "#shared/contract/enums.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import type { OrderRow } from "#shared/contract/orders.ts";
import { marginPercentOf, marginStatus, marginWarning } from "#shared/publish/margin.ts";
import type { BadgeTone } from "../../lib/labels.ts";

const orderStatusNames: Record<number, string> = {
  [OrderStatus.Unpaid]: "待付款",
  [OrderStatus.Paid]: "待发货",
  [OrderStatus.ReadyToShip]: "待打单",
  [OrderStatus.Shipped]: "运输中",
  [OrderStatus.Delivered]: "已签收",
  [OrderStatus.NotDelivered]: "未妥投",
  [OrderStatus.Cancelled]: "已取消",
};

export const orderStatusLabel = (s: number) => orderStatusNames[s] ?? `状态 ${s}`;

export const orderStatusTones: Record<number, BadgeTone> = {
  [OrderStatus.Unpaid]: "secondary",
  [OrderStatus.Paid]: "warning",
  [OrderStatus.ReadyToShip]: "default",
  [OrderStatus.Shipped]: "outline",
  [OrderStatus.Delivered]: "success",
  [OrderStatus.NotDelivered]: "destructive",
  [OrderStatus.Cancelled]: "secondary",
};

/** The status tabs, in the order of a seller's day (what to ship first). */
export const ORDER_STATUS_TABS = [
  OrderStatus.ReadyToShip,
  OrderStatus.Paid,
  OrderStatus.Unpaid,
  OrderStatus.Shipped,
  OrderStatus.Delivered,
  OrderStatus.NotDelivered,
  OrderStatus.Cancelled,
];

/** Statuses whose deadline still matters: the seller has yet to ship. */
const TO_SHIP: number[] = [OrderStatus.Paid, OrderStatus.ReadyToShip];

/** A deadline within this is shown as due soon. */
const DUE_SOON_MS = 24 * 3600_000;

export type Deadline = { state: "overdue" | "soon" | "ok"; text: string };

/** "2天3小时", "5小时12分", "8分" (at least a minute). */
export function spanText(ms: number): string {
  const minutes = Math.max(1, Math.floor(Math.abs(ms) / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d) return h ? `${d}天${h}小时` : `${d}天`;
  if (h) return m ? `${h}小时${m}分` : `${h}小时`;
  return `${m}分`;
}

/** How the shipping deadline reads now: null when there is none or the order is no longer to ship. */
export function deadlineOf(mustSendTime: string | null, status: number, now: number): Deadline | null {
  if (!mustSendTime || !TO_SHIP.includes(status)) return null;
  const at = Date.parse(mustSendTime);
  if (Number.isNaN(at)) return null;
  const left = at - now;
  if (left < 0) return { state: "overdue", text: `已超时 ${spanText(left)}` };
  return { state: left <= DUE_SOON_MS ? "soon" : "ok", text: `剩余 ${spanText(left)}` };
}

/** Money in the order's currency: "1,234.50 MXN"; "-" for nothing. */
export function moneyText(value: number | null | undefined, currency?: string | null): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "-";
  const text = value.toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return currency ? `${text} ${currency}` : text;
}

/**
 * The order's margin (profit ÷ amount) against its shop's minimum, by the pre-flight's rule (shared/publish/margin.ts):
 * the list shows the profit in red with the warning when it is a loss or under the minimum.
 */
export function orderMarginOf(r: Pick<OrderRow, "profit" | "totalAmount" | "minMargin">) {
  const percent = marginPercentOf(r.profit, r.totalAmount);
  const status = marginStatus(r.profit, r.totalAmount, r.minMargin);
  return { percent, status, warning: marginWarning(status, percent, r.minMargin) };
}

/** 墨西哥, 巴西…; 站点 N for an unknown number. */
export const siteName = (site: number) => MELI_SITES[site as keyof typeof MELI_SITES]?.name ?? `站点 ${site}`;

export { shipmentStatusLabel } from "#shared/contract/orders.ts";
