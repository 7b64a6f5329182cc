// Freight rule calls (spec §7 MeliOther).
import { freightRulePage, getMeliFreightsQuery, pullMeliFreightQuery, pullMeliFreightResult } from "../contract/freight.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const meliOtherCalls = {
  pullMeliFreight: call({
    method: "POST",
    path: "/api/MeliOther/PullMeliFreight",
    query: pullMeliFreightQuery,
    result: pullMeliFreightResult,
  }),
  getMeliFreights: call({ method: "GET", path: "/api/MeliOther/GetMeliFreights", query: getMeliFreightsQuery, result: freightRulePage }),
};

export const createMeliOtherApi = (client: ApiClient) => bindCalls(client, meliOtherCalls);
export type MeliOtherApi = ReturnType<typeof createMeliOtherApi>;
