// The job queue lives in the same database (pg-boss on PostgreSQL, or on PGlite through its adapter). Handlers are
// registered by the modules; a failed job is retried with back-off, so every handler must be safe to run again.
import { fromPglite, PgBoss } from "pg-boss";
import type { Database } from "../db/client.ts";

export type JobHandler<T> = (data: T) => Promise<void>;

export type Jobs = {
  send<T extends object>(name: string, data: T, options?: { singletonKey?: string }): Promise<string | null>;
  /** Registers a handler; workers start when the queue starts with work enabled. */
  handle<T extends object>(name: string, handler: JobHandler<T>): void;
  start(options: { work: boolean }): Promise<void>;
  stop(): Promise<void>;
};

export function createJobs(database: Database, log: (msg: string, err?: unknown) => void): Jobs {
  const boss =
    database.kind === "pglite"
      ? new PgBoss({ db: fromPglite(database.pglite!), backend: "pglite", supervise: true, schedule: false })
      : new PgBoss({ connectionString: poolUrl(database), max: 4, schedule: false });
  boss.on("error", (err) => log("job queue error", err));
  const handlers = new Map<string, JobHandler<object>>();
  let started = false;

  return {
    async send(name, data, options) {
      return boss.send(name, data, {
        retryLimit: 5,
        retryDelay: 2,
        retryBackoff: true,
        ...(options?.singletonKey ? { singletonKey: options.singletonKey } : {}),
      });
    },
    handle(name, handler) {
      handlers.set(name, handler as JobHandler<object>);
    },
    async start({ work }) {
      await boss.start();
      started = true;
      for (const [name, handler] of handlers) {
        await boss.createQueue(name);
        if (!work) continue;
        await boss.work<object>(name, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
          for (const job of jobs) await handler(job.data);
        });
      }
    },
    async stop() {
      if (started) await boss.stop({ graceful: true, timeout: 5000 });
      started = false;
    },
  };
}

function poolUrl(database: Database): string {
  const opts = database.pool!.options as { connectionString?: string };
  if (!opts.connectionString) throw new Error("PostgreSQL job queue needs the connection string");
  return opts.connectionString;
}
