// The host's maintenance of one tenant (spec §7 Hosted, issue 31). The long calls check their input and the tenant,
// then answer a task (tasks.ts, plans.ts); the others answer in the call (caches.ts, indexes.ts, statistics.ts).
// Host calls run with the tenant policy opted out, so every statement names its tenant.
import { and, count, eq, gte, lt, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { Database, Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, meliCallLogs, products, tenants, users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { TaskType } from "#shared/contract/enums.ts";
import type {
  AdminTaskStarted,
  clearMeliStatQuery,
  clearTenantInfoQuery,
  removeAllDelProductQuery,
  returnDelProductQuery,
} from "#shared/contract/tenant-admin.ts";
import { createCacheCalls } from "./caches.ts";
import { createTenantMongoIndex } from "./indexes.ts";
import { taskPlans, type ClearLogParams, type PurgeParams, type RestoreParams } from "./plans.ts";
import { getStatLogStatics, getTenantStatisticsInfo } from "./statistics.ts";
import { createAdminTasks } from "./tasks.ts";
import { CLEARED_TABLES } from "./tenant-tables.ts";

type TenantAdminDeps = {
  database: Database;
  jobs: Jobs;
  log: FastifyBaseLogger;
  /** The picture hosts this process found down (publishing and listing edits share the map). */
  downHosts: Map<string, number>;
};

const day = (d: Date) => d.toISOString().replace("T", " ").slice(0, 16);

/** A tenant the host may maintain: it exists, and it is not the host's own. */
async function maintainedTenant(tx: Tx, tenantId: string) {
  if (tenantId === HOST_TENANT_ID) throw badRequest("不能对平台管理员自身执行此操作", "tenantId is the host's");
  const [tenant] = await tx.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  if (!tenant) throw notFound("公司未找到");
  return tenant;
}

async function countWhere(tx: Tx, table: typeof products | typeof meliCallLogs, where: SQL | undefined): Promise<number> {
  const [r] = await tx.select({ n: count() }).from(table).where(where);
  return Number(r?.n ?? 0);
}

export function createTenantAdminService(deps: TenantAdminDeps) {
  const tasks = createAdminTasks(deps, taskPlans);

  async function returnDelProduct(ctx: CallContext, q: z.output<typeof returnDelProductQuery>): Promise<AdminTaskStarted> {
    const tenant = await maintainedTenant(ctx.tx, q.tenantId);
    if (q.userId) {
      const [owner] = await ctx.tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenant.id), eq(users.id, q.userId)));
      if (!owner) throw notFound("用户不存在");
    }
    const total = await countWhere(
      ctx.tx,
      products,
      and(
        eq(products.tenantId, tenant.id),
        eq(products.isDeleted, true),
        gte(products.deletionTime, q.startTime),
        lt(products.deletionTime, q.endTime),
        q.userId ? eq(products.userId, q.userId) : undefined,
      ),
    );
    const params: RestoreParams = {
      userId: q.userId ?? null,
      startTime: q.startTime.toISOString(),
      endTime: q.endTime.toISOString(),
      hostUserId: ctx.user!.id,
    };
    const taskId = await tasks.start(ctx, {
      kind: "restore",
      tenantId: tenant.id,
      params,
      taskType: TaskType.Maintenance,
      content: `恢复公司 ${tenant.name} 在 ${day(q.startTime)} 至 ${day(q.endTime)}（UTC）删除的商品`,
    });
    return { taskId, total };
  }

  async function removeAllDelProduct(ctx: CallContext, q: z.output<typeof removeAllDelProductQuery>): Promise<AdminTaskStarted> {
    const tenant = await maintainedTenant(ctx.tx, q.tenantId);
    const total = await countWhere(ctx.tx, products, and(eq(products.tenantId, tenant.id), eq(products.isDeleted, true)));
    const params: PurgeParams = { cutoff: new Date().toISOString() };
    const taskId = await tasks.start(ctx, {
      kind: "purge",
      tenantId: tenant.id,
      params,
      taskType: TaskType.PurgeDeletedProducts,
      content: `彻底删除公司 ${tenant.name} 已删除的商品`,
    });
    return { taskId, total };
  }

  async function clearMeliStat(ctx: CallContext, q: z.output<typeof clearMeliStatQuery>): Promise<AdminTaskStarted> {
    const tenant = await maintainedTenant(ctx.tx, q.TenantId);
    const total = await countWhere(
      ctx.tx,
      meliCallLogs,
      and(eq(meliCallLogs.tenantId, tenant.id), q.BeforeTime ? lt(meliCallLogs.creationTime, q.BeforeTime) : undefined),
    );
    const params: ClearLogParams = { beforeTime: q.BeforeTime?.toISOString() ?? null };
    const taskId = await tasks.start(ctx, {
      kind: "clearMeliStat",
      tenantId: tenant.id,
      params,
      taskType: TaskType.Maintenance,
      content: `清除公司 ${tenant.name} 的美客多调用日志${q.BeforeTime ? `（${day(q.BeforeTime)} 之前）` : ""}`,
    });
    return { taskId, total };
  }

  /** The typed name must be the tenant's name exactly (after trimming): a slip of the finger clears nothing. */
  async function clearTenantInfo(ctx: CallContext, q: z.output<typeof clearTenantInfoQuery>): Promise<AdminTaskStarted> {
    const tenant = await maintainedTenant(ctx.tx, q.tenantId);
    if (q.confirmTenantName !== tenant.name) {
      throw badRequest("输入的公司名称与要清空的公司不一致，未清空任何数据", "confirmTenantName does not match the tenant's name", [
        { message: "请输入要清空的公司名称", members: ["confirmTenantName"] },
      ]);
    }
    const taskId = await tasks.start(ctx, {
      kind: "clearTenant",
      tenantId: tenant.id,
      params: {},
      taskType: TaskType.Maintenance,
      content: `清空公司 ${tenant.name} 的数据（账号与资金记录保留）`,
    });
    return { taskId, total: CLEARED_TABLES.length };
  }

  const caches = createCacheCalls({ downHosts: deps.downHosts, maintainedTenant });

  return {
    returnDelProduct,
    removeAllDelProduct,
    clearMeliStat,
    clearTenantInfo,
    removeTenantCache: caches.removeTenantCache,
    removeDist: caches.removeDist,
    createTenantMongoIndex: (ctx: CallContext, tenantId: string | undefined) =>
      createTenantMongoIndex(ctx, tenantId ? maintainedTenant(ctx.tx, tenantId) : null),
    getStatLogStatics,
    getTenantStatisticsInfo,
    workers: tasks.workers,
  };
}

export type TenantAdminService = ReturnType<typeof createTenantAdminService>;
