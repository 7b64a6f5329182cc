// The task centre through the real HTTP stack: who sees which tasks, filters, sorting, paging and bad input.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_TENANT_ID, taskInfos, users } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { TASK_COUNT_CAP } from "#shared/contract/tasks.ts";
import { and, eq } from "drizzle-orm";

let s: TestServer;
let admin: string;
let a: TestTenant;
let b: TestTenant;
let sub1: { id: string; token: string };
let sub1Name: string;
let sub2: { id: string; token: string };
let hostUserId: string;

const ids: Record<string, string> = {};

async function addTask(
  name: string,
  tenantId: string,
  t: { taskType: number; taskStatus: number; creatorId: string | null; creationTime: string; progress?: number },
) {
  const id = randomUUID();
  ids[name] = id;
  await inScope(s.database.db, { tenantId }, (tx) =>
    tx.insert(taskInfos).values({
      tenantId,
      id,
      taskType: t.taskType,
      taskStatus: t.taskStatus,
      content: `task ${name}`,
      creatorId: t.creatorId,
      creationTime: new Date(t.creationTime),
      lastUpdateTime: new Date(t.creationTime),
      progress: t.progress ?? 0,
    }),
  );
}

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  a = await s.createTenant();
  b = await s.createTenant();
  sub1Name = `sub-${randomUUID().slice(0, 8)}`;
  sub1 = await s.createSubUser(a, sub1Name);
  sub2 = await s.createSubUser(a);
  hostUserId = (
    await inScope(s.database.db, { tenantId: HOST_TENANT_ID }, (tx) =>
      tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, HOST_TENANT_ID), eq(users.isHost, true))),
    )
  )[0].id;

  await addTask("a1", a.tenantId, {
    taskType: TaskType.Collect,
    taskStatus: TaskStatus.Succeeded,
    creatorId: a.userId,
    creationTime: "2024-01-01T10:00:00Z",
    progress: 100,
  });
  await addTask("a2", a.tenantId, {
    taskType: TaskType.Publish,
    taskStatus: TaskStatus.Running,
    creatorId: sub1.id,
    creationTime: "2024-01-02T10:00:00Z",
    progress: 40,
  });
  await addTask("a3", a.tenantId, {
    taskType: TaskType.Collect,
    taskStatus: TaskStatus.Failed,
    creatorId: sub1.id,
    creationTime: "2024-01-03T10:00:00Z",
  });
  await addTask("a4", a.tenantId, {
    taskType: TaskType.ExportProducts,
    taskStatus: TaskStatus.Pending,
    creatorId: sub2.id,
    creationTime: "2024-01-04T10:00:00Z",
  });
  await addTask("b1", b.tenantId, {
    taskType: TaskType.Collect,
    taskStatus: TaskStatus.Pending,
    creatorId: b.userId,
    creationTime: "2024-01-05T10:00:00Z",
  });
  await addTask("h1", HOST_TENANT_ID, {
    taskType: TaskType.Maintenance,
    taskStatus: TaskStatus.Succeeded,
    creatorId: hostUserId,
    creationTime: "2024-01-06T10:00:00Z",
  });
});
afterAll(() => s?.close());

const page = (token: string, query: Record<string, string | number> = {}) =>
  s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token, query });
const names = (items: { id: string }[]) => items.map((i) => Object.keys(ids).find((k) => ids[k] === i.id));

describe("GetTaskInfoByPage visibility", () => {
  it("shows a main account every task of its tenant, newest first, in the task shape", async () => {
    const res = await page(a.token);
    expect(res.status).toBe(200);
    expect(res.body.result.totalCount).toBe(4);
    expect(names(res.body.result.items)).toEqual(["a4", "a3", "a2", "a1"]);
    expect(res.body.result.items[2]).toEqual({
      id: ids.a2,
      taskType: TaskType.Publish,
      taskStatus: TaskStatus.Running,
      content: "task a2",
      creationTime: "2024-01-02T10:00:00.000Z",
      creatorId: sub1.id,
      creatorName: sub1Name,
      lastUpdateTime: "2024-01-02T10:00:00.000Z",
      taskRemark: null,
      progress: 40,
    });
  });

  it("shows a sub-account only the tasks it created", async () => {
    const one = await page(sub1.token);
    expect(one.body.result.totalCount).toBe(2);
    expect(names(one.body.result.items)).toEqual(["a3", "a2"]);
    const two = await page(sub2.token);
    expect(names(two.body.result.items)).toEqual(["a4"]);
  });

  it("never shows tenant B tenant A's tasks, even with a forged __tenant header", async () => {
    const res = await page(b.token);
    expect(names(res.body.result.items)).toEqual(["b1"]);
    const forged = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: b.token, tenant: a.tenantId });
    expect(forged.status).toBe(403);
    const byName = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: b.token, tenant: a.tenantName });
    expect(byName.status).toBe(403);
  });

  it("shows the host only its own tasks", async () => {
    const res = await page(admin);
    expect(names(res.body.result.items)).toEqual(["h1"]);
  });

  it("needs a login", async () => {
    expect((await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage")).status).toBe(401);
  });
});

