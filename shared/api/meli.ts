// Shop centre calls (spec §7 Meli, MeliAccount). Connecting a shop: getAuthUrl({ uid?, sites }) answers Mercado Libre's
// authorization page; open it (a new window, or this one). Mercado Libre sends the seller back to AuthBack, which
// answers a page, not JSON: it leads to /#/shops/list?auth=success|failed&reason=&message=&groupId=&added=&updated=,
// and, when the page was opened by the console with window.open, first posts {type: "meli-auth", ok, reason, message,
// groupId, url} to the opener and closes. MeliCallback is Mercado Libre's notification endpoint (the server's, not
// the console's), declared here so the client and the server list the same calls.
import { z } from "zod";
import {
  accountCountResult,
  accountGroupResponse,
  assignAccountInput,
  authBackQuery,
  batchUpdateAccountInput,
  enableAccountInput,
  enableReceiveOrderQuery,
  getAccountsQuery,
  getAuthUrlQuery,
  getMeliOneQuery,
  meliCallbackBody,
  meliCallbackResult,
  meliShopIds,
  shopAccount,
  shopAccountPage,
  updateAccountInput,
} from "../contract/meli.ts";
import type { ApiClient } from "./client.ts";
import { bindCall, bindCalls, call, type InputOf } from "./define.ts";

export const meliCalls = {
  getAuthUrl: call({ method: "GET", path: "/api/Meli/GetAuthUrl", query: getAuthUrlQuery, result: z.string() }),
  /** Answers text/html: see authBackUrl below. */
  authBack: call({ method: "GET", path: "/api/Meli/AuthBack", query: authBackQuery }),
  meliCallback: call({ method: "POST", path: "/api/Meli/MeliCallback", body: meliCallbackBody, result: meliCallbackResult }),
};

export const meliAccountCalls = {
  getAccounts: call({ method: "GET", path: "/api/MeliAccount/GetAccounts", query: getAccountsQuery, result: shopAccountPage }),
  getAllSelfShop: call({ method: "GET", path: "/api/MeliAccount/GetAllSelfShop", result: z.array(shopAccount) }),
  getMeliOne: call({ method: "GET", path: "/api/MeliAccount/GetMeliOne", query: getMeliOneQuery, result: shopAccount }),
  getMeliAccGroup: call({ method: "GET", path: "/api/MeliAccount/GetMeliAccGroup", result: accountGroupResponse }),
  getMeliShopIds: call({ method: "GET", path: "/api/MeliAccount/GetMeliShopIds", result: meliShopIds }),
  updateAccount: call({ method: "POST", path: "/api/MeliAccount/UpdateAccount", body: updateAccountInput, result: shopAccount }),
  batchUpdateAccount: call({
    method: "POST",
    path: "/api/MeliAccount/BatchUpdateAccount",
    body: batchUpdateAccountInput,
    result: accountCountResult,
  }),
  enableAccount: call({ method: "POST", path: "/api/MeliAccount/EnableAccount", body: enableAccountInput, result: accountCountResult }),
  assignAccount: call({ method: "POST", path: "/api/MeliAccount/AssignAccount", body: assignAccountInput, result: accountCountResult }),
  enableReceiveOrder: call({
    method: "POST",
    path: "/api/MeliAccount/EnableRecieveOrder",
    query: enableReceiveOrderQuery,
    result: shopAccount,
  }),
};

export const createMeliApi = (client: ApiClient) => ({
  getAuthUrl: bindCall(client, meliCalls.getAuthUrl),
  meliCallback: bindCall(client, meliCalls.meliCallback),
  /** AuthBack's address (Mercado Libre navigates the seller there; nothing fetches it). */
  authBackUrl: (input: InputOf<typeof authBackQuery>) => client.url(meliCalls.authBack.path, input),
});
export type MeliApi = ReturnType<typeof createMeliApi>;

export const createMeliAccountApi = (client: ApiClient) => bindCalls(client, meliAccountCalls);
export type MeliAccountApi = ReturnType<typeof createMeliAccountApi>;
