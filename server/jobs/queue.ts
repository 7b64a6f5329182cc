// The job queue lives in the same database (pg-boss on PostgreSQL, or on PGlite through its adapter). A module's
// service brings its workers (`workers`, made with `worker`); the app registers them all on the queue once the
// services exist (deps.ts registerWorkers), so creating a service registers nothing. A failed job is retried with
// back-off, so every handler must be safe to run again.
import { sql } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss } from "pg-boss";
import type { FastifyBaseLogger } from "fastify";
import { rowsOf, type Database, type Tx } from "../db/client.ts";
import { afterCommitOnShared } from "../db/scope.ts";

export type JobHandler<T> = (data: T) => Promise<void>;

type SendOptions = {
  singletonKey?: string;
  /** Run no earlier than this many seconds from now (a back-off chosen by the handler). */
  startAfterSeconds?: number;
  /**
   * Enqueue inside this open transaction: the job exists exactly when the transaction commits (no job lost after a
   * commit, none run for a rolled-back change), and no second connection is needed (PGlite has only one).
   */
  tx?: Tx;
};

export type HandleOptions<T = object> = {
  /** Jobs of this name run at once in each process (default 1). */
  concurrency?: number;
  /**
   * The worker proves it is alive this often while a job runs; a job whose worker died (SIGKILL) is failed and retried
   * about two of these after the last proof, instead of after the queue's 15-minute expiry. At least 10.
   */
  heartbeatSeconds?: number;
  /**
   * Runs when the job's last attempt failed (the queue will not try it again), with the error: the handler's module
   * settles what the job was doing (a batch's listing counted failed), so no task or batch waits for it forever.
   */
  onLastFailure?: (data: T, err: unknown) => Promise<void>;
};

/** A job's worker as a service brings it: the job's name, its handler and how it runs. */
export type JobWorker = { name: string; handler: JobHandler<object>; options?: HandleOptions<object> };

/** The worker of the jobs named `name`, for a service's `workers`. */
export function worker<T extends object>(name: string, handler: JobHandler<T>, options?: HandleOptions<T>): JobWorker {
  return { name, handler: handler as JobHandler<object>, options: options as HandleOptions<object> | undefined };
}

export type Jobs = {
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Enqueues many jobs of one name in one statement per 1,000 (a publish batch of 10,000 products), in `tx` when given. */
  sendMany<T extends object>(name: string, data: readonly T[], options?: Pick<SendOptions, "tx">): Promise<void>;
  /** Registers a handler; workers start when the queue starts with work enabled. `concurrency` jobs of this name run
   *  at once in each process (default 1): a worker takes one job, then looks for the next. */
  handle<T extends object>(name: string, handler: JobHandler<T>, options?: HandleOptions<T>): void;
  start(options: { work: boolean }): Promise<void>;
  /** Waits up to graceMs (5 s) for running jobs, then fails the rest so they are retried, and closes the queue. */
  stop(options?: { graceMs?: number }): Promise<void>;
};

/**
 * How often the queue's monitor looks for jobs whose worker stopped sending heartbeats (and does its maintenance):
 * every 10 s rather than pg-boss's 60 s, so a killed worker's jobs run again within seconds.
 */
const SUPERVISION = { superviseIntervalSeconds: 10, monitorIntervalSeconds: 10 };

/** How a failed job runs again (pg-boss's retry options). */
export type RetryPolicy = { retryLimit: number; retryDelay: number; retryBackoff: boolean };
/** A failed job runs again up to 5 times, 2 s then doubling. */
const RETRY: RetryPolicy = { retryLimit: 5, retryDelay: 2, retryBackoff: true };

/**
 * When a worker looks for jobs. A job sent wakes its queue's workers at once (NOTIFY, sent when the job's transaction
 * commits); a worker that got a job wakes an idle sibling, so a backlog runs side by side, and looks again as soon as it
 * is done. Otherwise only a queue's first worker (its lookout) looks, every lookoutSeconds, for the jobs
 * no NOTIFY announces (a retry's back-off, a delayed start, a job sent by a process that has not yet learnt the queue
 * notifies); the others every siblingSeconds. Idle, the 78 workers made 156 fetches a second at one poll each
 * 0.5 s, a fifth of a core on PGlite for a server doing nothing. Without LISTEN (a transaction pooler) every worker
 * polls each pollSeconds.
 */
const POLLING = { pollSeconds: 0.5, lookoutSeconds: 2, siblingSeconds: 30 };
export type Polling = typeof POLLING;

