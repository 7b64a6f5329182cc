// The shop centre's calls (spec §7 Meli, MeliAccount): connecting shops through Mercado Libre's authorization, the
// notification endpoint, and the shop accounts and account groups.
import { z } from "zod";
import type { AppDeps } from "../../app.ts";
import type { Registrar } from "../../http/calls.ts";
import {
  accountCountResult,
  accountGroupResponse,
  assignAccountInput,
  authBackQuery,
  batchUpdateAccountInput,
  enableAccountInput,
  enableRecieveOrderQuery,
  getAccountsQuery,
  getAuthUrlQuery,
  getMeliOneQuery,
  meliCallbackBody,
  meliCallbackResult,
  meliShopIds,
  shopAccount,
  shopAccountPage,
  updateAccountInput,
} from "../../../shared/contract/meli.ts";
import * as accounts from "./accounts.ts";
import { authBack, getAuthUrl } from "./auth.ts";
import { registerMeliExtensions } from "./extensions.ts";
import { meliCallback, registerNotificationJob } from "./notifications.ts";

export function registerMeli(r: Registrar, deps: AppDeps) {
  registerMeliExtensions();
  registerNotificationJob(deps);

  r.call({
    group: "Meli",
    name: "GetAuthUrl",
    method: "GET",
    access: "user",
    summary: "Mercado Libre's authorization page for connecting shops (state signed, single use, 10 minutes)",
    query: getAuthUrlQuery,
    result: z.string(),
    handler: (ctx, { query }) => getAuthUrl(ctx, query),
  });
  r.call({
    group: "Meli",
    name: "AuthBack",
    method: "GET",
    access: "anonymous",
    summary: "Where Mercado Libre sends the seller back: connects the shops and answers an HTML page leading to /#/shops/list",
    query: authBackQuery,
    handler: (ctx, { query }) => authBack(ctx, query),
  });
  r.call({
    group: "Meli",
    name: "MeliCallback",
    method: "POST",
    access: "anonymous",
    summary: "Mercado Libre's notifications: acknowledged at once, handled by a job",
    body: meliCallbackBody,
    result: meliCallbackResult,
    handler: (ctx, { body }) => meliCallback(ctx, body),
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
    handler: (ctx, { query }) => accounts.getAccounts(ctx, query),
  });
  r.call({
    group,
    name: "GetAllSelfShop",
    method: "GET",
    access: "user",
    result: z.array(shopAccount),
    handler: (ctx) => accounts.getAllSelfShop(ctx),
  });
  r.call({
    group,
    name: "GetMeliOne",
    method: "GET",
    access: "user",
    query: getMeliOneQuery,
    result: shopAccount,
    handler: (ctx, { query }) => accounts.getMeliOne(ctx, query.id),
  });
  r.call({
    group,
    name: "GetMeliAccGroup",
    method: "GET",
    access: "user",
    result: accountGroupResponse,
    handler: (ctx) => accounts.accountGroups(ctx.tx, ctx.user!),
  });
  r.call({
    group,
    name: "GetMeliShopIds",
    method: "GET",
    access: "user",
    result: meliShopIds,
    handler: (ctx) => accounts.getMeliShopIds(ctx),
  });
  r.call({
    group,
    name: "UpdateAccount",
    method: "POST",
    access: "user",
    body: updateAccountInput,
    result: shopAccount,
    handler: (ctx, { body }) => accounts.updateAccount(ctx, body),
  });
  r.call({
    group,
    name: "BatchUpdateAccount",
    method: "POST",
    access: "user",
    body: batchUpdateAccountInput,
    result: accountCountResult,
    handler: (ctx, { body }) => accounts.batchUpdateAccount(ctx, body),
  });
  r.call({
    group,
    name: "EnableAccount",
    method: "POST",
    access: "user",
    body: enableAccountInput,
    result: accountCountResult,
    handler: (ctx, { body }) => accounts.enableAccount(ctx, body),
  });
  r.call({
    group,
    name: "AssignAccount",
    method: "POST",
    access: "main",
    summary: "Gives shops to a user of the tenant (its limitMeliAccount holds)",
    body: assignAccountInput,
    result: accountCountResult,
    handler: (ctx, { body }) => accounts.assignAccount(ctx, body),
  });
  r.call({
    group,
    name: "EnableRecieveOrder",
    method: "POST",
    access: "user",
    query: enableRecieveOrderQuery,
    result: shopAccount,
    handler: (ctx, { query }) => accounts.enableRecieveOrder(ctx, query.Id, query.Enable),
  });
}
