// Sub-account package calls (issue 19; spec §7 SubAccountOrder, Hosted GetHostSubAccountOrders;
// contract/subaccount-orders.ts). The spec names no call for the host to set packages: CreateOrUpdateSubAccOrderInfo is
// ours (docs/decisions.md). OrderSubAcc moves money: its Idempotency-Key is required (one per purchase).
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
} from "../contract/subaccount-orders.ts";
import { call } from "./define.ts";

const group = "SubAccountOrder";

export const subAccountOrderCalls = {
  getSubAccOrderInfos: call({
    group,
    name: "GetSubAccOrderInfos",
    method: "GET",
    access: "user",
    summary: "The sub-account packages on offer (count, days, price in yuan); the host also sees withdrawn ones",
    result: subAccPackageList,
  }),
  createOrUpdateSubAccOrderInfo: call({
    group,
    name: "CreateOrUpdateSubAccOrderInfo",
    method: "POST",
    access: "host",
    summary: "Creates a sub-account package (no id) or edits one; isActive false withdraws it from offer",
    body: saveSubAccPackageInput,
    result: subAccPackage,
  }),
  getMySubAccOrder: call({
    group,
    name: "GetMySubAccOrder",
    method: "GET",
    access: "main",
    summary: "The tenant's package purchases, newest first, and its sub-account allowance and balance",
    query: getMySubAccOrderQuery,
    result: mySubAccOrderPage,
  }),
  orderSubAcc: call({
    group,
    name: "OrderSubAcc",
    method: "POST",
    access: "main",
    idempotent: true,
    movesMoney: true,
    summary: "Buys the package from the wallet balance (403 when it is short): more sub-accounts until the package expires",
    query: orderSubAccQuery,
    result: orderSubAccResult,
  }),
  getHostSubAccountOrders: call({
    group: "Hosted",
    name: "GetHostSubAccountOrders",
    method: "GET",
    access: "host",
    summary: "Every tenant's package purchases: KeyWord (tenant or package name), Type, IsActive (not expired), paging",
    query: getHostSubAccountOrdersQuery,
    result: hostSubAccOrderPage,
  }),
};
