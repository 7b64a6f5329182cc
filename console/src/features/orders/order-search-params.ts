// The orders screen's URL schema (useListUrlState: each key is its search param; broken values fall back to the
// defaults) and the GetOrders / GetMeliOrderGroupInfo queries it turns into. The status tab is a filter like the others,
// so a link keeps the tab; `pack` shows the orders bought together with one order (its pack id).
import { z } from "zod";
import { OrderStatus, Site } from "#shared/contract/enums.ts";
import type { InputOf } from "#shared/api/define.ts";
import type { getOrdersQuery } from "#shared/contract/orders.ts";
import { choiceParam, dateParam, idParam, ALL, pageParam, pageSizeParam } from "../../components/list/url-params.ts";
import { localDayRange } from "../../lib/format.ts";

/** GetOrders' query as the client takes it (GetMeliOrderGroupInfo takes its filter part). */
export type OrderQuery = InputOf<typeof getOrdersQuery>;

export const ORDER_PAGE_SIZES = [20, 50, 100];

export const ORDER_SORTS = {
  "orderTime desc": "最新下单",
  "orderTime asc": "最早下单",
  "mustSendTime asc": "发货截止最早",
  "lastModificationTime desc": "最近更新",
} as const;
export type OrderSort = keyof typeof ORDER_SORTS;

/** A Mercado Libre order or pack number as typed: its digits (spaces and a leading # dropped), or "". */
export function orderNumberOf(text: string): string {
  const digits = text.trim().replace(/^#/, "").replace(/[\s-]/g, "");
  return /^\d{1,20}$/.test(digits) ? digits : "";
}

const numberParam = () => z.string().transform(orderNumberOf).catch("");

export const orderListSchema = z.object({
  status: choiceParam(Object.values(OrderStatus)),
  shop: idParam(),
  site: choiceParam(Object.values(Site)),
  /** The shop's owner (a main account's filter). */
  user: idParam(),
  /** Mercado Libre's order number. */
  no: numberParam(),
  /** Mercado Libre's pack number: every order bought together. */
  pack: numberParam(),
  from: dateParam(),
  to: dateParam(),
  sort: z.enum(Object.keys(ORDER_SORTS) as [OrderSort]).catch("orderTime desc"),
  page: pageParam(),
  size: pageSizeParam(ORDER_PAGE_SIZES, 20),
});
export type OrderListState = z.output<typeof orderListSchema>;

/** The filter of a list state (only what is set), in GetOrders' query names; the tab counts take it whole. */
export function toOrderFilter(s: OrderListState): OrderQuery {
  const { from, to } = localDayRange(s.from, s.to);
  const f: OrderQuery = {};
  if (s.status !== ALL) f.OrderStatus = Number(s.status);
  if (s.shop !== ALL) f.AccountGroupId = s.shop;
  if (s.site !== ALL) f.Site = Number(s.site);
  if (s.user !== ALL) f.UserId = s.user;
  if (s.no) f.OrderNo = s.no;
  if (s.pack) f.PackOrderId = s.pack;
  if (from) f.StartTime = from;
  // GetOrders' EndTime is exclusive: the first instant after the last day.
  if (to) f.EndTime = new Date(Date.parse(to) + 1).toISOString();
  return f;
}

/** GetOrders' query of a list state. */
export function toOrderQuery(s: OrderListState): OrderQuery {
  return { ...toOrderFilter(s), Sorting: s.sort, SkipCount: (s.page - 1) * s.size, MaxResultCount: s.size };
}
