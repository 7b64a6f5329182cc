// A large publish is planned before its transaction, in slices (issue 29: planning 10,000 products inside Publish's
// transaction held the embedded database, and the synchronous pre-flight loop the event loop, so /health and other
// tenants' calls waited 18 s on PGlite and 5 s on PostgreSQL). Each slice of PLAN_SLICE products is planned in its own
// short read transaction, and the event loop is given back between slices, so other requests run in between. The
// plans are kept for the call's handler, which plans in its transaction only the products the slices did not (one
// created meanwhile), so the batch is written from the selection the transaction sees.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { FastifyRequest } from "fastify";
import type { Database } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import type { ListingPlan, Planner } from "./service.ts";

/** Products planned per transaction before yielding to other requests. */
export const PLAN_SLICE = 500;

type PlanInput = Parameters<Planner>[1];
type Kept = { accounts: string; plans: Map<string, ListingPlan[]> };

const plannedBeforeTransaction = new WeakMap<FastifyRequest, Kept>();
const accountsKey = (input: PlanInput) => input.accounts.map((a) => a.id).join(",");

/** Plans `input` slice by slice, each in its own transaction, and keeps the plans for the request's handler. */
export async function planInSlices(
  database: Database,
  req: FastifyRequest,
  input: PlanInput,
  plan: Planner,
  onSlice?: (planned: number) => void,
): Promise<void> {
  const plans = new Map<string, ListingPlan[]>();
  for (let i = 0; i < input.productIds.length; i += PLAN_SLICE) {
    const productIds = input.productIds.slice(i, i + PLAN_SLICE);
    const slice = await inScope(database.db, { tenantId: input.tenantId }, (tx) => plan(tx, { ...input, productIds }));
    for (const [id, p] of slice) plans.set(id, p);
    onSlice?.(plans.size);
    await nextTurn();
  }
  plannedBeforeTransaction.set(req, { accounts: accountsKey(input), plans });
}

/** The planner for the request's handler: the kept plans, and the rest (or all, for other shops) planned in `tx`. */
export function keptPlans(req: FastifyRequest, plan: Planner): Planner {
  return async (tx, input) => {
    const kept = plannedBeforeTransaction.get(req);
    if (!kept || kept.accounts !== accountsKey(input)) return plan(tx, input);
    const missing = input.productIds.filter((id) => !kept.plans.has(id));
    const rest = missing.length ? await plan(tx, { ...input, productIds: missing }) : new Map<string, ListingPlan[]>();
    return new Map(input.productIds.map((id) => [id, kept.plans.get(id) ?? rest.get(id) ?? []]));
  };
}
