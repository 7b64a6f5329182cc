// Marketplace call log calls, declared in shared/api/meli-logs.ts (spec §7 MeliStatLog).
import type { Registrar } from "../../http/calls.ts";
import { meliStatLogCalls as calls } from "#shared/api/meli-logs.ts";
import type { MeliLogService } from "./service.ts";

export function registerMeliLogs(r: Registrar, { meliLogs }: { meliLogs: MeliLogService }) {
  r.handle(calls.getLogsByPage, { handler: (ctx, { query }) => meliLogs.getLogsByPage(ctx, query) });
  r.handle(calls.getLogDetail, { handler: (ctx, { query }) => meliLogs.getLogDetail(ctx, query.id) });
}
