// The order calls (spec §7 Order), declared in shared/api/orders.ts: the list and its tabs, FetchOrders (a task),
// GetNewOrder (one order read again), the label PDF and the invoice.
import type { Registrar } from "../../http/calls.ts";
import type { Services } from "../../deps.ts";
import { orderCalls as calls } from "#shared/api/orders.ts";
import { getMeliOrderGroupInfo, getOrderRow, getOrders } from "./list.ts";
import { getPurchaseList, setPurchase } from "./purchase.ts";
import { getOrderSources } from "./order-sources.ts";

export function registerOrders(r: Registrar, services: Services) {
  const sync = services.orderSync;
  r.handle(calls.getMeliOrderGroupInfo, { handler: (ctx, { query }) => getMeliOrderGroupInfo(ctx, query) });
  r.handle(calls.getOrders, { handler: (ctx, { query }) => getOrders(ctx, query) });
  r.handle(calls.fetchOrders, { handler: (ctx, { query }) => sync.fetchOrders(ctx, query) });
  r.handle(calls.getNewOrder, {
    beforeTransaction: (call, { query }) => sync.refreshBeforeTransaction(call, query.id),
    handler: (ctx, { query }) => getOrderRow(ctx, query.id),
  });
  // The label PDF is written after the transaction (AfterCommit), so its declaration has no result.
  r.handle(calls.getOrderLabel, { handler: (ctx, { query }) => sync.label(ctx, query.orderId) });
  r.handle(calls.getMeliOrderInvoice, { handler: (ctx, { query }) => sync.invoice(ctx, query.orderId) });
  // 批量打单 (print-labels.ts): a task, then its PDF (written after the transaction, as the label).
  r.handle(calls.printLabels, { handler: (ctx, { body }) => services.orderLabels.printLabels(ctx, body) });
  r.handle(calls.downloadPrintedLabels, { handler: (ctx, { query }) => services.orderLabels.downloadPrintedLabels(ctx, query.taskId) });
  // The source behind every order (issue 32): sources.ts, purchase.ts, purchase-export.ts.
  r.handle(calls.getOrderSources, { handler: (ctx, { query }) => getOrderSources(ctx, query.orderId) });
  r.handle(calls.getPurchaseList, { handler: (ctx, { body }) => getPurchaseList(ctx, body) });
  r.handle(calls.setPurchase, { handler: (ctx, { body }) => setPurchase(ctx, body) });
  r.handle(calls.exportPurchaseList, { handler: (ctx, { body }) => services.orderPurchases.exportPurchaseList(ctx, body) });
  r.handle(calls.downloadPurchaseListExport, {
    handler: (ctx, { query }) => services.orderPurchases.downloadPurchaseListExport(ctx, query.taskId),
  });
}
