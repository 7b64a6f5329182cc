// The workbench through the real HTTP stack: exact figures per role, zero-filled UTC days, the Days bounds, and that
// no tenant's figures reach another tenant.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { taskInfos, tenants, userSessions } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, uniqueName, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { WorkbenchInfo } from "#shared/contract/workbench.ts";
import { windowOf } from "./series.ts";

const DAY = 86_400_000;

let s: TestServer;
let admin: string;
let a: TestTenant;
let b: TestTenant;
let sub1: { id: string; token: string };
let sub2: { id: string; token: string };

/** YYYY-MM-DD of the UTC day `offset` days before today. */
const dayAgo = (offset: number) => new Date(Date.now() - offset * DAY).toISOString().slice(0, 10);
/** Noon UTC of the day `offset` days before today. */
const noonAgo = (offset: number) => new Date(`${dayAgo(offset)}T12:00:00.000Z`);

async function addTask(tenantId: string, creatorId: string | null, taskStatus: number, creationTime: Date) {
  await inScope(s.database.db, { tenantId }, (tx) =>
    tx.insert(taskInfos).values({
      tenantId,
      id: randomUUID(),
      taskType: TaskType.Collect,
      taskStatus,
      content: "workbench test",
      creatorId,
      creationTime,
      lastUpdateTime: creationTime,
    }),
  );
}

async function addSession(tenantId: string, userId: string, creationTime: Date) {
  await inScope(s.database.db, { tenantId }, (tx) =>
    tx.insert(userSessions).values({ tenantId, id: randomUUID(), userId, creationTime, revokedAt: creationTime }),
  );
}

async function info(token: string, query: Record<string, string | number> = {}): Promise<WorkbenchInfo> {
  const res = await s.api("GET", "/api/Workbench/GetWorkbenchInfo", { token, query });
  expect(res.status, res.raw).toBe(200);
  return res.body.result;
}

const card = (i: WorkbenchInfo, key: string) => i.cards.find((c) => c.key === key);
const trend = (i: WorkbenchInfo, key: string) => {
  const t = i.trends.find((x) => x.key === key);
  if (!t) throw new Error(`no trend ${key}`);
  return Object.fromEntries(t.points.map((p) => [p.date, p.value]));
};
const nonZero = (points: Record<string, number>) => Object.fromEntries(Object.entries(points).filter(([, v]) => v !== 0));

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  // Each createTenant / createSubUser logs in once: tenant A has 3 logins today, tenant B 1.
  a = await s.createTenant();
  b = await s.createTenant();
  sub1 = await s.createSubUser(a);
  sub2 = await s.createSubUser(a);
  const disabled = await s.api("PUT", "/api/User/Enabled", { token: a.token, query: { userId: sub2.id, enable: false } });
  expect(disabled.status).toBe(204);

  // A: a second login of the main account today, and older logins (one of them outside a 7-day window).
  await s.login(a.userName, a.password, a.tenantName);
  await addSession(a.tenantId, a.userId, noonAgo(2));
  await addSession(a.tenantId, sub1.id, noonAgo(2));
  await addSession(a.tenantId, sub1.id, noonAgo(10));
  // The last millisecond of yesterday (UTC) belongs to yesterday.
  await addSession(a.tenantId, a.userId, new Date(Date.parse(`${dayAgo(0)}T00:00:00.000Z`) - 1));

  // A's tasks: 2 by the main account, 3 by sub1, in several states and days; one older than 90 days.
  await addTask(a.tenantId, a.userId, TaskStatus.Succeeded, noonAgo(0));
  await addTask(a.tenantId, a.userId, TaskStatus.Failed, noonAgo(3));
  await addTask(a.tenantId, sub1.id, TaskStatus.Running, noonAgo(0));
  await addTask(a.tenantId, sub1.id, TaskStatus.Pending, noonAgo(0));
  await addTask(a.tenantId, sub1.id, TaskStatus.Cancelled, noonAgo(120));

  // B's own figures, which A must never see: many tasks and logins, and three sub-accounts.
  for (let i = 0; i < 4; i++) await addTask(b.tenantId, b.userId, TaskStatus.Failed, noonAgo(i));
  for (let i = 0; i < 3; i++) await s.createSubUser(b);
  for (let i = 0; i < 5; i++) await addSession(b.tenantId, b.userId, noonAgo(1));
});
afterAll(() => s?.close());

