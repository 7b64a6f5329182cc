// The worker's live progress for the side panel, against the real server over real HTTP: a watch opens the console's
// event stream with the session's token, tells the panel when it is live and passes on the events of its tenant;
// without a session the stream is refused and the panel is told nothing (it keeps polling, batch-follow.ts).
import { fakeBrowser } from "../../testing/fake-browser.ts";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, type TestTenant } from "../../../server/testing/harness.ts";
import { sql } from "drizzle-orm";
import type { ProgressEvent } from "#shared/contract/events.ts";
import { defineStorageItems } from "../../lib/storage.ts";
import { createProgressWatch } from "./progress.ts";
import { createSession } from "./session.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;
let serverUrl: string;
const items = defineStorageItems();

beforeAll(async () => {
  fakeBrowser.reset();
  s = await startTestServer();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  serverUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => s?.close());

/** A batch's progress as the server's writers announce it (server/modules/events/progress.ts emitProgress: a NOTIFY). */
const emitProgress = (notice: ProgressEvent & { tenantId: string; creatorId: string }) =>
  s.database.db.execute(sql`select pg_notify('erp_progress', ${JSON.stringify(notice)})`);

const until = async (check: () => boolean, ms = 20_000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("the side panel's live progress", () => {
  it("opens nothing without a session: nothing is pushed and the panel keeps polling", async () => {
    const pushed: [boolean, ProgressEvent | null][] = [];
    const watch = createProgressWatch({ session: createSession({ items }), push: (live, e) => pushed.push([live, e]) });
    expect(watch.watch()).toEqual({ live: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(watch.watch()).toEqual({ live: false });
    watch.close();
    expect(pushed).toEqual([]);
  });

  it("opens the console's stream with the session's token and passes on its tenant's batch events", async () => {
    const session = createSession({ items });
    await session.login({ serverUrl, tenant: a.tenantName, userName: "boss", password: a.password });
    const pushed: [boolean, ProgressEvent | null][] = [];
    const watch = createProgressWatch({ session, push: (live, e) => pushed.push([live, e]) });
    try {
      watch.watch();
      await until(() => pushed.some(([live]) => live));
      expect(watch.watch()).toEqual({ live: true });
      const event = { kind: "publishBatch" as const, id: crypto.randomUUID(), status: 1, total: 2, success: 1, fail: 0 };
      await emitProgress({ ...event, tenantId: b.tenantId, creatorId: b.userId }); // another tenant's
      await emitProgress({ ...event, tenantId: a.tenantId, creatorId: a.userId });
      await until(() => pushed.some(([, e]) => e?.id === event.id));
      expect(pushed.filter(([, e]) => e)).toEqual([[true, event]]);
    } finally {
      watch.close();
      await session.logout();
    }
  });
});
