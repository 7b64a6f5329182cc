// Moving and copying between tenants, declared in shared/api/tenant-transfer.ts (Hosted and Product calls, host-only).
import type { Registrar } from "../../http/calls.ts";
import { hostedTransferCalls as hosted, productTransferCalls as product } from "#shared/api/tenant-transfer.ts";
import type { TenantTransferService } from "./service.ts";

export function registerTenantTransfer(r: Registrar, { tenantTransfer: t }: { tenantTransfer: TenantTransferService }) {
  r.handle(hosted.getTenantMeliAccountInfo, { handler: (ctx, { body }) => t.getTenantMeliAccountInfo(ctx, body) });
  r.handle(hosted.migrateAccount, { handler: (ctx, { body }) => t.migrateAccount(ctx, body) });
  r.handle(hosted.removeMeliAccount, { handler: (ctx, { body }) => t.removeMeliAccount(ctx, body) });
  r.handle(hosted.copyProductsToTenant, { handler: (ctx, { query }) => t.copyProductsToTenant(ctx, query) });
  r.handle(hosted.copyCollectsToTenant, { handler: (ctx, { query }) => t.copyCollectsToTenant(ctx, query) });
  r.handle(hosted.copyGroupsToTenant, { handler: (ctx, { query }) => t.copyGroupsToTenant(ctx, query) });
  r.handle(hosted.migrateWord, { handler: (ctx, { query }) => t.migrateWord(ctx, query) });
  r.handle(product.migrateToProduct, { handler: (ctx, { body }) => t.migrateToProduct(ctx, body) });
  r.handle(product.migrateFromProduct, { handler: (ctx, { query }) => t.migrateFromProduct(ctx, query) });
}
