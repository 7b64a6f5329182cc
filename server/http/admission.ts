// Admission of calls to the database. A call waits here, in the process, before it takes a connection: a request that
// would only wait on a lock or behind another tenant's storm holds no connection while it waits, so the pool stays
// free for the calls that can run. Two rules:
// - each tenant may have at most `tenantShare` transactions open at once, so one tenant's storm leaves the rest of
//   the pool to the others;
// - bulk edits (set-based writes over many of a tenant's rows) run one at a time per tenant, and at most `bulkSlots`
//   at once over all tenants. Two bulk edits of one tenant over overlapping rows would otherwise lock rows in
//   different orders and deadlock, or one would hold a connection for seconds waiting for the other.
// A wait is bounded: past its limit, or with too many already waiting, the call answers 503 with Retry-After (the
// shared client retries a keyed call on 503).
import { serviceBusy } from "./errors.ts";

export type AdmissionLimits = {
  /** Transactions one tenant may have open at once. */
  tenantShare: number;
  /** How long a call may wait for its tenant's share. */
  tenantWaitMs: number;
  /** Bulk edits running at once over all tenants (each tenant runs one at a time). */
  bulkSlots: number;
  /** How long a bulk edit may wait for its turn. */
  bulkWaitMs: number;
  /** Bulk edits one tenant may have waiting; more answer 503 at once. */
  bulkQueue: number;
};

/** The limits for a pool of `poolSize` connections: half of it per tenant, a quarter of it for bulk edits. */
export function admissionLimits(poolSize: number): AdmissionLimits {
  return {
    tenantShare: Math.max(2, Math.ceil(poolSize / 2)),
    tenantWaitMs: 15_000,
    bulkSlots: Math.max(1, Math.floor(poolSize / 4)),
    bulkWaitMs: 60_000,
    bulkQueue: 200,
  };
}

type Waiter = { grant: () => void; timer: NodeJS.Timeout | null };

/** A counting semaphore per key (and one for all keys with the key ""), FIFO, with a bounded queue and wait. */
export class KeyedSemaphore {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(
    private readonly limit: number,
    private readonly maxWaitMs: number,
    private readonly maxQueue: number,
    private readonly busyMessage: string,
  ) {}

  /** Resolves with the release function once the key has a free slot; throws 503 when the wait is too long. */
  acquire(key: string): Promise<() => void> {
    const running = this.running.get(key) ?? 0;
    const queue = this.waiting.get(key) ?? [];
    if (running < this.limit && !queue.length) {
      this.running.set(key, running + 1);
      return Promise.resolve(this.releaser(key));
    }
    if (queue.length >= this.maxQueue) return Promise.reject(serviceBusy(this.busyMessage));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          if (waiter.timer) clearTimeout(waiter.timer);
          resolve(this.releaser(key));
        },
        timer: setTimeout(() => {
          const q = this.waiting.get(key);
          const at = q ? q.indexOf(waiter) : -1;
          if (at >= 0) q!.splice(at, 1);
          if (q && !q.length) this.waiting.delete(key);
          reject(serviceBusy(this.busyMessage));
        }, this.maxWaitMs),
      };
      queue.push(waiter);
      this.waiting.set(key, queue);
    });
  }

  /** How many are running and waiting for a key (for tests and the health answer). */
  load(key: string): { running: number; waiting: number } {
    return { running: this.running.get(key) ?? 0, waiting: this.waiting.get(key)?.length ?? 0 };
  }

  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const queue = this.waiting.get(key);
      const next = queue?.shift();
      if (queue && !queue.length) this.waiting.delete(key);
      if (next) {
        next.grant(); // the slot passes to the next waiter: the count stays
        return;
      }
      const n = (this.running.get(key) ?? 1) - 1;
      if (n > 0) this.running.set(key, n);
      else this.running.delete(key);
    };
  }
}

export type Admission = {
  /**
   * Waits for the call's turn and answers the function that gives it back. `bulk`: the call is a bulk edit (one at a
   * time per tenant, a bounded number over all tenants) before it takes its tenant's share.
   */
  enter(tenantKey: string, bulk: boolean): Promise<() => void>;
};

export function createAdmission(limits: AdmissionLimits): Admission {
  const busy = "服务器繁忙，请稍后重试";
  const tenants = new KeyedSemaphore(limits.tenantShare, limits.tenantWaitMs, Number.POSITIVE_INFINITY, busy);
  const bulkPerTenant = new KeyedSemaphore(1, limits.bulkWaitMs, limits.bulkQueue, "批量修改排队过多，请稍后重试");
  const bulkOverall = new KeyedSemaphore(limits.bulkSlots, limits.bulkWaitMs, Number.POSITIVE_INFINITY, busy);
  return {
    async enter(tenantKey, bulk) {
      const held: (() => void)[] = [];
      const releaseAll = () =>
        held
          .splice(0)
          .reverse()
          .forEach((release) => release());
      try {
        // Always in this order (the tenant's bulk turn, the overall bulk slot, the tenant's share), so two calls never
        // hold one each of what the other waits for.
        if (bulk) {
          held.push(await bulkPerTenant.acquire(tenantKey));
          held.push(await bulkOverall.acquire(""));
        }
        held.push(await tenants.acquire(tenantKey));
      } catch (err) {
        releaseAll();
        throw err;
      }
      return releaseAll;
    },
  };
}
