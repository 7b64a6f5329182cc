// The order calls (spec §7 Order): the list and its tabs, FetchOrders (a task), GetNewOrder (one order read again),
// the label PDF and the invoice.
import type { Registrar } from "../../http/calls.ts";
import type { Services } from "../../deps.ts";
import {
  fetchOrdersQuery,
  fetchOrdersResult,
  getMeliOrderGroupInfoQuery,
  getNewOrderQuery,
  getOrdersQuery,
  orderGroupInfo,
  orderIdQuery,
  orderInvoice,
  orderPage,
  orderRow,
} from "#shared/contract/orders.ts";
import { getMeliOrderGroupInfo, getOrderRow, getOrders } from "./service.ts";

export function registerOrders(r: Registrar, services: Services) {
  const sync = services.orderSync;
  r.call({
    group: "Order",
    name: "GetMeliOrderGroupInfo",
    method: "GET",
    access: "user",
    summary: "Counts of the caller's orders per status, site and shop group for the list's tabs, each with every filter but its own",
    query: getMeliOrderGroupInfoQuery,
    result: orderGroupInfo,
    handler: (ctx, { query }) => getMeliOrderGroupInfo(ctx, query),
  });
  r.call({
    group: "Order",
    name: "GetOrders",
    method: "GET",
    access: "user",
    summary:
      "Orders of the caller's shops (a sub-account: the shops given to it), filtered and sorted; newest first; the count stops at 1,000",
    query: getOrdersQuery,
    result: orderPage,
    handler: (ctx, { query }) => getOrders(ctx, query),
  });
  r.call({
    group: "Order",
    name: "FetchOrders",
    method: "GET",
    access: "user",
    summary:
      "Pulls the orders bought in [StartTime, EndTime) (default the last 7 days) of one shop group or every shop the caller sees that receives orders: answers the task at once",
    query: fetchOrdersQuery,
    result: fetchOrdersResult,
    handler: (ctx, { query }) => sync.fetchOrders(ctx, query),
  });
  r.call({
    group: "Order",
    name: "GetNewOrder",
    method: "PUT",
    access: "user",
    summary: "Reads the order and its shipment again from Mercado Libre and answers it as stored",
    query: getNewOrderQuery,
    result: orderRow,
    beforeTransaction: (call, { query }) => sync.refreshBeforeTransaction(call, query.id),
    handler: (ctx, { query }) => getOrderRow(ctx, query.id),
  });
  r.call({
    group: "Order",
    name: "GetOrderLabel",
    method: "GET",
    access: "user",
    summary: "The order's shipping label (application/pdf), only when its shipment is ready to ship; a 400 saying why otherwise",
    query: orderIdQuery,
    handler: (ctx, { query }) => sync.label(ctx, query.orderId),
  });
  r.call({
    group: "Order",
    name: "GetMeliOrderInvoice",
    method: "GET",
    access: "user",
    summary: "The order's invoice as Mercado Libre holds it (404 before the order is paid)",
    query: orderIdQuery,
    result: orderInvoice,
    handler: (ctx, { query }) => sync.invoice(ctx, query.orderId),
  });
}
