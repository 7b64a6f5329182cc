// The queue's last-failure hook, on the real queue (pg-boss on PGlite, or PostgreSQL with DATABASE_URL): a job that
// fails on every attempt is settled once, after its last attempt, with its data and the error; a job that fails and
// then succeeds is never settled; a settle that throws is logged and does not stop the worker. Workers whose own look
// for jobs is an hour away still run a job as soon as it is sent (NOTIFY), and drain a backlog (each looks again when done).
// A later start changes only the queues that differ from what an earlier one left.
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Database } from "../db/client.ts";
import { openTestDatabase } from "../testing/templates.ts";
import { until } from "../testing/publish-kit.ts";
import { createJobs, type Jobs } from "./queue.ts";

let database: Database;
let jobs: Jobs;
const attempts = new Map<string, number>();
const settled: { data: { key: string }; message: string }[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  // One retry a second apart, so the last attempt comes quickly.
  jobs = createJobs(database, pino({ level: "silent" }), { retryLimit: 1, retryDelay: 1, retryBackoff: false });
  const attempt = (key: string) => {
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    return n;
  };
  jobs.handle<{ key: string }>(
    "test.always-fails",
    async ({ key }) => {
      throw new Error(`attempt ${attempt(key)} failed`);
    },
    { onLastFailure: async (data, err) => void settled.push({ data, message: (err as Error).message }) },
  );
  jobs.handle<{ key: string }>(
    "test.fails-once",
    async ({ key }) => {
      if (attempt(key) === 1) throw new Error("first attempt failed");
    },
    { onLastFailure: async (data, err) => void settled.push({ data, message: (err as Error).message }) },
  );
  jobs.handle<{ key: string }>(
    "test.settle-throws",
    async ({ key }) => {
      throw new Error(`attempt ${attempt(key)} failed`);
    },
    {
      onLastFailure: async () => {
        throw new Error("settling failed");
      },
    },
  );
  await jobs.start({ work: true });
}, 60_000);

afterAll(async () => {
  await jobs?.stop();
  await database?.close();
});

describe("the last failure of a job", () => {
  it("settles a job that failed on every attempt once, after the last, with its data and error", async () => {
    await jobs.send("test.always-fails", { key: "a" });
    await until(
      async () => settled.filter((x) => x.data.key === "a"),
      (x) => x.length > 0,
      "settled",
      30_000,
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(attempts.get("a")).toBe(2);
    expect(settled.filter((x) => x.data.key === "a")).toEqual([{ data: { key: "a" }, message: "attempt 2 failed" }]);
  });

  it("never settles a job that succeeded on a retry; a settle that throws leaves the worker running", async () => {
    await jobs.send("test.fails-once", { key: "b" });
    await jobs.send("test.settle-throws", { key: "c" });
    await until(
      async () => [attempts.get("b"), attempts.get("c")],
      ([b, c]) => b === 2 && c === 2,
      "retried",
      30_000,
    );
    await jobs.send("test.fails-once", { key: "d" });
    await until(
      async () => attempts.get("d"),
      (n) => n === 2,
      "worker still running",
      30_000,
    );
    expect(settled.filter((x) => x.data.key !== "a")).toEqual([]);
  });
});

describe("when workers look for jobs", () => {
  // Workers whose own look is an hour away: a job runs within the test only if something woke them.
  let sleepy: Jobs;
  const done: string[] = [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    sleepy = createJobs(database, pino({ level: "silent" }), undefined, { pollSeconds: 3600, lookoutSeconds: 3600, siblingSeconds: 3600 });
    sleepy.handle<{ key: string }>("test.woken", async ({ key }) => void done.push(key));
    sleepy.handle<{ key: string }>(
      "test.backlog",
      async ({ key }) => {
        await sleep(20);
        done.push(key);
      },
      { concurrency: 2 },
    );
    await sleepy.start({ work: true });
  }, 60_000);

  afterAll(async () => {
    await sleepy?.stop();
  });

  it("runs a job sent while its worker sleeps: the send's NOTIFY wakes it", async () => {
    await sleepy.send("test.woken", { key: "first" });
    await until(async () => done.includes("first"), Boolean, "the first job", 30_000);
    // The worker looked once more after the first job and found nothing: it sleeps its hour now.
    await sleep(1000);
    await sleepy.send("test.woken", { key: "second" });
    await until(async () => done.includes("second"), Boolean, "the job sent to a sleeping worker", 30_000);
  });

  it("drains a backlog of 6 jobs with 2 workers: a worker that got a job looks again as soon as it is done", async () => {
    const keys = ["b1", "b2", "b3", "b4", "b5", "b6"];
    // One statement, one NOTIFY: it wakes the two workers once.
    await sleepy.sendMany(
      "test.backlog",
      keys.map((key) => ({ key })),
    );
    await until(
      async () => keys.filter((k) => done.includes(k)).length,
      (n) => n === keys.length,
      "the backlog",
      30_000,
    );
  });
});

describe("a later start", () => {
  const queue = async (name: string) =>
    rowsOf<{ notify: boolean; heartbeat: number | null; updated: string }>(
      await database.db.execute(
        sql`select notify, heartbeat_seconds as heartbeat, updated_on::text as updated from pgboss.queue where name = ${name}`,
      ),
    )[0];

  it("creates the queues it lacks and updates only those that differ from what an earlier start left", async () => {
    // test.fails-once as an older start left it, before queues notified.
    await database.db.execute(sql`update pgboss.queue set notify = false where name = 'test.fails-once'`);
    const untouched = await queue("test.always-fails");
    const later = createJobs(database, pino({ level: "silent" }));
    for (const name of ["test.always-fails", "test.fails-once"]) later.handle(name, async () => {});
    later.handle("test.later-new", async () => {}, { heartbeatSeconds: 30 });
    await later.start({ work: false });
    await later.stop();
    expect(await queue("test.fails-once")).toMatchObject({ notify: true });
    expect(await queue("test.always-fails")).toEqual(untouched);
    expect(await queue("test.later-new")).toMatchObject({ notify: true, heartbeat: 30 });
  });
});
