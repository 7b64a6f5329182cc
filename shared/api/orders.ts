// Order calls (spec §7 Order; contract/orders.ts). fetchOrders answers a task at once (the task centre and the live
// task events show its progress). GetOrderLabel answers the label PDF itself (not JSON), so the client gives its
// address: fetch it with the same Authorization (and __tenant) headers as every call and save the body (a blob); a
// label not ready to ship answers the usual error envelope (400 with a Chinese message) instead.
import {
  fetchOrdersQuery,
  fetchOrdersResult,
  getNewOrderQuery,
  getOrdersQuery,
  orderFilterQuery,
  orderGroupInfo,
  orderIdQuery,
  orderInvoice,
  orderPage,
  orderRow,
} from "../contract/orders.ts";
import { printedLabelsQuery, printLabelsInput, printLabelsResult } from "../contract/order-labels.ts";
import {
  downloadPurchaseListQuery,
  exportPurchaseListInput,
  exportPurchaseListResult,
  orderSources,
  purchaseList,
  purchaseListInput,
  setPurchaseInput,
  setPurchaseResult,
} from "../contract/order-sources.ts";
import { call } from "./define.ts";

const group = "Order";

export const orderCalls = {
  getMeliOrderGroupInfo: call({
    group,
    name: "GetMeliOrderGroupInfo",
    method: "GET",
    access: "user",
    summary: "Counts of the caller's orders per status, site and shop group for the list's tabs, each with every filter but its own",
    // The list's filter: its status, site and group are each ignored by the tabs counting by them.
    query: orderFilterQuery,
    result: orderGroupInfo,
  }),
  getOrders: call({
    group,
    name: "GetOrders",
    method: "GET",
    access: "user",
    summary:
      "Orders of the caller's shops (a sub-account: the shops given to it), filtered and sorted; newest first; the count stops at 1,000",
    query: getOrdersQuery,
    result: orderPage,
  }),
  fetchOrders: call({
    group,
    name: "FetchOrders",
    method: "GET",
    access: "user",
    summary:
      "Pulls the orders bought in [StartTime, EndTime) (default the last 7 days) of one shop group or every shop the caller sees that receives orders: answers the task at once",
    query: fetchOrdersQuery,
    result: fetchOrdersResult,
  }),
  getNewOrder: call({
    group,
    name: "GetNewOrder",
    method: "PUT",
    access: "user",
    summary: "Reads the order and its shipment again from Mercado Libre and answers it as stored",
    query: getNewOrderQuery,
    result: orderRow,
  }),
  /** Answers application/pdf, not JSON, so it declares no result: the client's function gives the label's address. */
  getOrderLabel: call({
    group,
    name: "GetOrderLabel",
    method: "GET",
    access: "user",
    summary: "The order's shipping label (application/pdf), only when its shipment is ready to ship; a 400 saying why otherwise",
    query: orderIdQuery,
    answersFile: true,
  }),
  getMeliOrderInvoice: call({
    group,
    name: "GetMeliOrderInvoice",
    method: "GET",
    access: "user",
    summary: "The order's invoice as Mercado Libre holds it (404 before the order is paid)",
    query: orderIdQuery,
    result: orderInvoice,
  }),
  // 批量打单 (issue 32; contract/order-labels.ts).
  printLabels: call({
    group,
    name: "PrintLabels",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "One PDF of the ready-to-ship orders' labels (orderIds or the list's filter), in packing order behind a packing list: answers the task at once; the orders' shipments are marked printed",
    body: printLabelsInput,
    result: printLabelsResult,
  }),
  /** Answers application/pdf, not JSON: the client's function gives the file's address (as GetOrderLabel). */
  downloadPrintedLabels: call({
    group,
    name: "DownloadPrintedLabels",
    method: "GET",
    access: "user",
    summary: "The finished PrintLabels task's PDF (the task's creator only), for 7 days",
    query: printedLabelsQuery,
    answersFile: true,
  }),
  // The source behind every order (issue 32; contract/order-sources.ts).
  getOrderSources: call({
    group,
    name: "GetOrderSources",
    method: "GET",
    access: "user",
    summary:
      "The order's lines with the product and collected source each came from (offer, variant, price when collected and last known), their purchases, and the margin at the sources' last known prices",
    query: orderIdQuery,
    result: orderSources,
  }),
  getPurchaseList: call({
    group,
    name: "GetPurchaseList",
    method: "POST",
    access: "user",
    summary:
      "采购单: what to buy for the orders matching the list's filter (without a status: ready to ship), by source shop, one line per offer and variant with its quantity summed",
    body: purchaseListInput,
    result: purchaseList,
  }),
  setPurchase: call({
    group,
    name: "SetPurchase",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Marks an order line bought with its cost (all its quantity; currency default CNY) and the purchase order's number, or clears the mark (cost null); the cost counts in the order's profit",
    body: setPurchaseInput,
    result: setPurchaseResult,
  }),
  exportPurchaseList: call({
    group,
    name: "ExportPurchaseList",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Exports the purchase list of the filter (as GetPurchaseList) to xlsx as a background task; answers {taskId}, then DownloadPurchaseListExport",
    body: exportPurchaseListInput,
    result: exportPurchaseListResult,
  }),
  /** Answers the xlsx file, not JSON (so no result). */
  downloadPurchaseListExport: call({
    group,
    name: "DownloadPurchaseListExport",
    method: "GET",
    access: "user",
    summary: "The finished purchase list export's xlsx file (the task's creator only), for 7 days",
    query: downloadPurchaseListQuery,
    answersFile: true,
  }),
};
