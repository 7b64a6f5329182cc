// Workbench calls: the dashboard's cards and daily trends (an addition to spec §7: the spec shows the workbench screen
// but no call for its figures; see docs/decisions.md).
import { getWorkbenchInfoQuery, workbenchInfo } from "../contract/workbench.ts";
import { call } from "./define.ts";

const group = "Workbench";

export const workbenchCalls = {
  getWorkbenchInfo: call({
    group,
    name: "GetWorkbenchInfo",
    method: "GET",
    access: "user",
    summary:
      "The workbench's cards and daily trends over the last Days UTC days (7-90, default 14): the tenant's figures for a main account, its own for a sub-account, every tenant's for the host",
    query: getWorkbenchInfoQuery,
    result: workbenchInfo,
  }),
};