export function createJobs(database: Database, log: FastifyBaseLogger, retry: RetryPolicy = RETRY, polling: Polling = POLLING): Jobs {
  // A LISTEN needs a session: on PostgreSQL only when the pool is not a transaction pooler.
  const listens = database.kind === "pglite" || database.sessionUrl === poolUrl(database);
  const boss =
    database.kind === "pglite"
      ? new PgBoss({
          db: fromPglite(database.pglite!),
          backend: "pglite",
          supervise: true,
          schedule: false,
          useListenNotify: true,
          ...SUPERVISION,
        })
      : new PgBoss({ connectionString: poolUrl(database), max: 4, schedule: false, useListenNotify: listens, ...SUPERVISION });
  boss.on("error", (err) => log.error({ err }, "job queue error"));
  const handlers = new Map<
    string,
    { handler: JobHandler<object>; concurrency: number; heartbeatSeconds?: number; onLastFailure?: HandleOptions["onLastFailure"] }
  >();
  let started = false;

  /** Runs `insert` with the transaction's connection: the queue's tables belong to the login role, not to erp_app, so
   *  the insert steps out of the app role and back. */
  async function asQueueOwner<R>(tx: Tx, insert: (db: ReturnType<typeof fromDrizzle>) => Promise<R>): Promise<R> {
    const role = rowsOf<{ role: string }>(await tx.execute(sql`select current_setting('role') as role`))[0]?.role ?? "erp_app";
    await tx.execute(sql`select set_config('role', 'none', true)`);
    const out = await insert(fromDrizzle(tx as never, sql));
    await tx.execute(sql`select set_config('role', ${role}, true)`);
    return out;
  }

  return {
    async send(name, data, options) {
      const sendOptions = {
        ...retry,
        ...(options?.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options?.startAfterSeconds ? { startAfter: Math.max(1, Math.round(options.startAfterSeconds)) } : {}),
      };
      const tx = options?.tx;
      // A transaction on a tenant's own database (issue 31): the queue is on the shared one, so the job goes once it commits.
      if (tx && afterCommitOnShared(tx, () => boss.send(name, data, sendOptions))) return null;
      if (!tx) return boss.send(name, data, sendOptions);
      return asQueueOwner(tx, (db) => boss.send(name, data, { ...sendOptions, db }));
    },
    async sendMany(name, data, options) {
      for (let i = 0; i < data.length; i += 1000) {
        const jobs = data.slice(i, i + 1000).map((d) => ({ data: d, ...retry }));
        const tx = options?.tx;
        if (tx && afterCommitOnShared(tx, () => boss.insert(name, jobs))) continue;
        if (tx) await asQueueOwner(tx, (db) => boss.insert(name, jobs, { db }));
        else await boss.insert(name, jobs);
      }
    },
    handle(name, handler, options) {
      handlers.set(name, {
        handler: handler as JobHandler<object>,
        concurrency: Math.max(1, options?.concurrency ?? 1),
        heartbeatSeconds: options?.heartbeatSeconds,
        onLastFailure: options?.onLastFailure as HandleOptions["onLastFailure"],
      });
    },
    async start({ work }) {
      await boss.start();
      started = true;
      // The queues as a previous start left them, read at once: a later start creates and updates only what differs
      // (two statements a queue otherwise, on every start of every process).
      const names = [...handlers.keys()];
      const existing = new Map(names.length ? (await boss.getQueues(names, { limit: names.length })).map((q) => [q.name, q]) : []);
      for (const [name, { handler, concurrency, heartbeatSeconds, onLastFailure }] of handlers) {
        const queue = existing.get(name);
        if (!queue) await boss.createQueue(name);
        // Also on a queue created before it notified or had a heartbeat.
        if (!queue?.notify || (heartbeatSeconds && queue.heartbeatSeconds !== heartbeatSeconds))
          await boss.updateQueue(name, { notify: true, ...(heartbeatSeconds ? { heartbeatSeconds } : {}) });
        if (!work) continue;
        // One job per fetch keeps a failure to its own job; `concurrency` workers run such jobs side by side.
        const workerIds: string[] = [];
        // A worker that got a job wakes itself (it looks again as soon as the job is done) and one idle sibling, which
        // wakes the next if it gets a job too: a backlog reaches every worker, and one job sent costs one more look
        // instead of one per worker.
        const busy = new Set<number>();
        const wakeSelfAndAnIdleSibling = (self: number) => {
          boss.notifyWorker(workerIds[self]);
          const idle = workerIds.findIndex((_, j) => !busy.has(j));
          if (idle >= 0) boss.notifyWorker(workerIds[idle]);
        };
        for (let i = 0; i < concurrency; i++) {
          const pollingIntervalSeconds = polling.pollSeconds;
          const notifyPollingIntervalSeconds = i === 0 ? polling.lookoutSeconds : polling.siblingSeconds;
          const id = await boss.work<object>(name, { pollingIntervalSeconds, notifyPollingIntervalSeconds }, async (jobs) => {
            busy.add(i);
            wakeSelfAndAnIdleSibling(i);
            try {
              await runJobs(jobs);
            } finally {
              busy.delete(i);
            }
          });
          workerIds.push(id);
        }
        async function runJobs(jobs: { data: object; retryCount: number }[]) {
          for (const job of jobs) {
            try {
              await handler(job.data);
            } catch (err) {
              // The attempt numbered retryLimit is the last (the first is 0).
              if (onLastFailure && job.retryCount >= retry.retryLimit)
                await onLastFailure(job.data, err).catch((e: unknown) => log.error({ err: e, job: name }, "settling a failed job failed"));
              throw err;
            }
          }
        }
      }
    },
    async stop(options) {
      if (started) await boss.stop({ graceful: true, timeout: options?.graceMs ?? 5000 });
      started = false;
    },
  };
}

function poolUrl(database: Database): string {
  const opts = database.pool!.options as { connectionString?: string };
  if (!opts.connectionString) throw new Error("PostgreSQL job queue needs the connection string");
  return opts.connectionString;
}
