// Sub-account package calls (spec §7 SubAccountOrder; Hosted GetHostSubAccountOrders), declared in
// shared/api/subaccount-orders.ts.
import type { Registrar } from "../../http/calls.ts";
import { subAccountOrderCalls as calls } from "#shared/api/subaccount-orders.ts";
import type { SubAccountOrderService } from "./service.ts";

export function registerSubAccountOrders(r: Registrar, { subAccountOrders }: { subAccountOrders: SubAccountOrderService }) {
  r.handle(calls.getSubAccOrderInfos, { handler: (ctx) => subAccountOrders.getPackages(ctx) });
  r.handle(calls.createOrUpdateSubAccOrderInfo, { handler: (ctx, { body }) => subAccountOrders.savePackage(ctx, body) });
  r.handle(calls.getMySubAccOrder, { handler: (ctx, { query }) => subAccountOrders.getMyOrders(ctx, query) });
  r.handle(calls.orderSubAcc, { handler: (ctx, { query }) => subAccountOrders.order(ctx, query.id) });
  r.handle(calls.getHostSubAccountOrders, { handler: (ctx, { query }) => subAccountOrders.getHostOrders(ctx, query) });
}
