// What the shop centre adds to other areas: when a sub-account is cleared (ClearSubAccountInfo), its shops go back to
// the main account rather than being deleted (they stay connected to Mercado Libre). Registered once.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { meliAccounts, users } from "../../db/schema.ts";
import { userDataCleaners } from "../users/extensions.ts";

let registered = false;

export function registerMeliExtensions() {
  if (registered) return;
  registered = true;
  userDataCleaners.push({
    label: "店铺（已转回主账号）",
    async clear(tx, tenantId, userId) {
      const [main] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.isMainAccount, true)))
        .limit(1);
      if (!main || main.id === userId) return 0;
      const rows = await tx
        .update(meliAccounts)
        .set({ ownerId: main.id, lastModificationTime: new Date(), lastModifierId: main.id, concurrencyStamp: randomUUID() })
        .where(and(eq(meliAccounts.tenantId, tenantId), eq(meliAccounts.ownerId, userId)))
        .returning({ id: meliAccounts.id });
      return rows.length;
    },
  });
}
