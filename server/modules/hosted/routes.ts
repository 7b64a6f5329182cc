// Host administration calls, declared in shared/api/hosted.ts.
import type { Registrar } from "../../http/calls.ts";
import { hostedCalls as calls } from "#shared/api/hosted.ts";
import type { HostedService } from "./service.ts";

export function registerHosted(r: Registrar, { hosted }: { hosted: HostedService }) {
  r.handle(calls.openTenantAccount, { handler: (ctx, { body }) => hosted.openTenantAccount(ctx, body) });
  r.handle(calls.getTenants, { handler: (ctx, { query }) => hosted.getTenants(ctx, query) });
  r.handle(calls.getAllTenants, { handler: (ctx) => hosted.getAllTenants(ctx) });
  r.handle(calls.editRemark, { handler: (ctx, { query }) => hosted.editRemark(ctx, query) });
  r.handle(calls.getTenantNameBySearch, { handler: (ctx, { query }) => hosted.getTenantNameBySearch(ctx, query.search) });
  r.handle(calls.unLockTenant, { handler: (ctx, { query }) => hosted.unlockTenant(ctx, query) });
  r.handle(calls.resetTenantPassword, { handler: (ctx, { query }) => hosted.resetTenantPassword(ctx, query) });
  r.handle(calls.getTenantUserInfo, { handler: (ctx, { query }) => hosted.getTenantUserInfo(ctx, query.TenantId) });
}
