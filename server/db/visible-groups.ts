// Which shop groups a user sees, one rule for every list over shops (the listing centre, the orders): the tenant's
// groups; a sub-account only those with a shop account given to it (meli_accounts.owner_id).
import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { Tx } from "./types.ts";
import { meliAccountGroups, meliAccounts } from "./schema.ts";

type GroupViewer = { id: string; isMainAccount: boolean; isHost: boolean };

export function visibleShopGroups(tx: Tx, tenantId: string, user: GroupViewer): SQL {
  return and(
    eq(meliAccountGroups.tenantId, tenantId),
    user.isMainAccount || user.isHost
      ? undefined
      : inArray(
          meliAccountGroups.id,
          tx
            .select({ id: meliAccounts.groupId })
            .from(meliAccounts)
            .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.ownerId, user.id))),
        ),
  )!;
}
