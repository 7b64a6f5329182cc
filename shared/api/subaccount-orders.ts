// Sub-account package calls (issue 19; spec §7 SubAccountOrder, Hosted GetHostSubAccountOrders;
// contract/subaccount-orders.ts). OrderSubAcc moves money: it is idempotent (one Idempotency-Key per purchase).
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
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const subAccountOrderCalls = {
  getSubAccOrderInfos: call({ method: "GET", path: "/api/SubAccountOrder/GetSubAccOrderInfos", result: subAccPackageList }),
  /** Host only: a new package without id, an edit with it. */
  createOrUpdateSubAccOrderInfo: call({
    method: "POST",
    path: "/api/SubAccountOrder/CreateOrUpdateSubAccOrderInfo",
    body: saveSubAccPackageInput,
    result: subAccPackage,
  }),
  getMySubAccOrder: call({
    method: "GET",
    path: "/api/SubAccountOrder/GetMySubAccOrder",
    query: getMySubAccOrderQuery,
    result: mySubAccOrderPage,
  }),
  orderSubAcc: call({
    method: "POST",
    path: "/api/SubAccountOrder/OrderSubAcc",
    idempotent: true,
    query: orderSubAccQuery,
    result: orderSubAccResult,
  }),
  /** Host only. */
  getHostSubAccountOrders: call({
    method: "GET",
    path: "/api/Hosted/GetHostSubAccountOrders",
    query: getHostSubAccountOrdersQuery,
    result: hostSubAccOrderPage,
  }),
};

export const createSubAccountOrderApi = (client: ApiClient) => bindCalls(client, subAccountOrderCalls);
export type SubAccountOrderApi = ReturnType<typeof createSubAccountOrderApi>;
