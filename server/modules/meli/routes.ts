// The shop centre's calls (spec §7 Meli, MeliAccount): connecting shops through Mercado Libre's authorization, the
// notification endpoint, and the shop accounts and account groups.
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
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
} from "#shared/contract/meli.ts";
import type { ShopAccountService } from "./accounts.ts";
import type { ShopAuthorizationService } from "./auth-service.ts";
import type { NotificationService } from "./notifications.ts";

export type MeliServices = {
  shopAccounts: ShopAccountService;
  shopAuthorization: ShopAuthorizationService;
  meliNotifications: NotificationService;
};

export function registerMeli(r: Registrar, { shopAccounts, shopAuthorization, meliNotifications }: MeliServices) {
  r.call({
    group: "Meli",
    name: "GetAuthUrl",
    method: "GET",
    access: "user",
    summary: "Mercado Libre's authorization page for connecting shops (state signed, single use, 10 minutes)",
    query: getAuthUrlQuery,
    result: z.string(),
    handler: (ctx, { query }) => shopAuthorization.getAuthUrl(ctx, query),
  });
  r.call({
    group: "Meli",
    name: "AuthBack",
    method: "GET",
    access: "anonymous",
    summary: "Where Mercado Libre sends the seller back: connects the shops and answers an HTML page leading to /#/shops/list",
    query: authBackQuery,
    handler: (ctx, { query }) => shopAuthorization.authBack(ctx, query),
  });
  r.call({
    group: "Meli",
    name: "MeliCallback",
    method: "POST",
    access: "anonymous",
    summary: "Mercado Libre's notifications: acknowledged at once, handled by a job",
    body: meliCallbackBody,
    result: meliCallbackResult,
    handler: (ctx, { body }) => meliNotifications.meliCallback(ctx, body),
  });

  const group = "MeliAccount";
  r.call({
    group,
    name: "GetAccounts",
    method: "GET",
    access: "user",
    summary: "Shop accounts: the tenant's for a main account, its own for a sub-account",
    query: getAccountsQuery,
    result: shopAccountPage,
    handler: (ctx, { query }) => shopAccounts.getAccounts(ctx, query),
  });
  r.call({
    group,
    name: "GetAllSelfShop",
    method: "GET",
    access: "user",
    result: z.array(shopAccount),
    handler: (ctx) => shopAccounts.getAllSelfShop(ctx),
  });
  r.call({
    group,
    name: "GetMeliOne",
    method: "GET",
    access: "user",
    query: getMeliOneQuery,
    result: shopAccount,
    handler: (ctx, { query }) => shopAccounts.getMeliOne(ctx, query),
  });
  r.call({
    group,
    name: "GetMeliAccGroup",
    method: "GET",
    access: "user",
    result: accountGroupResponse,
    handler: (ctx) => shopAccounts.getAccountGroups(ctx),
  });
  r.call({
    group,
    name: "GetMeliShopIds",
    method: "GET",
    access: "user",
    result: meliShopIds,
    handler: (ctx) => shopAccounts.getMeliShopIds(ctx),
  });
  r.call({
    group,
    name: "UpdateAccount",
    method: "POST",
    access: "user",
    body: updateAccountInput,
    result: shopAccount,
    handler: (ctx, { body }) => shopAccounts.updateAccount(ctx, body),
  });
  r.call({
    group,
    name: "BatchUpdateAccount",
    method: "POST",
    access: "user",
    body: batchUpdateAccountInput,
    result: accountCountResult,
    handler: (ctx, { body }) => shopAccounts.batchUpdateAccount(ctx, body),
  });
  r.call({
    group,
    name: "EnableAccount",
    method: "POST",
    access: "user",
    body: enableAccountInput,
    result: accountCountResult,
    handler: (ctx, { body }) => shopAccounts.enableAccount(ctx, body),
  });
  r.call({
    group,
    name: "AssignAccount",
    method: "POST",
    access: "main",
    summary: "Gives shops to a user of the tenant (its limitMeliAccount holds)",
    body: assignAccountInput,
    result: accountCountResult,
    handler: (ctx, { body }) => shopAccounts.assignAccount(ctx, body),
  });
  r.call({
    group,
    name: "EnableRecieveOrder",
    method: "POST",
    access: "user",
    query: enableReceiveOrderQuery,
    result: shopAccount,
    handler: (ctx, { query }) => shopAccounts.enableReceiveOrder(ctx, query),
  });
}
