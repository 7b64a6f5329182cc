// The workbench (spec §2 /dashboard/wrokbench): the contributors that apply to the caller, their cards in the order the
// contributors are given, and their trends with one point per UTC day of the window.
import type { z } from "zod";
import { hostAllScope, setScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import type { getWorkbenchInfoQuery, WorkbenchCard, WorkbenchInfo, WorkbenchTrend } from "#shared/contract/workbench.ts";
import { workbenchRole, type WorkbenchContributor, type WorkbenchScope } from "./extensions.ts";
import { fillDays, windowOf } from "./series.ts";

/** contributors: every area's cards and trends (deps.ts gathers them), the workbench's own first. */
export function createWorkbenchService({ contributors }: { contributors: WorkbenchContributor[] }) {
  async function getWorkbenchInfo(ctx: CallContext, q: z.output<typeof getWorkbenchInfoQuery>): Promise<WorkbenchInfo> {
    const user = ctx.user!;
    const role = workbenchRole(user);
    // The host's figures span every tenant: its call (checked as the host by the session just read) opts out of the
    // tenant policy explicitly, and the host contributors name what they count themselves.
    if (role === "host") await setScope(ctx.tx, hostAllScope);
    const scope: WorkbenchScope = { role, tenantId: user.tenantId, userId: user.id, now: new Date() };
    const window = windowOf(q.Days, scope.now);
    const cards: WorkbenchCard[] = [];
    const trends: WorkbenchTrend[] = [];
    for (const c of contributors) {
      if (!c.appliesTo(user)) continue;
      if (c.cards) for (const card of await c.cards(ctx.tx, scope)) cards.push({ ...card, hint: card.hint ?? null });
      if (c.trends) for (const t of await c.trends(ctx.tx, scope, window)) trends.push({ ...t, points: fillDays(t.points, window) });
    }
    return { cards, trends };
  }
  return { getWorkbenchInfo };
}

export type WorkbenchService = ReturnType<typeof createWorkbenchService>;
