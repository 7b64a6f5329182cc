// Marketplace call log calls (spec §7 MeliStatLog).
import { getLogDetailQuery, getLogsByPageQuery, meliCallLogDetail, meliCallLogPage } from "../contract/meli-logs.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const meliStatLogCalls = {
  getLogsByPage: call({ method: "GET", path: "/api/MeliStatLog/GetLogsByPage", query: getLogsByPageQuery, result: meliCallLogPage }),
  getLogDetail: call({ method: "GET", path: "/api/MeliStatLog/GetLogDetail", query: getLogDetailQuery, result: meliCallLogDetail }),
};

export const createMeliStatLogApi = (client: ApiClient) => bindCalls(client, meliStatLogCalls);
export type MeliStatLogApi = ReturnType<typeof createMeliStatLogApi>;
