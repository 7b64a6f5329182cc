// Workbench calls (an addition to spec §7: the spec shows the workbench screen but no call for its figures).
import type { Registrar } from "../../http/calls.ts";
import { getWorkbenchInfoQuery, workbenchInfo } from "#shared/contract/workbench.ts";
import type { WorkbenchService } from "./service.ts";

export function registerWorkbench(r: Registrar, { workbench }: { workbench: WorkbenchService }) {
  r.call({
    group: "Workbench",
    name: "GetWorkbenchInfo",
    method: "GET",
    access: "user",
    summary:
      "The workbench's cards and daily trends over the last Days UTC days (7-90, default 14): the tenant's figures for a main account, its own for a sub-account, every tenant's for the host",
    query: getWorkbenchInfoQuery,
    result: workbenchInfo,
    handler: (ctx, { query }) => workbench.getWorkbenchInfo(ctx, query),
  });
}
