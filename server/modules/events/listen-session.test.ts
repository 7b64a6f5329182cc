// On PostgreSQL the progress hub's LISTEN has a session of its own at the session URL (DATABASE_DIRECT_URL), never a
// pooled connection: behind a transaction pooler a LISTEN on a pooled connection would hear nothing. PostgreSQL only:
// the PGlite run leaves this file out (vitest.config.ts), it has no sessions to tell apart.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTask } from "../../jobs/tasks.ts";
import { inScope } from "../../db/scope.ts";
import type { Database } from "../../db/client.ts";
import { startTestServer, type TestServer } from "../../testing/harness.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { createProgressHub, type HubEntry } from "./progress.ts";

let s: TestServer;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) throw new Error("this test needs PostgreSQL: set DATABASE_URL");
  s = await startTestServer();
}, 60_000);
afterAll(() => s?.close());

it("the LISTEN has a session of its own at the session URL, never a pooled connection", async () => {
  const a = await s.createTenant();
  // A database handle with no pool at all: the hub may only use the session URL, as behind a transaction pooler.
  const direct = { kind: "postgres", sessionUrl: s.database.sessionUrl } as Database;
  const hub = createProgressHub(direct, s.app.log);
  const heard: HubEntry[] = [];
  const { unsubscribe } = await hub.subscribe((e) => heard.push(e), null);
  const task = await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
    createTask(tx, { tenantId: a.tenantId, taskType: TaskType.ExportProducts, content: "test", creatorId: a.userId }),
  );
  for (let i = 0; i < 100 && !heard.length; i++) await new Promise((r) => setTimeout(r, 50));
  expect(heard).toMatchObject([{ type: "event", notice: { kind: "task", id: task, tenantId: a.tenantId, status: TaskStatus.Pending } }]);
  unsubscribe();
  await hub.close();
});
