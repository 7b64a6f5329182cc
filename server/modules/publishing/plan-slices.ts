// A large publish is planned before its transaction, in slices (issue 29: planning 10,000 products inside Publish's
// transaction held the embedded database, and the synchronous pre-flight loop the event loop, so /health and other
// tenants' calls waited 18 s on PGlite and 5 s on PostgreSQL). Each slice is planned in its own short read
// transaction, and the event loop is given back between slices (and within one, every few ms: turns.ts), so other
// requests run in between. Slices are sized by time: the first has PLAN_SLICE products, each next one as many as
// planned in about PLAN_SLICE_MS at the last one's pace, so on PGlite (one connection, held by a transaction) no
// slice holds the database for long whatever a product costs to plan or how loaded the machine is. The plans are kept
// for the call's handler, which plans in its transaction only the products the slices did not (one created
// meanwhile), so the batch is written from the selection the transaction sees.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { FastifyRequest } from "fastify";
import type { Database } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import type { ListingPlan, Planner } from "./types.ts";

/** Products in the first slice. */
export const PLAN_SLICE = 100;
/** The time a slice's transaction aims at, in ms, and the bounds of a slice's size. */
const PLAN_SLICE_MS = 20;
const SLICE_MIN = 25;
const SLICE_MAX = 500;

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
  let size = PLAN_SLICE;
  for (let i = 0; i < input.productIds.length;) {
    const productIds = input.productIds.slice(i, i + size);
    i += productIds.length;
    const started = performance.now();
    const slice = await inScope(database.db, { tenantId: input.tenantId }, (tx) => plan(tx, { ...input, productIds }));
    const took = Math.max(performance.now() - started, 1);
    for (const [id, p] of slice) plans.set(id, p);
    onSlice?.(plans.size);
    size = Math.min(SLICE_MAX, Math.max(SLICE_MIN, Math.round((productIds.length * PLAN_SLICE_MS) / took)));
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
