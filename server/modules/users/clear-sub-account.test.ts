// The job queue end to end: ClearSubAccountInfo records a task, the real pg-boss worker runs it, the task centre
// shows it succeed, and the cleared sub-account's sessions are gone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

/** A hung call fails the test in seconds with a reason instead of stalling the whole file. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => within(s?.close() ?? Promise.resolve(), 10_000, "closing the test server").catch(() => {}));

async function waitForTask(token: string, taskId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", {
      token,
      query: { TaskType: TaskType.ClearSubAccountInfo, MaxResultCount: 100 },
    });
    expect(res.status).toBe(200);
    const task = res.body.result.items.find((t: { id: string }) => t.id === taskId);
    if (task && (task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} not finished in ${timeoutMs} ms: ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("ClearSubAccountInfo", () => {
  it("queues a task that the worker runs to success, ending the sub-account's sessions", async () => {
    const sub = await s.createSubUser(a, undefined, { remark: "待清理" });
    const other = await s.createSubUser(a);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(200);

    // (On PGlite this call hangs while jobs.send runs outside the call's transaction on the one connection.)
    const res = await within(
      s.api("POST", "/api/User/ClearSubAccountInfo", { token: a.token, query: { id: sub.id } }),
      15_000,
      "ClearSubAccountInfo",
    );
    expect(res.status).toBe(200);
    const taskId = res.body.result.taskId;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);

    const task = await waitForTask(a.token, taskId);
    expect(task).toMatchObject({
      taskType: TaskType.ClearSubAccountInfo,
      taskStatus: TaskStatus.Succeeded,
      progress: 100,
      creatorId: a.userId,
    });
    expect(task.content).toContain(sub.userName);
    expect(task.taskRemark).toContain("登录会话 1");

    expect((await s.api("GET", "/api/User/GetMyInfo", { token: sub.token })).status).toBe(401);
    // Only that sub-account: the main account and the other sub-account keep working.
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: a.token })).status).toBe(200);
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: other.token })).status).toBe(200);
    const cleared = await s.api("GET", "/api/User/GetSubUserById", { token: a.token, query: { id: sub.id } });
    expect(cleared.body.result.remark).toBeNull();
    // The sub-account can log in again; it did not create the task, so it does not see it.
    const again = (await s.login(sub.userName, sub.password, a.tenantName)).access_token;
    const seen = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: again });
    expect(seen.body.result.items.some((t: { id: string }) => t.id === taskId)).toBe(false);
    // Tenant B does not see tenant A's task.
    const fromB = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: b.token, query: { MaxResultCount: 1000 } });
    expect(fromB.body.result).toEqual({ items: [], totalCount: 0, totalCountCapped: false });
  });

  it("is refused for another tenant's sub-account, the main account itself, a sub-account caller and bad ids", async () => {
    const subA = await within(s.createSubUser(a), 15_000, "CreateSubUser");
    const fromB = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: b.token, query: { id: subA.id } });
    expect(fromB.status).toBe(404);
    const self = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: a.token, query: { id: a.userId } });
    expect(self.status).toBe(403);
    const bySub = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: subA.token, query: { id: subA.id } });
    expect(bySub.status).toBe(403);
    const missing = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: a.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toContain("The parameter id cannot be null.");
    const bad = await s.api("POST", "/api/User/ClearSubAccountInfo", { token: a.token, query: { id: "nope" } });
    expect(bad.status).toBe(400);
    // No task was recorded for any refused call, and the sub-account still works.
    expect((await s.api("GET", "/api/User/GetMyInfo", { token: subA.token })).status).toBe(200);
    const tasks = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", {
      token: a.token,
      query: { TaskType: TaskType.ClearSubAccountInfo },
    });
    expect(tasks.body.result.totalCount).toBe(1);
  });
});
