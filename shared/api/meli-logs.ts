// Marketplace call log calls (spec §7 MeliStatLog; the spec's AccountgroupId spelling stays on the wire).
import { getLogDetailQuery, getLogsByPageQuery, meliCallLogDetail, meliCallLogPage } from "../contract/meli-logs.ts";
import { call } from "./define.ts";

const group = "MeliStatLog";

export const meliStatLogCalls = {
  getLogsByPage: call({
    group,
    name: "GetLogsByPage",
    method: "GET",
    access: "user",
    summary:
      "Mercado Libre calls made for listings, newest first, without bodies: the tenant's for a main account, its shop groups' for a sub-account",
    query: getLogsByPageQuery,
    result: meliCallLogPage,
  }),
  getLogDetail: call({
    group,
    name: "GetLogDetail",
    method: "GET",
    access: "user",
    summary: "One Mercado Libre call with its request and answer (secrets scrubbed, bodies cut at 64 KB)",
    query: getLogDetailQuery,
    result: meliCallLogDetail,
  }),
};
