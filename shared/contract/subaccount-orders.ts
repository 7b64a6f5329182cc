// Sub-account packages (issue 19; spec §2 /payment/package, §3 Purchase record and Sub-account record, §7
// SubAccountOrder and Hosted GetHostSubAccountOrders). The host offers packages (count, duration, price); a tenant's
// main account buys one from its wallet balance, which allows `count` more sub-accounts for `days` days. Money is yuan
// on the wire (at most two decimals), integer fen in the database (shared/contract/wallet.ts).
import { z } from "zod";
import { id, pagedQuery, pagedResult, queryBool, queryInt } from "./common.ts";
import { SubAccountType } from "./enums.ts";
import { money } from "./wallet.ts";

/** The most sub-accounts one package may allow, and the longest it may last (ten years). */
export const MAX_PACKAGE_COUNT = 1000;
export const MAX_PACKAGE_DAYS = 3650;

/** A package on offer (GetSubAccOrderInfos). */
export const subAccPackage = z.object({
  id: z.string(),
  name: z.string(),
  /** Sub-accounts it allows. */
  count: z.number().int(),
  /** Days they are allowed, from the purchase. */
  days: z.number().int(),
  /** Yuan. */
  price: z.number(),
  /** Withdrawn packages (false) are shown to the host only. */
  isActive: z.boolean(),
  sort: z.number().int(),
  creationTime: z.string(),
});
export type SubAccPackage = z.infer<typeof subAccPackage>;
export const subAccPackageList = z.array(subAccPackage);

/** CreateOrUpdateSubAccOrderInfo (host): a new package without id, an edit with it (a purchase keeps what it bought). */
export const saveSubAccPackageInput = z.object({
  id: id.optional(),
  name: z.string().trim().min(1, "请填写套餐名称").max(64, "套餐名称最多 64 个字"),
  count: z.number().int().min(1, "子账号数量至少为 1").max(MAX_PACKAGE_COUNT, `子账号数量不能超过 ${MAX_PACKAGE_COUNT}`),
  days: z.number().int().min(1, "有效天数至少为 1").max(MAX_PACKAGE_DAYS, `有效天数不能超过 ${MAX_PACKAGE_DAYS}`),
  price: money,
  isActive: z.boolean().default(true),
  sort: z.number().int().min(0).max(10000).default(0),
});
export type SaveSubAccPackageInput = z.input<typeof saveSubAccPackageInput>;

/** A purchase (spec §3 Purchase record: id, creationTime, type, count, moeny — the spec's spelling). */
const subAccOrder = z.object({
  id: z.string(),
  creationTime: z.string(),
  /** SubAccountType (2: package). */
  type: z.number().int(),
  count: z.number().int(),
  /** Yuan paid. */
  moeny: z.number(),
  packageId: z.string(),
  packageName: z.string(),
  days: z.number().int(),
  expireTime: z.string(),
  /** Not expired yet: its sub-accounts count toward the allowance. */
  isActive: z.boolean(),
});
export type SubAccOrder = z.infer<typeof subAccOrder>;

/**
 * The tenant's sub-account allowance now: the host's free number (setting SubAccount.FreeCount; unset means no limit)
 * plus every unexpired purchase. `limit` null means no limit.
 */
const subAccAllowance = z.object({
  freeCount: z.number().int().nullable(),
  purchasedCount: z.number().int(),
  limit: z.number().int().nullable(),
  /** Enabled sub-accounts, which the limit counts. */
  activeSubAccounts: z.number().int(),
  /** The latest expiry of an unexpired purchase. */
  expireTime: z.string().nullable(),
  /** The wallet balance, yuan. */
  balance: z.number(),
});
export type SubAccAllowance = z.infer<typeof subAccAllowance>;

export const getMySubAccOrderQuery = pagedQuery(["creationTime", "expireTime", "moeny"]);
/** GetMySubAccOrder: the caller's purchases, newest first, and its allowance. */
export const mySubAccOrderPage = pagedResult(subAccOrder).extend({ allowance: subAccAllowance });
export type MySubAccOrderPage = z.infer<typeof mySubAccOrderPage>;

/** OrderSubAcc (id: the package). Idempotent: one purchase per Idempotency-Key. */
export const orderSubAccQuery = z.object({ id });
export const orderSubAccResult = z.object({ order: subAccOrder, allowance: subAccAllowance });
export type OrderSubAccResult = z.infer<typeof orderSubAccResult>;

/**
 * A purchase as the host lists it: spec §3 Sub-account record (id, inviteTenantName, subAccountType, isActive,
 * expireTime, creationTime, remark) and, under its own names, §3 Account expiry row (creationTime, expireDate, type,
 * isActive, tenantName), which the spec gives no call of its own (docs/decisions.md).
 */
const hostSubAccOrder = z.object({
  id: z.string(),
  tenantId: z.string(),
  /** The buying tenant's name (the spec's field name). */
  inviteTenantName: z.string(),
  subAccountType: z.number().int(),
  isActive: z.boolean(),
  expireTime: z.string(),
  creationTime: z.string(),
  /** The package as bought, e.g. "5 个子账号 / 30 天". */
  remark: z.string(),
  packageName: z.string(),
  count: z.number().int(),
  days: z.number().int(),
  moeny: z.number(),
  /** Account expiry row: the buying tenant's name (= inviteTenantName). */
  tenantName: z.string(),
  /** Account expiry row: SubAccountType (= subAccountType). */
  type: z.number().int(),
  /** Account expiry row: when the allowance this purchase adds ends (= expireTime). */
  expireDate: z.string(),
});
export type HostSubAccOrder = z.infer<typeof hostSubAccOrder>;

const subAccountTypes = Object.values(SubAccountType) as number[];
/** GetHostSubAccountOrders: KeyWord (tenant or package name), Type (SubAccountType), IsActive (unexpired), paging. */
export const getHostSubAccountOrdersQuery = pagedQuery(["creationTime", "expireTime", "moeny", "inviteTenantName"]).extend({
  KeyWord: z.string().trim().max(100).optional(),
  Type: queryInt()
    .refine((v) => subAccountTypes.includes(v), `must be one of ${subAccountTypes.join(", ")}`)
    .optional(),
  IsActive: queryBool.optional(),
});
export const hostSubAccOrderPage = pagedResult(hostSubAccOrder);
export type HostSubAccOrderPage = z.infer<typeof hostSubAccOrderPage>;
