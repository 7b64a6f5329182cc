// Freight rule calls (spec §7 MeliOther PullMeliFreight, GetMeliFreights).
import type { Registrar } from "../../http/calls.ts";
import { freightRulePage, getMeliFreightsQuery, pullMeliFreightQuery, pullMeliFreightResult } from "#shared/contract/freight.ts";
import type { MeliSiteNumber } from "#shared/contract/meli.ts";
import type { FreightService } from "./service.ts";

export function registerFreight(r: Registrar, { freight }: { freight: FreightService }) {
  r.call({
    group: "MeliOther",
    name: "PullMeliFreight",
    method: "POST",
    access: "main",
    summary:
      "Quotes the site's freight table (weight bands) on Mercado Libre with one of the tenant's shops of that site and replaces the tenant's freight rules of that site",
    query: pullMeliFreightQuery,
    result: pullMeliFreightResult,
    beforeTransaction: (call, { query }) => freight.fetchTable(call.req, call.tenantId, query.site as MeliSiteNumber),
    handler: (ctx, { query }) => freight.storeTable(ctx, query.site as MeliSiteNumber),
  });
  r.call({
    group: "MeliOther",
    name: "GetMeliFreights",
    method: "GET",
    access: "user",
    summary: "The tenant's freight rules (grams over start, up to end), by site and weight unless sorted otherwise",
    query: getMeliFreightsQuery,
    result: freightRulePage,
    handler: (ctx, { query }) => freight.getMeliFreights(ctx, query),
  });
}
