// Agencies (issue 19; spec §3 Tenant plan/recommend row and Recommend set, §7 Agency): the host records which agency
// tenant recommended a tenant; the agency then earns a commission (a host-set rate) on that tenant's purchases,
// credited to its wallet as a Commission ledger entry in the purchase's own transaction. The agency lists the tenants it
// recommended (GetInviteRecords), keeps a remark on each (EditRemark) and lists its commissions
// (GetAgencyTransactionRecord). Money on the wire is yuan with at most two decimals, stored as integer fen.
import { z } from "zod";
import { id, isoDate, pagedQuery, pagedResult, queryBool } from "./common.ts";
import { RecommendType, WalletLogType } from "./enums.ts";

/** The host setting with the commission rate in percent of the purchase (0–100, at most two decimals, e.g. "10" or "12.5"). */
export const AGENCY_COMMISSION_RATE_SETTING = "Agency.CommissionRate";

/**
 * The commission in fen for a purchase of `purchaseFen` fen at `rateBasisPoints` (1 % = 100): rounded down to the fen,
 * so the platform never pays more than the rate (¥99.99 at 12.5 % is 1249.875 fen, paid 1249 fen = ¥12.49).
 */
export function commissionFen(purchaseFen: number, rateBasisPoints: number): number {
  if (!Number.isSafeInteger(purchaseFen) || purchaseFen <= 0) return 0;
  if (!Number.isInteger(rateBasisPoints) || rateBasisPoints <= 0) return 0;
  return Math.floor((purchaseFen * Math.min(rateBasisPoints, 10_000)) / 10_000);
}

/** The setting's text as basis points; blank, unset or anything that is not 0–100 with at most two decimals is 0. */
export function commissionRateBasisPoints(raw: string | null | undefined): number {
  const s = (raw ?? "").trim().replace(/%$/, "").trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(s)) return 0;
  const [whole, frac = ""] = s.split(".");
  const bp = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  return bp <= 10_000 ? bp : 0;
}

const enumQuery = (e: Record<string, number>) => {
  const values = Object.values(e);
  return z.coerce
    .number()
    .int()
    .refine((v) => values.includes(v), `must be one of ${values.join(", ")}`);
};
const enumBody = (e: Record<string, number>) => {
  const values = Object.values(e);
  return z
    .number()
    .int()
    .refine((v) => values.includes(v), `must be one of ${values.join(", ")}`);
};
const search = z.string().trim().max(100).optional();

// ---------------------------------------------------------------------------------------------------------------
// The host's recommend set

/**
 * Hosted SetRecommendTenant (ours; spec §3 Recommend set: tenantId, recommandTenantId, type): `tenantId` was
 * recommended by the agency `recommandTenantId`; null clears the recommendation. Type: RecommendType.
 */
export const setRecommendInput = z.object({
  tenantId: id,
  recommandTenantId: id.nullable(),
  type: enumBody(RecommendType).default(RecommendType.Commission),
});
export type SetRecommendInput = z.input<typeof setRecommendInput>;

/** A tenant's recommendation as the host set it. */
export const recommendInfo = z.object({
  tenantId: z.string(),
  tenantName: z.string(),
  recommandTenantId: z.string().nullable(),
  recommendTenantName: z.string().nullable(),
  /** RecommendType, null when not recommended. */
  type: z.number().int().nullable(),
  recommendTime: z.string().nullable(),
});
export type RecommendInfo = z.infer<typeof recommendInfo>;

// ---------------------------------------------------------------------------------------------------------------
// Agency

const inviteRecordSortFields = ["tenentName", "recommendTime", "balance", "expireTime"] as const;
/** GetInviteRecords: Search (the tenant's name or the agency's remark), IsActive (the tenant is enabled), paging. */
export const getInviteRecordsQuery = pagedQuery(inviteRecordSortFields).extend({ Search: search, IsActive: queryBool.optional() });

/**
 * A tenant the agency recommended (spec §3 Tenant plan/recommend row). `balance` is the commission (yuan) the agency
 * has earned from it, not the tenant's own wallet; `type` the RecommendType; `remark` the agency's own note.
 */
const inviteRecord = z.object({
  id: z.string(),
  tenentName: z.string(),
  balance: z.number(),
  /** The tenant's account expiry (null: never). */
  expireTime: z.string().nullable(),
  type: z.number().int(),
  remark: z.string().nullable(),
  recommendTenantName: z.string(),
  isActive: z.boolean(),
  recommendTime: z.string().nullable(),
});
export type InviteRecord = z.infer<typeof inviteRecord>;
export const inviteRecordPage = pagedResult(inviteRecord).extend({
  /** Every commission earned so far, yuan. */
  totalCommission: z.number(),
});
export type InviteRecordPage = z.infer<typeof inviteRecordPage>;

/** EditRemark (JSON body): the agency's remark on one of its recommended tenants (id: the tenant); empty clears it. */
export const editAgencyRemarkInput = z.object({ id, remark: z.string().trim().max(200, "备注最多 200 个字") });

const agencyTransactionSortFields = ["creationTime", "money"] as const;
/**
 * GetAgencyTransactionRecord: the agency's ledger entries that name a recommended tenant (its commissions). Search:
 * the tenant's name or the remark; StartDate ≤ creation < EndDate; Type: a WalletLogType.
 */
export const getAgencyTransactionRecordQuery = pagedQuery(agencyTransactionSortFields).extend({
  Search: search,
  StartDate: isoDate.optional(),
  EndDate: isoDate.optional(),
  Type: enumQuery(WalletLogType).optional(),
});

/** Spec §3 Balance transaction: id, creationTime, type, money, remark, inviteTenantName (+ the tenant's id). */
const agencyTransaction = z.object({
  id: z.string(),
  creationTime: z.string(),
  type: z.number().int(),
  money: z.number(),
  remark: z.string().nullable(),
  inviteTenantName: z.string().nullable(),
  inviteTenantId: z.string().nullable(),
});
export type AgencyTransaction = z.infer<typeof agencyTransaction>;
export const agencyTransactionPage = pagedResult(agencyTransaction).extend({ totalMoney: z.number() });
export type AgencyTransactionPage = z.infer<typeof agencyTransactionPage>;