describe("GetTaskInfoByPage filters, sorting and paging", () => {
  it("filters by type, status and creation time range (both ends inclusive)", async () => {
    expect(names((await page(a.token, { TaskType: TaskType.Collect })).body.result.items)).toEqual(["a3", "a1"]);
    expect(names((await page(a.token, { taskStatus: TaskStatus.Running })).body.result.items)).toEqual(["a2"]);
    expect(names((await page(a.token, { TaskType: TaskType.Collect, TaskStatus: TaskStatus.Failed })).body.result.items)).toEqual(["a3"]);
    expect(
      names((await page(a.token, { StartDate: "2024-01-02T10:00:00Z", EndDate: "2024-01-03T10:00:00.000Z" })).body.result.items),
    ).toEqual(["a3", "a2"]);
    expect(names((await page(a.token, { StartDate: "2024-01-03" })).body.result.items)).toEqual(["a4", "a3"]);
    expect(names((await page(a.token, { EndDate: "2024-01-01T23:59:59Z" })).body.result.items)).toEqual(["a1"]);
    expect((await page(sub1.token, { TaskType: TaskType.ExportProducts })).body.result).toEqual({
      items: [],
      totalCount: 0,
      totalCountCapped: false,
    });
  });

  it("filters a main account's tasks by creator; a sub-account naming another creator sees nothing", async () => {
    expect(names((await page(a.token, { UserId: sub1.id })).body.result.items)).toEqual(["a3", "a2"]);
    expect(names((await page(a.token, { UserId: a.userId.toUpperCase() })).body.result.items)).toEqual(["a1"]);
    expect(names((await page(sub1.token, { UserId: sub1.id })).body.result.items)).toEqual(["a3", "a2"]);
    expect((await page(sub1.token, { UserId: sub2.id })).body.result.totalCount).toBe(0);
    expect((await page(b.token, { UserId: sub1.id })).body.result.totalCount).toBe(0);
  });

  it("sorts on the whitelist and pages with the total count", async () => {
    expect(names((await page(a.token, { Sorting: "creationTime asc" })).body.result.items)).toEqual(["a1", "a2", "a3", "a4"]);
    expect(names((await page(a.token, { Sorting: "Progress DESC" })).body.result.items)).toEqual(["a1", "a2", "a4", "a3"]);
    expect(names((await page(a.token, { Sorting: "taskStatus" })).body.result.items)).toEqual(["a4", "a2", "a1", "a3"]);
    const p = await page(a.token, { SkipCount: 1, MaxResultCount: 2 });
    expect(p.body.result.totalCount).toBe(4);
    expect(names(p.body.result.items)).toEqual(["a3", "a2"]);
    const past = await page(a.token, { SkipCount: 10 });
    expect(past.body.result).toEqual({ items: [], totalCount: 4, totalCountCapped: false });
  });

  it.each([
    [{ TaskType: 99 }, "TaskType:"],
    [{ TaskType: "collect" }, "TaskType:"],
    [{ TaskStatus: 5 }, "TaskStatus:"],
    [{ TaskStatus: "1.5" }, "TaskStatus:"],
    [{ StartDate: "yesterday" }, "StartDate:"],
    [{ EndDate: "2024-13-45" }, "EndDate:"],
    [{ Sorting: "content asc" }, "Sorting:"],
    [{ Sorting: "creationTime; drop table task_infos" }, "Sorting:"],
    [{ MaxResultCount: 1001 }, "MaxResultCount:"],
    [{ SkipCount: -1 }, "SkipCount:"],
    [{ UserId: "someone" }, "UserId:"],
  ])("refuses %j with 400", async (query, text) => {
    const res = await page(a.token, query);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContain(text);
  });

  it("refuses a start after the end with 400", async () => {
    const res = await page(a.token, { StartDate: "2024-02-01", EndDate: "2024-01-01" });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("开始时间不能晚于结束时间");
  });
});

describe("GetTaskInfoByPage count cap", () => {
  it("counts exactly up to TASK_COUNT_CAP and says so beyond, still paging past it", async () => {
    const c = await s.createTenant();
    const rows = Array.from({ length: TASK_COUNT_CAP + 2 }, (_, i) => ({
      tenantId: c.tenantId,
      id: randomUUID(),
      taskType: TaskType.ExportProducts,
      taskStatus: TaskStatus.Succeeded,
      content: `export ${i}`,
      creatorId: c.userId,
      creationTime: new Date(Date.UTC(2024, 0, 1) + i * 1000),
    }));
    await inScope(s.database.db, { tenantId: c.tenantId }, (tx) => tx.insert(taskInfos).values(rows));
    const first = await page(c.token, { MaxResultCount: 5 });
    expect(first.body.result).toMatchObject({ totalCount: TASK_COUNT_CAP, totalCountCapped: true });
    expect(first.body.result.items[0]).toMatchObject({ content: `export ${TASK_COUNT_CAP + 1}`, creatorName: c.userName });
    const last = await page(c.token, { SkipCount: TASK_COUNT_CAP, MaxResultCount: 5 });
    expect(last.body.result.items.map((t: { content: string }) => t.content)).toEqual(["export 1", "export 0"]);
    expect((await page(c.token, { TaskStatus: TaskStatus.Failed })).body.result).toEqual({
      items: [],
      totalCount: 0,
      totalCountCapped: false,
    });
  });
});
