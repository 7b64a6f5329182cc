// Freight rule calls, declared in shared/api/freight.ts (spec §7 MeliOther PullMeliFreight, GetMeliFreights).
import type { Registrar } from "../../http/calls.ts";
import { meliOtherCalls as calls } from "#shared/api/freight.ts";
import type { MeliSiteNumber } from "#shared/contract/meli.ts";
import type { FreightService } from "./service.ts";

export function registerFreight(r: Registrar, { freight }: { freight: FreightService }) {
  r.handle(calls.pullMeliFreight, {
    beforeTransaction: (call, { query }) => freight.fetchTable(call.req, call.tenantId, query.site as MeliSiteNumber),
    handler: (ctx, { query }) => freight.storeTable(ctx, query.site as MeliSiteNumber),
  });
  r.handle(calls.getMeliFreights, { handler: (ctx, { query }) => freight.getMeliFreights(ctx, query) });
}
