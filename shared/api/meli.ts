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
import { call } from "./define.ts";

export const meliCalls = {
  getAuthUrl: call({
    group: "Meli",
    name: "GetAuthUrl",
    method: "GET",
    access: "user",
    summary: "Mercado Libre's authorization page for connecting shops (state signed, single use, 10 minutes)",
    query: getAuthUrlQuery,
    result: z.string(),
  }),
  /** Answers text/html (no result: a page for the browser), see authBackUrl below. */
  authBack: call({
    group: "Meli",
    name: "AuthBack",
    method: "GET",
    access: "anonymous",
    summary: "Where Mercado Libre sends the seller back: connects the shops and answers an HTML page leading to /#/shops/list",
    query: authBackQuery,
    answersFile: true,
  }),
  meliCallback: call({
    group: "Meli",
    name: "MeliCallback",
    method: "POST",
    access: "anonymous",
    summary: "Mercado Libre's notifications: acknowledged at once, handled by a job",
    body: meliCallbackBody,
    result: meliCallbackResult,
  }),
};

const group = "MeliAccount";

export const meliAccountCalls = {
  getAccounts: call({
    group,
    name: "GetAccounts",
    method: "GET",
    access: "user",
    summary: "Shop accounts: the tenant's for a main account, its own for a sub-account",
    query: getAccountsQuery,
    result: shopAccountPage,
  }),
  getAllSelfShop: call({ group, name: "GetAllSelfShop", method: "GET", access: "user", result: z.array(shopAccount) }),
  getMeliOne: call({ group, name: "GetMeliOne", method: "GET", access: "user", query: getMeliOneQuery, result: shopAccount }),
  getMeliAccGroup: call({ group, name: "GetMeliAccGroup", method: "GET", access: "user", result: accountGroupResponse }),
  getMeliShopIds: call({ group, name: "GetMeliShopIds", method: "GET", access: "user", result: meliShopIds }),
  updateAccount: call({ group, name: "UpdateAccount", method: "POST", access: "user", body: updateAccountInput, result: shopAccount }),
  batchUpdateAccount: call({
    group,
    name: "BatchUpdateAccount",
    method: "POST",
    access: "user",
    body: batchUpdateAccountInput,
    result: accountCountResult,
  }),
  enableAccount: call({
    group,
    name: "EnableAccount",
    method: "POST",
    access: "user",
    body: enableAccountInput,
    result: accountCountResult,
  }),
  assignAccount: call({
    group,
    name: "AssignAccount",
    method: "POST",
    access: "main",
    summary: "Gives shops to a user of the tenant (its limitMeliAccount holds)",
    body: assignAccountInput,
    result: accountCountResult,
  }),
  enableReceiveOrder: call({
    group,
    name: "EnableRecieveOrder",
    method: "POST",
    access: "user",
    query: enableReceiveOrderQuery,
    result: shopAccount,
  }),
};
