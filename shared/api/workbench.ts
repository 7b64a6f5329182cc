// Workbench calls: the dashboard's cards and daily trends (an addition to spec §7, see docs/decisions.md).
import { getWorkbenchInfoQuery, workbenchInfo } from "../contract/workbench.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const workbenchCalls = {
  getWorkbenchInfo: call({
    method: "GET",
    path: "/api/Workbench/GetWorkbenchInfo",
    query: getWorkbenchInfoQuery,
    result: workbenchInfo,
  }),
};

export const createWorkbenchApi = (client: ApiClient) => bindCalls(client, workbenchCalls);
export type WorkbenchApi = ReturnType<typeof createWorkbenchApi>;
