// The live progress stream over a real socket (SSE cannot go through inject): a task's progress arrives as events, a
// tenant never hears another's, a sub-account hears only its own work, Last-Event-ID resumes, bad tokens are refused
// and closing the server ends open streams. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { seedPricedProducts } from "../../testing/product-kit.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { EVENTS_PATH, type ProgressEvent } from "#shared/contract/events.ts";
import { openEventStream, type EventStream, type Frame } from "../../testing/event-stream.ts";

let s: TestServer;
let baseUrl: string;
let a: TestTenant;
let b: TestTenant;
let aSub: { id: string; token: string };

const openStream = (token: string | null, headers: Record<string, string> = {}): Promise<EventStream> =>
  openEventStream(baseUrl, token, headers);

const isProgress = (taskId: string, status?: number) => (f: Frame) =>
  f.event === "progress" &&
  (f.data as ProgressEvent).id === taskId &&
  (status === undefined || (f.data as ProgressEvent).status === status);

/** A task as a job runs it: created in a transaction, then updated by the job. */
async function startTask(t: { tenantId: string }, creatorId: string): Promise<string> {
  return inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    createTask(tx, { tenantId: t.tenantId, taskType: TaskType.ExportProducts, content: "test", creatorId }),
  );
}

beforeAll(async () => {
  s = await startTestServer();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  a = await s.createTenant();
  b = await s.createTenant();
  aSub = await s.createSubUser(a);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe("GET /api/events", () => {
  it("refuses a missing, malformed or forged token with 401 and the error envelope", async () => {
    for (const token of [null, "not-a-jwt", a.token.slice(0, -4) + "AAAA"]) {
      const res = await fetch(baseUrl + EVENTS_PATH, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect(res.status).toBe(401);
      expect((await res.json()).error.message).toBeTruthy();
    }
  });

  it("streams a task's progress to its tenant, never to another tenant, and to a sub-account only for its own work", async () => {
    const streamA = await openStream(a.token);
    const streamB = await openStream(b.token);
    const streamSub = await openStream(aSub.token);
    expect(streamA.status).toBe(200);
    for (const st of [streamA, streamB, streamSub]) await st.waitFor((f) => f.event === "ready");

    const taskA = await startTask(a, a.userId);
    await updateTask(s.database.db, a.tenantId, taskA, { taskStatus: TaskStatus.Running, progress: 40 });
    await updateTask(s.database.db, a.tenantId, taskA, { taskStatus: TaskStatus.Succeeded, progress: 100 });
    await streamA.waitFor(isProgress(taskA, TaskStatus.Succeeded));
    expect(streamA.progress().filter((e) => e.id === taskA)).toEqual([
      { kind: "task", id: taskA, taskType: TaskType.ExportProducts, status: TaskStatus.Pending, progress: 0 },
      { kind: "task", id: taskA, taskType: TaskType.ExportProducts, status: TaskStatus.Running, progress: 40 },
      { kind: "task", id: taskA, taskType: TaskType.ExportProducts, status: TaskStatus.Succeeded, progress: 100 },
    ]);
    const ids = streamA.frames.filter((f) => f.event === "progress").map((f) => Number(f.id!.split("-")[1]));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));

    // Events arrive in order on each stream: once B and the sub-account hear their own later task, they would have heard
    // A's main account's task by then had it been sent to them.
    const taskB = await startTask(b, b.userId);
    const taskSub = await startTask(a, aSub.id);
    await streamB.waitFor(isProgress(taskB));
    await streamSub.waitFor(isProgress(taskSub));
    await streamA.waitFor(isProgress(taskSub)); // the main account sees its sub-account's work
    expect(streamB.progress().map((e) => e.id)).toEqual([taskB]);
    expect(streamSub.progress().map((e) => e.id)).toEqual([taskSub]);
    expect(streamA.progress().map((e) => e.id)).not.toContain(taskB);
    // No tenant or user ids leave the server.
    expect(JSON.stringify(streamA.frames)).not.toContain(a.tenantId);
    for (const st of [streamA, streamB, streamSub]) st.close();
  });

  it("carries a real export's progress to the end", async () => {
    await seedPricedProducts(s.database, a, "SSE-EXPORT", [1, 2, 3]);
    const stream = await openStream(a.token);
    await stream.waitFor((f) => f.event === "ready");
    const res = await s.api("POST", "/api/Product/ExportProduct", { token: a.token, body: { filter: {}, columns: ["id", "sku"] } });
    expect(res.status).toBe(200);
    const taskId = res.body.result.taskId as string;
    await stream.waitFor(isProgress(taskId, TaskStatus.Succeeded), 30_000);
    expect(stream.progress().filter((e) => e.id === taskId)[0].status).toBe(TaskStatus.Pending);
    stream.close();
  });

  it("resumes after Last-Event-ID with exactly the missed events, and asks for a refetch when it cannot", async () => {
    const first = await openStream(a.token);
    const ready = await first.waitFor((f) => f.event === "ready");
    const task = await startTask(a, a.userId);
    const created = await first.waitFor(isProgress(task));
    first.close();
    await first.ended;

    // A second stream of A's stays open while A is away: once it has heard the 60 % (and B's task), the server holds
    // them to replay (on a loaded machine the notifications can arrive after a stream opened at once would join).
    const watcher = await openStream(a.token);
    await watcher.waitFor((f) => f.event === "ready");
    await updateTask(s.database.db, a.tenantId, task, { taskStatus: TaskStatus.Running, progress: 30 });
    await updateTask(s.database.db, a.tenantId, task, { progress: 60 });
    // B's event in between is not replayed to A.
    const other = await startTask(b, b.userId);
    await watcher.waitFor((f) => isProgress(task)(f) && (f.data as ProgressEvent).progress === 60);
    const streamB = await openStream(b.token, { "last-event-id": created.id! });
    await streamB.waitFor(isProgress(other));
    streamB.close();
    watcher.close();

    const resumed = await openStream(a.token, { "last-event-id": created.id! });
    await resumed.waitFor((f) => f.event === "ready");
    expect(resumed.frames.map((f) => f.event)).toEqual(["progress", "progress", "ready"]);
    expect(resumed.progress().map((e) => e.progress)).toEqual([30, 60]);

    // From the first `ready` on, the creation is replayed too.
    const fromReady = await openStream(a.token, { "last-event-id": ready.id! });
    await fromReady.waitFor((f) => f.event === "ready");
    expect(fromReady.progress().map((e) => [e.id, e.progress])).toEqual([
      [task, 0],
      [task, 30],
      [task, 60],
    ]);

    // An id of another process (or from before a restart) cannot be replayed: the client is told to fetch again.
    const stale = await openStream(a.token, { "last-event-id": "00000000-5" });
    await stale.waitFor((f) => f.event === "ready");
    expect(stale.frames.map((f) => f.event)).toEqual(["reset", "ready"]);
    for (const st of [resumed, fromReady, stale]) st.close();
  });

  it("limits open streams per user", async () => {
    const streams: EventStream[] = [];
    for (let i = 0; i < 6; i++) streams.push(await openStream(aSub.token));
    expect(streams.map((st) => st.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const extra = await openStream(aSub.token);
    expect(extra.status).toBe(429);
    streams[0].close();
    await streams[0].ended;
    // The server sees the socket close a moment after the client does.
    let again: EventStream | null = null;
    for (let tries = 0; tries < 50 && again?.status !== 200; tries++) {
      again = await openStream(aSub.token);
      if (again.status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(again!.status).toBe(200);
    for (const st of [...streams, again!]) st.close();
  });

  it("ends open streams when the server closes", async () => {
    const stream = await openStream(b.token);
    await stream.waitFor((f) => f.event === "ready");
    const closing = s.close();
    await stream.ended;
    await closing;
    s = undefined as unknown as TestServer;
  }, 20_000);
});
