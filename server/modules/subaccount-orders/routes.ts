// Sub-account package calls (spec §7 SubAccountOrder; Hosted GetHostSubAccountOrders). The spec names no call for the
// host to set packages: CreateOrUpdateSubAccOrderInfo is ours (docs/decisions.md).
import type { Registrar } from "../../http/calls.ts";
import {
  getHostSubAccountOrdersQuery,
  getMySubAccOrderQuery,
  hostSubAccOrderPage,
  mySubAccOrderPage,
  orderSubAccQuery,
  orderSubAccResult,
  saveSubAccPackageInput,
  subAccPackage,
  subAccPackageList,
} from "#shared/contract/subaccount-orders.ts";
import type { SubAccountOrderService } from "./service.ts";

export function registerSubAccountOrders(r: Registrar, { subAccountOrders }: { subAccountOrders: SubAccountOrderService }) {
  r.call({
    group: "SubAccountOrder",
    name: "GetSubAccOrderInfos",
    method: "GET",
    access: "user",
    summary: "The sub-account packages on offer (count, days, price in yuan); the host also sees withdrawn ones",
    result: subAccPackageList,
    handler: (ctx) => subAccountOrders.getPackages(ctx),
  });
  r.call({
    group: "SubAccountOrder",
    name: "CreateOrUpdateSubAccOrderInfo",
    method: "POST",
    access: "host",
    summary: "Creates a sub-account package (no id) or edits one; isActive false withdraws it from offer",
    body: saveSubAccPackageInput,
    result: subAccPackage,
    handler: (ctx, { body }) => subAccountOrders.savePackage(ctx, body),
  });
  r.call({
    group: "SubAccountOrder",
    name: "GetMySubAccOrder",
    method: "GET",
    access: "main",
    summary: "The tenant's package purchases, newest first, and its sub-account allowance and balance",
    query: getMySubAccOrderQuery,
    result: mySubAccOrderPage,
    handler: (ctx, { query }) => subAccountOrders.getMyOrders(ctx, query),
  });
  r.call({
    group: "SubAccountOrder",
    name: "OrderSubAcc",
    method: "POST",
    access: "main",
    idempotent: true,
    movesMoney: true,
    summary: "Buys the package from the wallet balance (403 when it is short): more sub-accounts until the package expires",
    query: orderSubAccQuery,
    result: orderSubAccResult,
    handler: (ctx, { query }) => subAccountOrders.order(ctx, query.id),
  });
  r.call({
    group: "Hosted",
    name: "GetHostSubAccountOrders",
    method: "GET",
    access: "host",
    summary: "Every tenant's package purchases: KeyWord (tenant or package name), Type, IsActive (not expired), paging",
    query: getHostSubAccountOrdersQuery,
    result: hostSubAccOrderPage,
    handler: (ctx, { query }) => subAccountOrders.getHostOrders(ctx, query),
  });
}
