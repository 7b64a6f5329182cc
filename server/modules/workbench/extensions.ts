// The workbench's figures come from the areas that own them: each contributor says whom it applies to and answers its
// cards and daily trends for the caller's scope. Other areas (products, collects, later orders) export theirs and
// deps.ts hands them all to the workbench service; the workbench module does not know them. Every query is set-based:
// one statement per card group and one grouped statement per trend, never a query per day.
import { and, count, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, taskInfos, tenants, userSessions, users } from "../../db/schema.ts";
import type { SessionUser } from "../../http/session-user.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { WorkbenchCard, WorkbenchTrend } from "#shared/contract/workbench.ts";
import { countPerDay, startOfUtcDay, type WorkbenchWindow } from "./series.ts";

/** host: across every tenant (the call opts out of the tenant policy); main: the whole tenant; sub: its own rows. */
export type WorkbenchRole = "host" | "main" | "sub";

export type WorkbenchScope = {
  role: WorkbenchRole;
  /** The caller's tenant (HOST_TENANT_ID for the host). */
  tenantId: string;
  userId: string;
  /** The moment the figures are taken at; "today" is its UTC day. */
  now: Date;
};

export type WorkbenchContributor = {
  key: string;
  appliesTo(user: SessionUser): boolean;
  cards?(tx: Tx, scope: WorkbenchScope): Promise<WorkbenchCard[]>;
  /** Points may leave out days without events (the service fills them with 0) but never repeat a day. */
  trends?(tx: Tx, scope: WorkbenchScope, days: WorkbenchWindow): Promise<WorkbenchTrend[]>;
};

export function workbenchRole(user: Pick<SessionUser, "isHost" | "isMainAccount">): WorkbenchRole {
  return user.isHost ? "host" : user.isMainAccount ? "main" : "sub";
}

const isHost = (u: SessionUser) => workbenchRole(u) === "host";
const isMain = (u: SessionUser) => workbenchRole(u) === "main";
const isTenantUser = (u: SessionUser) => workbenchRole(u) !== "host";

const countWhere = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
const activeHint = (active: number, total: number) => `启用 ${active} · 停用 ${total - active}`;

/** The caller's tasks: the tenant's for a main account, its own for a sub-account (as the task centre shows them). */
function taskWhere(scope: WorkbenchScope): SQL {
  const tenant = eq(taskInfos.tenantId, scope.tenantId);
  return scope.role === "sub" ? and(tenant, eq(taskInfos.creatorId, scope.userId))! : tenant;
}

/** Logins (sessions opened): every tenant's for the host, the tenant's for a main account, its own for a sub-account. */
function sessionWhere(scope: WorkbenchScope): SQL {
  if (scope.role === "host") return ne(userSessions.tenantId, HOST_TENANT_ID);
  const tenant = eq(userSessions.tenantId, scope.tenantId);
  return scope.role === "sub" ? and(tenant, eq(userSessions.userId, scope.userId))! : tenant;
}

/** The platform's own figures: tenants and users for the host, sub-accounts, tasks and logins for a tenant. */
export const coreWorkbenchContributors: WorkbenchContributor[] = [
  {
    key: "tenants",
    appliesTo: isHost,
    async cards(tx) {
      const [r] = await tx.select({ total: count(), active: countWhere(eq(tenants.isActive, true)) }).from(tenants);
      return [{ key: "tenants", title: "租户", value: r.total, hint: activeHint(r.active, r.total) }];
    },
    async trends(tx, _scope, days) {
      return [{ key: "tenants.created", title: "新增租户", points: await countPerDay(tx, tenants, tenants.creationTime, undefined, days) }];
    },
  },
  {
    key: "users",
    appliesTo: isHost,
    async cards(tx) {
      const [r] = await tx
        .select({ total: count(), main: countWhere(eq(users.isMainAccount, true)) })
        .from(users)
        .where(and(ne(users.tenantId, HOST_TENANT_ID), eq(users.isDeleted, false)));
      return [{ key: "users", title: "租户用户", value: r.total, hint: `主账号 ${r.main} · 子账号 ${r.total - r.main}` }];
    },
  },
  {
    key: "subAccounts",
    appliesTo: isMain,
    async cards(tx, scope) {
      const [r] = await tx
        .select({ total: count(), active: countWhere(eq(users.isActive, true)) })
        .from(users)
        .where(
          and(eq(users.tenantId, scope.tenantId), eq(users.isMainAccount, false), eq(users.isHost, false), eq(users.isDeleted, false)),
        );
      return [{ key: "subAccounts", title: "子账号", value: r.total, hint: activeHint(r.active, r.total) }];
    },
  },
  {
    key: "tasks",
    appliesTo: isTenantUser,
    async cards(tx, scope) {
      const rows = await tx
        .select({ status: taskInfos.taskStatus, n: count() })
        .from(taskInfos)
        .where(taskWhere(scope))
        .groupBy(taskInfos.taskStatus);
      const of = (...statuses: number[]) => rows.filter((r) => statuses.includes(r.status)).reduce((sum, r) => sum + r.n, 0);
      const total = rows.reduce((sum, r) => sum + r.n, 0);
      const cancelled = of(TaskStatus.Cancelled);
      const hint =
        `进行中 ${of(TaskStatus.Pending, TaskStatus.Running)} · 已完成 ${of(TaskStatus.Succeeded)} · 失败 ${of(TaskStatus.Failed)}` +
        (cancelled ? ` · 已取消 ${cancelled}` : "");
      return [{ key: "tasks", title: scope.role === "sub" ? "我的任务" : "后台任务", value: total, hint }];
    },
    async trends(tx, scope, days) {
      return [
        {
          key: "tasks.created",
          title: "新建任务",
          points: await countPerDay(tx, taskInfos, taskInfos.creationTime, taskWhere(scope), days),
        },
      ];
    },
  },
  {
    key: "logins",
    appliesTo: () => true,
    async cards(tx, scope) {
      const today = startOfUtcDay(scope.now);
      const weekStart = new Date(today.getTime() - 6 * 86_400_000);
      const [r] = await tx
        .select({ today: countWhere(sql`${userSessions.creationTime} >= ${today.toISOString()}::timestamptz`), week: count() })
        .from(userSessions)
        .where(and(sessionWhere(scope), sql`${userSessions.creationTime} >= ${weekStart.toISOString()}::timestamptz`));
      return [{ key: "logins", title: scope.role === "sub" ? "我的今日登录" : "今日登录", value: r.today, hint: `近7天 ${r.week} 次` }];
    },
    async trends(tx, scope, days) {
      return [
        {
          key: "logins",
          title: "登录次数",
          points: await countPerDay(tx, userSessions, userSessions.creationTime, sessionWhere(scope), days),
        },
      ];
    },
  },
];
