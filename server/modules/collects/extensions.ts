// What the collection centre adds to other areas: the data ClearSubAccountInfo removes for a sub-account, and the
// workbench's collection card and daily trend. deps.ts hands them to the users and workbench services.
import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { aquiredUrls, collectTasks, collections } from "../../db/schema.ts";
import { deleteOwnedRows, type UserDataCleaner } from "../users/index.ts";
import { type WorkbenchContributor, type WorkbenchScope, countPerDay } from "../workbench/index.ts";
import { CollectStatus } from "#shared/contract/enums.ts";

/** The caller's collections: the tenant's for a main account, its own for a sub-account. */
function collectionWhere(scope: WorkbenchScope): SQL {
  const tenant = eq(collections.tenantId, scope.tenantId);
  return scope.role === "sub" ? and(tenant, eq(collections.userId, scope.userId))! : tenant;
}

export const collectDataCleaners: UserDataCleaner[] = [
  deleteOwnedRows("采集商品", collections),
  deleteOwnedRows("采集任务", collectTasks),
  deleteOwnedRows("采集链接", aquiredUrls),
];

export const collectWorkbenchContributor: WorkbenchContributor = {
  key: "collections",
  appliesTo: (u) => !u.isHost,
  async cards(tx, scope) {
    const [r] = await tx
      .select({
        total: count(),
        migrated: sql<number>`count(*) filter (where ${collections.status} = ${CollectStatus.Migrated})`.mapWith(Number),
        flagged: sql<number>`count(*) filter (where ${collections.infringementWord} is not null)`.mapWith(Number),
      })
      .from(collections)
      .where(collectionWhere(scope));
    return [
      {
        key: "collections",
        title: scope.role === "sub" ? "我的采集" : "采集商品",
        value: Number(r.total),
        hint: `已移入产品 ${r.migrated} · 侵权标记 ${r.flagged}`,
      },
    ];
  },
  async trends(tx, scope, days) {
    return [
      {
        key: "collections.created",
        title: "新增采集",
        points: await countPerDay(tx, collections, collections.creationTime, collectionWhere(scope), days),
      },
    ];
  },
};
