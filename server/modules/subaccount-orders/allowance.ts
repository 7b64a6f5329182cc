// How many sub-accounts a tenant may have enabled: the host's free number (setting SubAccount.FreeCount; unset means
// no limit) plus the count of every purchase that has not expired. The users area asks before it creates or enables a
// sub-account (assertSubAccountAllowed), under a lock on the tenant's row, so two concurrent creations cannot both take
// the last place.
import { and, count, eq, gt, max, sql, sum } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { subAccountOrders, tenants, users } from "../../db/schema.ts";
import { businessError } from "../../http/errors.ts";
import { getSettingValue, SettingKeys } from "../../db/settings.ts";

/** The host setting with the sub-accounts every tenant has without buying; unset or blank means no limit. */
export const FREE_SUB_ACCOUNTS_SETTING = SettingKeys.freeSubAccounts;

export type Allowance = {
  freeCount: number | null;
  purchasedCount: number;
  /** null: no limit. */
  limit: number | null;
  activeSubAccounts: number;
  expireTime: Date | null;
};

async function freeCount(tx: Tx): Promise<number | null> {
  const raw = (await getSettingValue(tx, SettingKeys.freeSubAccounts))?.trim();
  if (!raw) return null;
  const n = Number(raw);
  // A value the host mistyped limits to nothing rather than lifting the limit.
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/** The tenant's allowance now (one query for the purchases, one for the enabled sub-accounts). */
export async function subAccountAllowance(tx: Tx, tenantId: string, now = new Date()): Promise<Allowance> {
  const free = await freeCount(tx);
  const [bought] = await tx
    .select({ n: sum(subAccountOrders.count), until: max(subAccountOrders.expireTime) })
    .from(subAccountOrders)
    .where(and(eq(subAccountOrders.tenantId, tenantId), gt(subAccountOrders.expireTime, now)));
  const [active] = await tx
    .select({ n: count() })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        eq(users.isDeleted, false),
        eq(users.isMainAccount, false),
        eq(users.isHost, false),
        eq(users.isActive, true),
      ),
    );
  const purchasedCount = Number(bought?.n ?? 0);
  return {
    freeCount: free,
    purchasedCount,
    limit: free === null ? null : free + purchasedCount,
    activeSubAccounts: Number(active?.n ?? 0),
    expireTime: bought?.until ?? null,
  };
}

/**
 * Refuses one more enabled sub-account beyond the allowance (403 with the reason); nothing while the host sets no
 * free number (no limit). Locks the tenant's row first: the
 * creations and enablings of one tenant pass here one at a time, each seeing the ones before it.
 */
export async function assertSubAccountAllowed(tx: Tx, tenantId: string): Promise<void> {
  if ((await freeCount(tx)) === null) return; // no limit set by the host
  await tx.execute(sql`select ${tenants.id} from ${tenants} where ${tenants.id} = ${tenantId} for update`);
  const a = await subAccountAllowance(tx, tenantId);
  if (a.limit !== null && a.activeSubAccounts >= a.limit) {
    throw businessError(
      `启用的子账号已达上限（${a.limit} 个），请先在订购中心购买子账号套餐，或停用不用的子账号`,
      "SubAccountLimitReached",
    );
  }
}
