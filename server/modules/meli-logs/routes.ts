// Marketplace call log calls (spec §7 MeliStatLog; the spec's AccountgroupId spelling stays on the wire).
import type { Registrar } from "../../http/calls.ts";
import { getLogDetailQuery, getLogsByPageQuery, meliCallLogDetail, meliCallLogPage } from "#shared/contract/meli-logs.ts";
import type { MeliLogService } from "./service.ts";

export function registerMeliLogs(r: Registrar, { meliLogs }: { meliLogs: MeliLogService }) {
  r.call({
    group: "MeliStatLog",
    name: "GetLogsByPage",
    method: "GET",
    access: "user",
    summary:
      "Mercado Libre calls made for listings, newest first, without bodies: the tenant's for a main account, its shop groups' for a sub-account",
    query: getLogsByPageQuery,
    result: meliCallLogPage,
    handler: (ctx, { query }) => meliLogs.getLogsByPage(ctx, query),
  });
  r.call({
    group: "MeliStatLog",
    name: "GetLogDetail",
    method: "GET",
    access: "user",
    summary: "One Mercado Libre call with its request and answer (secrets scrubbed, bodies cut at 64 KB)",
    query: getLogDetailQuery,
    result: meliCallLogDetail,
    handler: (ctx, { query }) => meliLogs.getLogDetail(ctx, query.id),
  });
}
