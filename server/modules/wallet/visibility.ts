// Spec §6: finance-visible routes are hidden from non-main accounts whose tenant is on the host's exclusion list
// (setting Console.FinanceHiddenTenants). The console hides the routes (shared/routes/permission.ts); the server
// refuses the same accounts the wallet's figures: the ledger, its export and the workbench's money cards.
import type { Tx } from "../../db/client.ts";
import type { CallContext } from "../../http/calls.ts";
import { forbidden } from "../../http/errors.ts";
import type { SessionUser } from "../../http/session-user.ts";
import { getSettingValue, SettingKeys } from "../../db/settings.ts";
import { parseNameList } from "#shared/routes/permission.ts";

/** Whether the user may see the tenant's money: main accounts and the host always; a sub-account unless its tenant is listed. */
export async function isFinanceVisible(tx: Tx, user: Pick<SessionUser, "isMainAccount" | "isHost" | "tenantName">): Promise<boolean> {
  if (user.isMainAccount || user.isHost) return true;
  const name = user.tenantName?.trim().toLowerCase();
  if (!name) return true;
  const hidden = parseNameList(await getSettingValue(tx, SettingKeys.financeHiddenTenants));
  return !hidden.some((n) => n.trim().toLowerCase() === name);
}

/** 403 for an account the finance centre is hidden from. */
export async function assertFinanceVisible(ctx: CallContext): Promise<void> {
  if (!(await isFinanceVisible(ctx.tx, ctx.user!))) throw forbidden("财务中心仅对主账号开放");
}
