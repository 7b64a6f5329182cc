// Freight rule calls (spec §7 MeliOther PullMeliFreight, GetMeliFreights).
import { freightRulePage, getMeliFreightsQuery, pullMeliFreightQuery, pullMeliFreightResult } from "../contract/freight.ts";
import { call } from "./define.ts";

const group = "MeliOther";

export const meliOtherCalls = {
  pullMeliFreight: call({
    group,
    name: "PullMeliFreight",
    method: "POST",
    access: "main",
    summary:
      "Quotes the site's freight table (weight bands) on Mercado Libre with one of the tenant's shops of that site and replaces the tenant's freight rules of that site",
    query: pullMeliFreightQuery,
    result: pullMeliFreightResult,
  }),
  getMeliFreights: call({
    group,
    name: "GetMeliFreights",
    method: "GET",
    access: "user",
    summary: "The tenant's freight rules (grams over start, up to end), by site and weight unless sorted otherwise",
    query: getMeliFreightsQuery,
    result: freightRulePage,
  }),
};
