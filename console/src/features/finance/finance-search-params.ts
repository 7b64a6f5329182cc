// The finance screens' URL state (useListUrlState: each key is its search param; broken values fall back to the
// defaults) and the queries each turns into: the wallet's ledger (GetWalletLogs), the seller's top-ups
// (GetChargeRecords), the host's review list (GetHostChargeRecords) and the withdrawals.
import { z } from "zod";
import type { InputOf } from "#shared/api/define.ts";
import { ChargeStatus, WalletLogType, WithdrawStatus } from "#shared/contract/enums.ts";
import type { getChargeRecordsQuery, getWalletLogsQuery, getWithdrawsQuery } from "#shared/contract/wallet.ts";
import { ALL, choiceParam, dateParam, idParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import { localDayRange } from "../../lib/format.ts";

export const FINANCE_PAGE_SIZES = [20, 50, 100];

export const WALLET_SORTS = {
  "creationTime desc": "最新在前",
  "creationTime asc": "最早在前",
  "money desc": "金额从大到小",
  "money asc": "金额从小到大",
} as const;
export type WalletSort = keyof typeof WALLET_SORTS;

export const CHARGE_SORTS = {
  "creationTime desc": "最新提交",
  "creationTime asc": "最早提交",
  "money desc": "金额从大到小",
} as const;
export type ChargeSort = keyof typeof CHARGE_SORTS;

const paging = { page: pageParam(), size: pageSizeParam(FINANCE_PAGE_SIZES, 20) };
const days = { from: dateParam(), to: dateParam() };

export const walletListSchema = z.object({
  type: choiceParam(Object.values(WalletLogType)),
  /** Who made the movement (a main account's filter over its sub-accounts). */
  user: idParam(),
  ...days,
  sort: z.enum(Object.keys(WALLET_SORTS) as [WalletSort]).catch("creationTime desc"),
  ...paging,
});
export type WalletListState = z.output<typeof walletListSchema>;

/** The two record lists of /finance/charge/list and /admin/recharge: top-ups and withdrawals (their statuses share the
 *  values 1 pending, 2 approved, 3 rejected). */
const RECORD_TABS = ["charge", "withdraw"] as const;
export type RecordTab = (typeof RECORD_TABS)[number];
const tabParam = () => z.enum(RECORD_TABS).catch("charge");
const reviewStatuses = [...new Set([...Object.values(ChargeStatus), ...Object.values(WithdrawStatus)])];

/** The seller's top-ups and withdrawals. */
export const chargeListSchema = z.object({
  tab: tabParam(),
  status: choiceParam(reviewStatuses),
  ...days,
  sort: z.enum(Object.keys(CHARGE_SORTS) as [ChargeSort]).catch("creationTime desc"),
  ...paging,
});
export type ChargeListState = z.output<typeof chargeListSchema>;

/** The host's review lists: pending first by default, searchable by tenant name or remark. */
export const rechargeReviewSchema = z.object({
  tab: tabParam(),
  /** "all" is a choice too (the default is pending, so "all" must read back as itself). */
  status: choiceParam([...reviewStatuses, ALL], String(ChargeStatus.Pending)),
  q: textParam(64),
  ...days,
  sort: z.enum(Object.keys(CHARGE_SORTS) as [ChargeSort]).catch("creationTime desc"),
  ...paging,
});
export type RechargeReviewState = z.output<typeof rechargeReviewSchema>;

/** A local day range as the calls take it: StartTime at the first day's start, EndTime at the last day's end. */
function timeRange(s: { from: string; to: string }): { StartTime?: string; EndTime?: string } {
  const { from, to } = localDayRange(s.from, s.to);
  return { ...(from ? { StartTime: from } : {}), ...(to ? { EndTime: to } : {}) };
}

const pageOf = (s: { page: number; size: number }) => ({ SkipCount: (s.page - 1) * s.size, MaxResultCount: s.size });

export type WalletLogsQuery = InputOf<typeof getWalletLogsQuery>;

/** GetWalletLogs' filter (without paging: the export takes it whole). */
export function toWalletFilter(s: WalletListState): Omit<WalletLogsQuery, "SkipCount" | "MaxResultCount"> {
  return {
    ...timeRange(s),
    ...(s.type !== ALL ? { Type: Number(s.type) } : {}),
    ...(s.user !== ALL ? { UserId: s.user } : {}),
    Sorting: s.sort,
  };
}

export const toWalletQuery = (s: WalletListState): WalletLogsQuery => ({ ...toWalletFilter(s), ...pageOf(s) });

export type ChargeRecordsQuery = InputOf<typeof getChargeRecordsQuery>;
export type WithdrawsQuery = InputOf<typeof getWithdrawsQuery>;

/** GetChargeRecords / GetHostChargeRecords' query, and the withdrawals' (the same names). */
export function toRecordsQuery(s: ChargeListState | RechargeReviewState): ChargeRecordsQuery & WithdrawsQuery {
  const search = "q" in s ? s.q.trim() : "";
  return {
    ...timeRange(s),
    ...(s.status !== ALL ? { Status: Number(s.status) } : {}),
    ...(search ? { Search: search } : {}),
    Sorting: s.sort,
    ...pageOf(s),
  };
}
