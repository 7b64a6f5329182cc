// Extension points through which other areas join the user calls without the users module knowing them: what to clear
// when a sub-account is cleared, which per-user figures the sub-account statistics show, and the shop figures of a
// user's summary. Each area exports its hooks; deps.ts hands them to the users service.
import { and, eq, isNull } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "../../db/client.ts";
import type { AccountGroupResponse } from "#shared/contract/meli.ts";
import { passwordResetCodes, userSessions, users } from "../../db/schema.ts";

export type UserDataCleaner = { label: string; clear(tx: Tx, tenantId: string, userId: string): Promise<number> };

/** A table whose rows belong to one user of a tenant (tenant_id, user_id, id). */
type OwnedTable = PgTable & { tenantId: PgColumn; userId: PgColumn; id: PgColumn };

/** The cleaner for an area that deletes every row of `table` the user owns. */
export function deleteOwnedRows(label: string, table: OwnedTable): UserDataCleaner {
  return {
    label,
    async clear(tx, tenantId, userId) {
      const rows = await tx
        .delete(table)
        .where(and(eq(table.tenantId, tenantId), eq(table.userId, userId)))
        .returning({ id: table.id });
      return rows.length;
    },
  };
}

/** What clearing a sub-account does to its own login data. */
export const accountDataCleaners: UserDataCleaner[] = [
  {
    label: "登录会话",
    async clear(tx, tenantId, userId) {
      const rows = await tx
        .update(userSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(userSessions.tenantId, tenantId), eq(userSessions.userId, userId), isNull(userSessions.revokedAt)))
        .returning({ id: userSessions.id });
      return rows.length;
    },
  },
  {
    label: "密码重置令牌",
    async clear(tx, tenantId, userId) {
      const rows = await tx
        .delete(passwordResetCodes)
        .where(and(eq(passwordResetCodes.tenantId, tenantId), eq(passwordResetCodes.userId, userId)))
        .returning({ id: passwordResetCodes.id });
      return rows.length;
    },
  },
  {
    label: "备注",
    async clear(tx, tenantId, userId) {
      const rows = await tx
        .update(users)
        .set({ remark: null, lastModificationTime: new Date() })
        .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
        .returning({ id: users.id });
      return rows.length;
    },
  },
];

type UserStatRow = { userId: string; userName: string; productCount: number; totalAmount: string };
export type UserStatContributor = (
  tx: Tx,
  scope: { tenantId: string; userIds: string[]; startDate?: Date; endDate?: Date },
  rows: UserStatRow[],
) => Promise<void>;

/** The user whose shops are counted or grouped: a main account sees the tenant's, a sub-account its own. */
type ShopViewer = { tenantId: string; id: string; isMainAccount: boolean };

/** What the users service reads of the shop centre (modules/meli), which the users module does not import. */
export type ShopFigures = {
  accountGroups(tx: Tx, u: ShopViewer): Promise<AccountGroupResponse>;
  countShopAccounts(tx: Tx, u: ShopViewer): Promise<number>;
};
