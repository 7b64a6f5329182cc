// Workbench calls (an addition to spec §7), declared in shared/api/workbench.ts.
import type { Registrar } from "../../http/calls.ts";
import { workbenchCalls as calls } from "#shared/api/workbench.ts";
import type { WorkbenchService } from "./service.ts";

export function registerWorkbench(r: Registrar, { workbench }: { workbench: WorkbenchService }) {
  r.handle(calls.getWorkbenchInfo, { handler: (ctx, { query }) => workbench.getWorkbenchInfo(ctx, query) });
}
