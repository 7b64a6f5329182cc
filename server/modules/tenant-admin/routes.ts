// The host's maintenance of tenants, declared in shared/api/tenant-admin.ts.
import type { Registrar } from "../../http/calls.ts";
import { tenantAdminCalls as calls } from "#shared/api/tenant-admin.ts";
import type { TenantAdminService } from "./service.ts";

export function registerTenantAdmin(r: Registrar, { tenantAdmin }: { tenantAdmin: TenantAdminService }) {
  r.handle(calls.returnDelProduct, { handler: (ctx, { query }) => tenantAdmin.returnDelProduct(ctx, query) });
  r.handle(calls.removeAllDelProduct, { handler: (ctx, { query }) => tenantAdmin.removeAllDelProduct(ctx, query) });
  r.handle(calls.clearMeliStat, { handler: (ctx, { query }) => tenantAdmin.clearMeliStat(ctx, query) });
  r.handle(calls.clearTenantInfo, { handler: (ctx, { query }) => tenantAdmin.clearTenantInfo(ctx, query) });
  r.handle(calls.removeTenantCache, { handler: (ctx, { query }) => tenantAdmin.removeTenantCache(ctx, query) });
  r.handle(calls.removeDist, { handler: (ctx) => tenantAdmin.removeDist(ctx) });
  r.handle(calls.createTenantMongoIndex, { handler: (ctx, { query }) => tenantAdmin.createTenantMongoIndex(ctx, query.TenantId) });
  r.handle(calls.getStatLogStatics, { handler: (ctx, { body }) => tenantAdmin.getStatLogStatics(ctx, body) });
  r.handle(calls.getTenantStatisticsInfo, { handler: (ctx, { query }) => tenantAdmin.getTenantStatisticsInfo(ctx, query) });
}
