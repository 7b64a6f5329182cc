// The periodic pull: every ORDER_PULL_MINUTES a tick queues one pull per shop group with an enabled shop that receives
// orders (EnableRecieveOrder), each reading the orders changed since the group's newest stored change (pull.ts), and
// sends order notifications kept Waiting back to the notification job.
import { and, eq, isNotNull, max } from "drizzle-orm";
import type { Database, Tx } from "../../db/client.ts";
import { meliAccounts, orders } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { Jobs } from "../../jobs/queue.ts";
import type { Window } from "./pull.ts";

export const ORDER_PULL_JOB = "orders.pull";
export const ORDER_TICK_JOB = "orders.pull-tick";
/** The periodic pull's period. */
const ORDER_PULL_MINUTES = 10;
/** A group's first periodic pull reaches back this far; later ones from its newest stored change less this margin. */
const FIRST_PULL_DAYS = 2;
const PULL_OVERLAP_MS = 10 * 60_000;

export type PullJob = { tenantId: string; groupId: string };
export type TickJob = { slot: number };

/**
 * Queues the periodic pull's next tick (once per period, whichever process asks: the job's singleton key names the
 * period). The worker's start calls it (main.ts); each tick queues the next, and an order notification or FetchOrders
 * queues it too, so a chain lost with a database restore starts again by itself.
 */
export async function scheduleOrderTick(jobs: Jobs, tx?: Tx): Promise<void> {
  const period = ORDER_PULL_MINUTES * 60_000;
  const slot = Math.floor(Date.now() / period) + 1;
  const wait = (slot * period - Date.now()) / 1000;
  await jobs.send<TickJob>(
    ORDER_TICK_JOB,
    { slot },
    { singletonKey: `${ORDER_TICK_JOB}:${slot}`, startAfterSeconds: Math.max(1, wait), tx },
  );
}

export type OrderPeriodicPullDeps = {
  database: Database;
  jobs: Jobs;
  /** Pulls a group's orders in a window (refresh.ts). */
  pullGroup: (tenantId: string, groupId: string, window: Window, onlyAccounts: null) => Promise<unknown>;
  /** Order notifications kept Waiting back to the notification job (notifications.ts). */
  processWaiting: () => Promise<number>;
};

export function createOrderPeriodicPull(deps: OrderPeriodicPullDeps) {
  const db = deps.database.db;

  /** Every group with an enabled shop receiving orders gets its pull; waiting order notifications are worked through. */
  async function tick() {
    const groups = await inScope(db, hostAllScope, (tx) =>
      tx
        .selectDistinct({ tenantId: meliAccounts.tenantId, groupId: meliAccounts.groupId })
        .from(meliAccounts)
        .where(and(eq(meliAccounts.isEnabled, true), eq(meliAccounts.isReceiveOrder, true))),
    );
    for (const g of groups) {
      await deps.jobs.send<PullJob>(ORDER_PULL_JOB, g, { singletonKey: `${ORDER_PULL_JOB}:${g.tenantId}:${g.groupId}` });
    }
    await deps.processWaiting();
  }

  async function runTick() {
    try {
      await tick();
    } finally {
      await scheduleOrderTick(deps.jobs);
    }
  }

  /** One group's periodic pull: the orders changed since its newest stored change (less an overlap). */
  async function runPull(job: PullJob) {
    const newest = await inScope(db, { tenantId: job.tenantId }, async (tx) => {
      const [r] = await tx
        .select({ at: max(orders.meliUpdated) })
        .from(orders)
        .where(and(eq(orders.tenantId, job.tenantId), eq(orders.accountGroupId, job.groupId), isNotNull(orders.meliUpdated)));
      return r?.at ?? null;
    });
    const from = newest ? new Date(newest.getTime() - PULL_OVERLAP_MS) : new Date(Date.now() - FIRST_PULL_DAYS * 86_400_000);
    await deps.pullGroup(job.tenantId, job.groupId, { by: "changed", from }, null);
  }

  return { tick, runTick, runPull };
}
