// The shop centre's calls, declared in shared/api/meli.ts (spec §7 Meli, MeliAccount): connecting shops through Mercado
// Libre's authorization, the notification endpoint, and the shop accounts and account groups.
import type { Tx } from "../../db/client.ts";
import type { Registrar } from "../../http/calls.ts";
import { meliAccountCalls, meliCalls } from "#shared/api/meli.ts";
import type { ShopAccountService } from "./accounts.ts";
import type { ShopAuthorizationService } from "./auth-service.ts";
import type { NotificationService } from "./notifications.ts";

export type MeliServices = {
  shopAccounts: ShopAccountService;
  shopAuthorization: ShopAuthorizationService;
  meliNotifications: NotificationService;
  /** The listings' margin recompute (listings/margin-job.ts), told of shops whose pricing rule was saved. */
  margins: { changed(tx: Tx, change: { reason: "rule"; tenantId: string; accountIds: string[] }): Promise<unknown> };
};

export function registerMeli(r: Registrar, { shopAccounts, shopAuthorization, meliNotifications, margins }: MeliServices) {
  const ruleChanged = (tx: Tx, tenantId: string, accountIds: string[]) => margins.changed(tx, { reason: "rule", tenantId, accountIds });
  r.handle(meliCalls.getAuthUrl, { handler: (ctx, { query }) => shopAuthorization.getAuthUrl(ctx, query) });
  // Answers an HTML page, not JSON (an AfterCommit): no declared result.
  r.handle(meliCalls.authBack, { handler: (ctx, { query }) => shopAuthorization.authBack(ctx, query) });
  r.handle(meliCalls.meliCallback, { handler: (ctx, { body }) => meliNotifications.meliCallback(ctx, body) });

  const calls = meliAccountCalls;
  r.handle(calls.getAccounts, { handler: (ctx, { query }) => shopAccounts.getAccounts(ctx, query) });
  r.handle(calls.getAllSelfShop, { handler: (ctx) => shopAccounts.getAllSelfShop(ctx) });
  r.handle(calls.getMeliOne, { handler: (ctx, { query }) => shopAccounts.getMeliOne(ctx, query) });
  r.handle(calls.getMeliAccGroup, { handler: (ctx) => shopAccounts.getAccountGroups(ctx) });
  r.handle(calls.getMeliShopIds, { handler: (ctx) => shopAccounts.getMeliShopIds(ctx) });
  r.handle(calls.updateAccount, { handler: (ctx, { body }) => shopAccounts.updateAccount(ctx, body, ruleChanged) });
  r.handle(calls.batchUpdateAccount, { handler: (ctx, { body }) => shopAccounts.batchUpdateAccount(ctx, body, ruleChanged) });
  r.handle(calls.enableAccount, { handler: (ctx, { body }) => shopAccounts.enableAccount(ctx, body) });
  r.handle(calls.assignAccount, { handler: (ctx, { body }) => shopAccounts.assignAccount(ctx, body) });
  r.handle(calls.enableReceiveOrder, { handler: (ctx, { query }) => shopAccounts.enableReceiveOrder(ctx, query) });
}
