// The agency's commission on a purchase (issue 19 Agency). A purchase (OrderSubAcc, Payment) asks prepareCommission
// before it debits the buyer: when the buyer was recommended by an agency with RecommendType.Commission, both wallet
// rows are locked in one global order (by tenant id), so purchases of two tenants that recommend each other cannot
// deadlock; after the debit, `credit` posts the Commission entry to the agency's wallet in the same transaction. The
// purchase and its commission commit or roll back together, and an Idempotency-Key replay answers the stored result
// without running either again; a unique index (wallet_logs_commission_ref_key) refuses a second commission for one
// purchase entry whatever happens. The agency's rows are written under the agency's tenant scope, switched for the
// one insert and switched back (the request's transaction runs as erp_app under the buyer's tenant).
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { setScope } from "../../db/scope.ts";
import { RecommendType, WalletLogType } from "#shared/contract/enums.ts";
import { commissionFen, commissionRateBasisPoints } from "#shared/contract/agency.ts";
import { getSettingValue, SettingKeys } from "../../db/settings.ts";
import { lockWallet, postLedgerEntry, type PendingCommission } from "../wallet/index.ts";

const none: PendingCommission = { credit: async () => 0 };

/** The host's rate now, in basis points (0 when unset or mistyped: no commission). */
async function commissionRate(tx: Tx): Promise<number> {
  return commissionRateBasisPoints(await getSettingValue(tx, SettingKeys.agencyCommissionRate));
}

/**
 * Before a purchase by `buyerTenantId` (whose scope the transaction is in): finds its agency and locks both wallets in
 * tenant-id order. Answers what posts the commission after the buyer's debit.
 */
export async function prepareCommission(tx: Tx, buyerTenantId: string): Promise<PendingCommission> {
  const [row] = rowsOf<{ agencyId: string | null; type: number | null; buyerName: string }>(
    await tx.execute(sql`
      select t.recommend_tenant_id as "agencyId", t.recommend_type as "type", t.name as "buyerName"
      from tenants t where t.id = ${buyerTenantId}`),
  );
  if (!row?.agencyId || row.type !== RecommendType.Commission || row.agencyId === buyerTenantId) return none;
  const rate = await commissionRate(tx);
  if (!rate) return none;
  const agencyId = row.agencyId;
  for (const id of [buyerTenantId, agencyId].sort()) await lockWallet(tx, id);
  return {
    async credit({ purchaseFen, purchaseEntryId, what }) {
      const amount = commissionFen(purchaseFen, rate);
      if (!amount) return 0;
      await setScope(tx, { tenantId: agencyId });
      await postLedgerEntry(tx, {
        tenantId: agencyId,
        type: WalletLogType.Commission,
        amountFen: amount,
        userId: null,
        remark: `推荐佣金：${row.buyerName} ${what}（${(rate / 100).toFixed(2).replace(/\.?0+$/, "")}%）`,
        refId: purchaseEntryId,
        inviteTenantId: buyerTenantId,
      });
      await setScope(tx, { tenantId: buyerTenantId });
      return amount;
    },
  };
}
