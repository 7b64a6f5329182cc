// What the product centre adds to other areas: the products ClearSubAccountInfo removes with a sub-account, the
// per-user product figures of the sub-account statistics, and the workbench's product card and daily trend. deps.ts
// hands them to the users and workbench services.
import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { productCounts, products } from "../../db/schema.ts";
import { deleteOwnedRows, type UserStatContributor } from "../users/index.ts";
import { type WorkbenchContributor, type WorkbenchScope, countPerDay } from "../workbench/index.ts";

function liveProducts(scope: WorkbenchScope): SQL {
  const live = and(eq(products.tenantId, scope.tenantId), eq(products.isDeleted, false))!;
  return scope.role === "sub" ? and(live, eq(products.userId, scope.userId))! : live;
}

export const productDataCleaner = deleteOwnedRows("商品", products);

/** productCount: the live products each user owns, or those created in the statistics' date range when it has one. */
export const productStatContributor: UserStatContributor = async (tx, scope, rows) => {
  if (!scope.userIds.length) return;
  const counts =
    scope.startDate || scope.endDate
      ? await tx
          .select({ userId: products.userId, n: sql<number>`count(*)`.mapWith(Number) })
          .from(products)
          .where(
            and(
              eq(products.tenantId, scope.tenantId),
              eq(products.isDeleted, false),
              inArray(products.userId, scope.userIds),
              scope.startDate ? gte(products.creationTime, scope.startDate) : undefined,
              scope.endDate ? lt(products.creationTime, scope.endDate) : undefined,
            ),
          )
          .groupBy(products.userId)
      : await tx
          .select({ userId: productCounts.userId, n: productCounts.count })
          .from(productCounts)
          .where(and(eq(productCounts.tenantId, scope.tenantId), inArray(productCounts.userId, scope.userIds)));
  const byUser = new Map(counts.map((c) => [c.userId, Number(c.n)]));
  for (const r of rows) r.productCount = byUser.get(r.userId) ?? 0;
};

export const productWorkbenchContributor: WorkbenchContributor = {
  key: "products",
  appliesTo: (u) => !u.isHost,
  async cards(tx, scope) {
    const [total] = await tx
      .select({ n: sql<number>`coalesce(sum(${productCounts.count}), 0)`.mapWith(Number) })
      .from(productCounts)
      .where(and(eq(productCounts.tenantId, scope.tenantId), scope.role === "sub" ? eq(productCounts.userId, scope.userId) : undefined));
    return [{ key: "products", title: scope.role === "sub" ? "我的商品" : "商品总数", value: total.n }];
  },
  async trends(tx, scope, days) {
    return [
      {
        key: "products.created",
        title: "新增商品",
        points: await countPerDay(tx, products, products.creationTime, liveProducts(scope), days),
      },
    ];
  },
};