describe("GetWorkbenchInfo for a main account", () => {
  it("counts the tenant's sub-accounts, tasks and logins exactly", async () => {
    const i = await info(a.token);
    expect(i.cards.map((c) => c.key)).toEqual([
      "subAccounts",
      "tasks",
      "logins",
      "collections",
      "products",
      "orders.today",
      "orders.sales",
      "orders.profit",
      "wallet.balance",
      "wallet.monthSpending",
    ]);
    expect(card(i, "subAccounts")).toEqual({ key: "subAccounts", title: "子账号", value: 2, hint: "启用 1 · 停用 1" });
    expect(card(i, "tasks")).toEqual({ key: "tasks", title: "后台任务", value: 5, hint: "进行中 2 · 已完成 1 · 失败 1 · 已取消 1" });
    // Today: boss, sub1, sub2 at creation plus the boss's second login; 7 days: plus yesterday's and the two of 2 days ago.
    expect(card(i, "logins")).toEqual({ key: "logins", title: "今日登录", value: 4, hint: "近7天 7 次" });
  });

  it("answers 14 zero-filled UTC days by default, oldest first, ending today", async () => {
    const i = await info(a.token);
    expect(i.trends.map((t) => t.key)).toEqual([
      "tasks.created",
      "logins",
      "collections.created",
      "products.created",
      "orders.created",
      "orders.sales",
      "orders.profit",
    ]);
    for (const t of i.trends) {
      expect(t.points).toHaveLength(14);
      expect(t.points.map((p) => p.date)).toEqual(windowOf(14).dates);
      expect(t.points[0].date).toBe(dayAgo(13));
      expect(t.points.at(-1)!.date).toBe(dayAgo(0));
      for (const p of t.points) expect(p.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(nonZero(trend(i, "tasks.created"))).toEqual({ [dayAgo(0)]: 3, [dayAgo(3)]: 1 });
    expect(nonZero(trend(i, "logins"))).toEqual({ [dayAgo(0)]: 4, [dayAgo(1)]: 1, [dayAgo(2)]: 2, [dayAgo(10)]: 1 });
  });

  it("narrows the trends to the requested window", async () => {
    const week = await info(a.token, { Days: 7 });
    expect(week.trends.every((t) => t.points.length === 7)).toBe(true);
    expect(nonZero(trend(week, "logins"))).toEqual({ [dayAgo(0)]: 4, [dayAgo(1)]: 1, [dayAgo(2)]: 2 });
    // Query names match case-insensitively, and the cards do not depend on the window.
    const quarter = await info(a.token, { days: 90 });
    expect(quarter.trends.every((t) => t.points.length === 90)).toBe(true);
    expect(quarter.cards).toEqual(week.cards);
    expect(nonZero(trend(quarter, "tasks.created"))).toEqual({ [dayAgo(0)]: 3, [dayAgo(3)]: 1 });
  });

  it("never counts another tenant's rows", async () => {
    const i = await info(b.token);
    expect(card(i, "subAccounts")).toMatchObject({ value: 3, hint: "启用 3 · 停用 0" });
    expect(card(i, "tasks")).toMatchObject({ value: 4, hint: "进行中 0 · 已完成 0 · 失败 4" });
    // B's boss logged in once at creation, each sub once, plus the five sessions of yesterday.
    expect(card(i, "logins")).toMatchObject({ value: 4, hint: "近7天 9 次" });
    expect(nonZero(trend(i, "tasks.created"))).toEqual({ [dayAgo(0)]: 1, [dayAgo(1)]: 1, [dayAgo(2)]: 1, [dayAgo(3)]: 1 });
    // And A's figures are the same as before B's were added.
    expect(card(await info(a.token), "tasks")!.value).toBe(5);
  });
});

describe("GetWorkbenchInfo for a sub-account", () => {
  it("shows only its own tasks and logins", async () => {
    const i = await info(sub1.token);
    expect(i.cards.map((c) => c.key)).toEqual([
      "tasks",
      "logins",
      "collections",
      "products",
      "orders.today",
      "orders.sales",
      "orders.profit",
      "wallet.balance",
      "wallet.monthSpending",
    ]);
    expect(card(i, "tasks")).toEqual({ key: "tasks", title: "我的任务", value: 3, hint: "进行中 2 · 已完成 0 · 失败 0 · 已取消 1" });
    expect(card(i, "logins")).toEqual({ key: "logins", title: "我的今日登录", value: 1, hint: "近7天 2 次" });
    expect(nonZero(trend(i, "tasks.created"))).toEqual({ [dayAgo(0)]: 2 });
    expect(nonZero(trend(i, "logins"))).toEqual({ [dayAgo(0)]: 1, [dayAgo(2)]: 1, [dayAgo(10)]: 1 });
  });

  it("sees no sub-account figures", async () => {
    const i = await info(sub1.token);
    expect(card(i, "subAccounts")).toBeUndefined();
  });
});

describe("GetWorkbenchInfo for the host", () => {
  it("counts tenants, their users and their logins across all tenants", async () => {
    const c = await s.createTenant();
    const off = await s.api("POST", "/api/Hosted/OpenTenantAccount", {
      token: admin,
      body: { tenantName: uniqueName("off"), userName: "boss", pwd: "Passw0rd1" },
    });
    expect(off.status).toBe(200);
    await inScope(s.database.db, hostAllScope, (tx) =>
      tx.update(tenants).set({ isActive: false }).where(eq(tenants.id, off.body.result.tenantId)),
    );

    const i = await info(admin);
    expect(i.cards.map((x) => x.key)).toEqual(["tenants", "users", "logins"]);
    expect(card(i, "tenants")).toEqual({ key: "tenants", title: "租户", value: 4, hint: "启用 3 · 停用 1" });
    // A: boss + 2 subs; B: boss + 3 subs; C: boss; the stopped tenant: boss. The host's own account is not a tenant user.
    expect(card(i, "users")).toEqual({ key: "users", title: "租户用户", value: 9, hint: "主账号 4 · 子账号 5" });
    // Today: A 4, B 4, C 1 (the host's own login is not counted).
    expect(card(i, "logins")).toMatchObject({ value: 9 });
    expect(i.trends.map((t) => t.key)).toEqual(["tenants.created", "logins"]);
    expect(nonZero(trend(i, "tenants.created"))).toEqual({ [dayAgo(0)]: 4 });
    expect(nonZero(trend(i, "logins"))).toEqual({ [dayAgo(0)]: 9, [dayAgo(1)]: 6, [dayAgo(2)]: 2, [dayAgo(10)]: 1 });

    // A tenant still sees only itself after the host's call.
    expect(card(await info(c.token), "subAccounts")).toMatchObject({ value: 0, hint: "启用 0 · 停用 0" });
    expect(card(await info(c.token), "tasks")).toMatchObject({ value: 0, hint: "进行中 0 · 已完成 0 · 失败 0" });
  });
});

describe("GetWorkbenchInfo input", () => {
  it.each(["0", "6", "91", "1000", "abc", "7.5", ""])("refuses Days=%j with the error envelope", async (days) => {
    const res = await s.api("GET", "/api/Workbench/GetWorkbenchInfo", { token: a.token, query: { Days: days } });
    expect(res.status).toBe(400);
    expect(res.headers["_abperrorformat"]).toBe("true");
    expect(res.body.error.message).toEqual(expect.any(String));
    expect(res.body.error.validationErrors.map((v: { members: string[] }) => v.members)).toContainEqual(["Days"]);
  });

  it("needs a login", async () => {
    const res = await s.api("GET", "/api/Workbench/GetWorkbenchInfo");
    expect(res.status).toBe(401);
    expect(res.body.error.message).toEqual(expect.any(String));
  });
});
