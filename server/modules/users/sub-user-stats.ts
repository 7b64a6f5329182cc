// The sub-account statistics (GetSubUserStaticInfo): the tenant's users, each with the figures the areas that have
// per-user figures add (extensions.ts UserStatContributor).
import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import type { subUserStatQuery } from "#shared/contract/users.ts";
import type { UserStatContributor } from "./extensions.ts";

export function createSubUserStats({ userStatContributors }: { userStatContributors: UserStatContributor[] }) {
  async function getSubUserStaticInfo(ctx: CallContext, q: z.output<typeof subUserStatQuery>) {
    const tenantId = ctx.user!.tenantId;
    const conditions = [eq(users.tenantId, tenantId), eq(users.isDeleted, false)];
    if (q.UserId) conditions.push(eq(users.id, q.UserId));
    const list = await ctx.tx
      .select({ id: users.id, userName: users.userName })
      .from(users)
      .where(and(...conditions))
      .orderBy(asc(users.creationTime));
    const rows = list.map((u) => ({ userId: u.id, userName: u.userName, productCount: 0, totalAmount: "0" }));
    // Each area that has per-user figures adds them (products: productCount, orders: totalAmount) in one set-based query.
    for (const contribute of userStatContributors) {
      await contribute(ctx.tx, { tenantId, userIds: list.map((u) => u.id), startDate: q.StartDate, endDate: q.EndDate }, rows);
    }
    return rows;
  }

  return { getSubUserStaticInfo };
}
