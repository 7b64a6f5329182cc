// The finance screens' Chinese names for the wallet's enumerations (shared/contract/enums.ts) and the badge tone of each
// status.
import { ChargePayType, ChargeStatus, WalletLogType, WithdrawSource, WithdrawStatus } from "#shared/contract/enums.ts";
import { walletLogTypeNames } from "#shared/contract/wallet.ts";

type Tone = "default" | "secondary" | "success" | "warning" | "destructive" | "outline";

export const walletLogTypeLabels: Record<WalletLogType, string> = walletLogTypeNames;

export const chargeStatusLabels: Record<ChargeStatus, string> = {
  [ChargeStatus.Pending]: "待审核",
  [ChargeStatus.Approved]: "已到账",
  [ChargeStatus.Rejected]: "已驳回",
};

export const withdrawStatusLabels: Record<WithdrawStatus, string> = {
  [WithdrawStatus.Pending]: "待审核",
  [WithdrawStatus.Approved]: "已打款",
  [WithdrawStatus.Rejected]: "已驳回（已退回余额）",
};

export const payTypeLabels: Record<ChargePayType, string> = {
  [ChargePayType.Bank]: "银行转账",
  [ChargePayType.Alipay]: "支付宝",
};

const withdrawSourceLabels: Record<WithdrawSource, string> = {
  [WithdrawSource.Balance]: "账户余额",
  [WithdrawSource.Commission]: "推荐佣金",
};

/** Pending, approved and rejected look the same for top-ups and withdrawals (both use 1, 2, 3). */
export const reviewTones: Record<number, Tone> = { 1: "warning", 2: "success", 3: "destructive" };

const labelOf = (labels: Record<number, string>, value: number, what: string) => labels[value] ?? `${what} ${value}`;
export const walletLogTypeLabel = (t: number) => labelOf(walletLogTypeLabels, t, "类型");
export const chargeStatusLabel = (s: number) => labelOf(chargeStatusLabels, s, "状态");
export const withdrawStatusLabel = (s: number) => labelOf(withdrawStatusLabels, s, "状态");
export const payTypeLabel = (t: number) => labelOf(payTypeLabels, t, "方式");
export const withdrawSourceLabel = (t: number) => labelOf(withdrawSourceLabels, t, "来源");
