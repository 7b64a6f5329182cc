// Order calls (spec §7 Order; contract/orders.ts). fetchOrders answers a task at once (the task centre and the live
// task events show its progress). GetOrderLabel answers the label PDF itself (not JSON), so the client gives its
// address: fetch it with the same Authorization (and __tenant) headers as every call and save the body (a blob); a
// label not ready to ship answers the usual error envelope (400 with a Chinese message) instead.
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
} from "../contract/orders.ts";
import type { ApiClient } from "./client.ts";
import { bindCall, call, type InputOf } from "./define.ts";

export const orderCalls = {
  getMeliOrderGroupInfo: call({
    method: "GET",
    path: "/api/Order/GetMeliOrderGroupInfo",
    query: getMeliOrderGroupInfoQuery,
    result: orderGroupInfo,
  }),
  getOrders: call({ method: "GET", path: "/api/Order/GetOrders", query: getOrdersQuery, result: orderPage }),
  fetchOrders: call({ method: "GET", path: "/api/Order/FetchOrders", query: fetchOrdersQuery, result: fetchOrdersResult }),
  getNewOrder: call({ method: "PUT", path: "/api/Order/GetNewOrder", query: getNewOrderQuery, result: orderRow }),
  /** Answers application/pdf, not JSON: see getOrderLabel below. */
  getOrderLabel: call({ method: "GET", path: "/api/Order/GetOrderLabel", query: orderIdQuery }),
  getMeliOrderInvoice: call({ method: "GET", path: "/api/Order/GetMeliOrderInvoice", query: orderIdQuery, result: orderInvoice }),
};

export const createOrderApi = (client: ApiClient) => ({
  getMeliOrderGroupInfo: bindCall(client, orderCalls.getMeliOrderGroupInfo),
  getOrders: bindCall(client, orderCalls.getOrders),
  fetchOrders: bindCall(client, orderCalls.fetchOrders),
  getNewOrder: bindCall(client, orderCalls.getNewOrder),
  /** The label's address (the PDF needs the bearer token: fetch it, do not navigate to it). */
  getOrderLabel: (input: InputOf<typeof orderIdQuery>) => client.url(orderCalls.getOrderLabel.path, { orderId: input.orderId }),
  getMeliOrderInvoice: bindCall(client, orderCalls.getMeliOrderInvoice),
});
export type OrderApi = ReturnType<typeof createOrderApi>;
