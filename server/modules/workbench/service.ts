// The workbench (spec §2 /dashboard/wrokbench): the contributors that apply to the caller, their cards in registry
// order, and their trends with one point per UTC day of the window.
import type { z } from "zod";
import { hostAllScope, setScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import type { getWorkbenchInfoQuery, WorkbenchCard, WorkbenchInfo, WorkbenchTrend } from "../../../shared/contract/workbench.ts";
import { workbenchContributors, workbenchRole, type WorkbenchScope } from "./extensions.ts";
import { fillDays, windowOf } from "./series.ts";

export async function getWorkbenchInfo(ctx: CallContext, q: z.output<typeof getWorkbenchInfoQuery>): Promise<WorkbenchInfo> {
  const user = ctx.user!;
  const role = workbenchRole(user);
  // The host's figures span every tenant: its call (checked as the host by the session just read) opts out of the tenant
  // policy explicitly, and the host contributors name what they count themselves.
  if (role === "host") await setScope(ctx.tx, hostAllScope);
  const scope: WorkbenchScope = { role, tenantId: user.tenantId, userId: user.id, now: new Date() };
  const window = windowOf(q.Days, scope.now);
  const cards: WorkbenchCard[] = [];
  const trends: WorkbenchTrend[] = [];
  for (const c of workbenchContributors) {
    if (!c.appliesTo(user)) continue;
    if (c.cards) for (const card of await c.cards(ctx.tx, scope)) cards.push({ ...card, hint: card.hint ?? null });
    if (c.trends) for (const t of await c.trends(ctx.tx, scope, window)) trends.push({ ...t, points: fillDays(t.points, window) });
  }
  return { cards, trends };
}
