// The wallet (issue 19; spec §3 Finance, §7 WalletLog, ChargeRecord, Hosted AddOrSubMoney / GetHostWalletInfo):
// an append-only ledger of balance movements, top-ups (charge records) the host reviews, withdrawals (held when
// requested, returned when rejected) and the host's adjustments. Money is stored as integer fen; on the wire it is
// yuan as a number with at most two decimals (12.5 is ¥12.50). Every call that moves money takes an Idempotency-Key.
import { z } from "zod";
import { id, isoDate, pagedQuery, pagedResult } from "./common.ts";
import { BalanceAdjustType, ChargePayType, ChargeStatus, WalletLogType, WithdrawSource, WithdrawStatus } from "./enums.ts";

/** The most one call may move: ¥1,000,000.00. */
export const MAX_MONEY_YUAN = 1_000_000;

/** Yuan (at most two decimals) as integer fen; null when it has more decimals or is not finite. */
export function yuanToFen(yuan: number): number | null {
  if (!Number.isFinite(yuan)) return null;
  const fen = Math.round(yuan * 100);
  return Math.abs(yuan * 100 - fen) < 1e-6 ? fen : null;
}

/** Integer fen as yuan for the wire (exact to the fen). */
export const fenToYuan = (fen: number): number => fen / 100;

/** ¥1,234.50 for a screen. */
export const formatYuan = (yuan: number): string =>
  `¥${yuan.toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** An amount in yuan in a JSON body: > 0, at most two decimals, at most MAX_MONEY_YUAN. */
export const money = z
  .number({ error: "金额须为数字，如 12.50" })
  .positive("金额必须大于 0")
  .max(MAX_MONEY_YUAN, `金额不能超过 ${MAX_MONEY_YUAN} 元`)
  .refine((v) => yuanToFen(v) !== null, "金额最多两位小数");
/**
 * The same in a query string, read strictly: plain decimal digits ("12.5"), then the body's rule. A coerce took "0x10"
 * as 16, " 1e1 " as 10 and "" as 0; any text but digits with an optional fraction stays text and is refused.
 */
const queryMoney = z.preprocess((v) => (typeof v === "string" && /^\d{1,16}(\.\d{1,16})?$/.test(v) ? Number(v) : v), money);

/** A query integer that must be one of the enum's values. */
const enumQuery = (e: Record<string, number>) => {
  const values = Object.values(e);
  return z.coerce
    .number()
    .int()
    .refine((v) => values.includes(v), `must be one of ${values.join(", ")}`);
};
/** A body integer that must be one of the enum's values. */
const enumBody = (e: Record<string, number>) => {
  const values = Object.values(e);
  return z
    .number()
    .int()
    .refine((v) => values.includes(v), `must be one of ${values.join(", ")}`);
};

const remark = z.string().trim().max(200, "备注最多 200 个字");
const requiredRemark = z.string().trim().min(1, "请填写备注").max(200, "备注最多 200 个字");
const search = z.string().trim().max(100).optional();

/**
 * An uploaded image: UploadReceipt's answer, opaque to clients ("<tenantId>/<file>.<ext>"), fetched with GetReceipt by
 * its tenant and the host only. The server checks it names one of the caller's tenant's uploads.
 */
const receiptPic = z.string().trim().min(1, "请先上传图片").max(200);
/** The form UploadReceipt gives a pic (the server's check; a client never needs to build one). */
export const RECEIPT_PIC_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([0-9a-f]{32}\.(jpg|png|webp|gif))$/;
export const uploadReceiptResult = z.object({ pic: z.string() });
/** `size: "preview"` answers the small WebP made at upload (lists, the review screen); without it, the original. */
export const getReceiptQuery = z.object({ pic: receiptPic, size: z.enum(["preview"]).optional() });
/** Receipt images: at most 5 MB, JPEG, PNG, WebP or GIF by their bytes. */
export const MAX_RECEIPT_BYTES = 5 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------------------------
// WalletLog

/** One ledger entry (spec §3 Balance transaction / Balance history row). */
const walletLogEntry = z.object({
  id: z.string(),
  /** WalletLogType. */
  type: z.number().int(),
  /** Signed yuan: + credit, - debit. */
  money: z.number(),
  /** The balance after this entry, yuan. */
  balance: z.number(),
  remark: z.string().nullable(),
  /** Who moved it (null: the system); for a host adjustment, the host user. */
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  /** A commission's paying tenant (recommended by this agency). */
  inviteTenantName: z.string().nullable(),
  /** What it belongs to: a charge record, a withdrawal, a sub-account order. */
  refId: z.string().nullable(),
  creationTime: z.string(),
});
export type WalletLogEntry = z.infer<typeof walletLogEntry>;

const walletLogSortFields = ["creationTime", "money"] as const;
export const getWalletLogsQuery = pagedQuery(walletLogSortFields).extend({
  StartTime: isoDate.optional(),
  EndTime: isoDate.optional(),
  Type: enumQuery(WalletLogType).optional(),
  UserId: id.optional(),
});
export type GetWalletLogsQuery = z.input<typeof getWalletLogsQuery>;
/** totalCount is exact up to WALLET_LOG_COUNT_CAP matching entries, then capped (totalCountCapped), as the listing list. */
export const WALLET_LOG_COUNT_CAP = 1_000;
/** A page of entries, newest first by default, with the tenant's balance now (yuan). */
export const walletLogPage = pagedResult(walletLogEntry).extend({ totalCountCapped: z.boolean(), balance: z.number() });
export type WalletLogPage = z.infer<typeof walletLogPage>;

/** Payment: pay from the balance (a purchase); refused with 403 when the balance is short. */
export const paymentQuery = z.object({ money: queryMoney, remark: requiredRemark });
/** The entry written, and the balance after it. */
export const paymentResult = z.object({ id: z.string(), balance: z.number() });
export type PaymentResult = z.infer<typeof paymentResult>;

// ---------------------------------------------------------------------------------------------------------------
// ChargeRecord

export const chargeRecord = z.object({
  id: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  money: z.number(),
  /** ChargePayType. */
  payType: z.number().int(),
  /** The transfer receipt (receiptPic): GetReceipt. */
  pic: z.string(),
  remark: z.string().nullable(),
  /** ChargeStatus. */
  status: z.number().int(),
  /** Why it was rejected. */
  reason: z.string().nullable(),
  auditTime: z.string().nullable(),
  creationTime: z.string(),
});
export type ChargeRecord = z.infer<typeof chargeRecord>;

export const submitChargeRecordInput = z.object({
  money,
  payType: enumBody(ChargePayType),
  pic: receiptPic,
  remark: remark.optional(),
});
export type SubmitChargeRecordInput = z.input<typeof submitChargeRecordInput>;

const chargeRecordSortFields = ["creationTime", "money", "status", "auditTime"] as const;
/** GetChargeRecords (the caller's tenant) and GetHostChargeRecords (every tenant; Search: tenant name or remark). */
export const getChargeRecordsQuery = pagedQuery(chargeRecordSortFields).extend({
  StartTime: isoDate.optional(),
  EndTime: isoDate.optional(),
  Status: enumQuery(ChargeStatus).optional(),
  Search: search,
});
export const chargeRecordPage = pagedResult(chargeRecord);

/** An audit decision: approve, or reject with a reason (required). */
const auditInput = z
  .object({
    id,
    status: z
      .number()
      .int()
      .refine((v) => v === ChargeStatus.Approved || v === ChargeStatus.Rejected, "status must be 2 (approve) or 3 (reject)"),
    reason: z.string().trim().max(200, "原因最多 200 个字").optional(),
  })
  .refine((v) => v.status !== ChargeStatus.Rejected || !!v.reason, { message: "驳回时请填写原因", path: ["reason"] });
/** AuditChargeRecord: approve credits the wallet once; reject needs a reason. Only a pending record can be audited. */
export const auditChargeRecordInput = auditInput;
export type AuditChargeRecordInput = z.input<typeof auditChargeRecordInput>;

// ---------------------------------------------------------------------------------------------------------------
// Withdrawals

export const withdrawal = z.object({
  id: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  /** WithdrawStatus. */
  status: z.number().int(),
  auditTime: z.string().nullable(),
  money: z.number(),
  alipayAccount: z.string(),
  /** An image (receiptPic) or null. */
  pic: z.string().nullable(),
  reason: z.string().nullable(),
  creationTime: z.string(),
  remark: z.string().nullable(),
  /** WithdrawSource. */
  source: z.number().int(),
});
export type Withdrawal = z.infer<typeof withdrawal>;

/** RequestWithdraw: the money is held (debited) at once; refused with 403 when the balance is short. */
export const requestWithdrawInput = z.object({
  money,
  alipayAccount: z.string().trim().min(1, "请填写支付宝账号").max(100),
  pic: receiptPic.nullish(),
  remark: remark.optional(),
  source: enumBody(WithdrawSource).default(WithdrawSource.Balance),
});
export type RequestWithdrawInput = z.input<typeof requestWithdrawInput>;

const withdrawSortFields = ["creationTime", "money", "status", "auditTime"] as const;
export const getWithdrawsQuery = pagedQuery(withdrawSortFields).extend({
  StartTime: isoDate.optional(),
  EndTime: isoDate.optional(),
  Status: enumQuery(WithdrawStatus).optional(),
  Search: search,
});
export const withdrawalPage = pagedResult(withdrawal);

/** AuditWithdraw (host): approve (paid out: nothing more moves) or reject with a reason (the money returned). */
export const auditWithdrawInput = auditInput;
export type AuditWithdrawInput = z.input<typeof auditWithdrawInput>;

// ---------------------------------------------------------------------------------------------------------------
// Hosted

/** AddOrSubMoney: the host adds to or takes from a tenant's balance; the remark is required. */
export const addOrSubMoneyInput = z.object({
  tenantId: id,
  money,
  type: enumBody(BalanceAdjustType),
  remark: requiredRemark,
});

/** A tenant's balance (spec §3 Tenant balance). */
export const hostWalletInfo = z.object({
  tenantId: z.string(),
  tenantName: z.string(),
  balance: z.number(),
  /** The last movement. */
  lastModificationTime: z.string().nullable(),
});
export type HostWalletInfo = z.infer<typeof hostWalletInfo>;

const hostWalletSortFields = ["tenantName", "balance", "lastModificationTime"] as const;
export const getHostWalletInfoQuery = pagedQuery(hostWalletSortFields).extend({ Search: search });
export const hostWalletInfoPage = pagedResult(hostWalletInfo);

// ---------------------------------------------------------------------------------------------------------------
// Wallet log export (an xlsx written by a job, like the product export)

/** ExportWalletLogs: the list's filters (StartTime, EndTime, Type, UserId); UtcOffsetMinutes: the file's clock (default UTC+8). */
export const exportWalletLogsQuery = getWalletLogsQuery
  .omit({ SkipCount: true, MaxResultCount: true, Sorting: true })
  .extend({ UtcOffsetMinutes: z.coerce.number().int().min(-720).max(840).optional() });
export const exportWalletLogsResult = z.object({ taskId: z.string() });
export type ExportWalletLogsResult = z.infer<typeof exportWalletLogsResult>;
/** DownloadWalletLogExport: the export task's id; only its creator downloads it. */
export const downloadWalletLogExportQuery = z.object({ taskId: id });
/** An export holds at most this many entries; a larger selection is refused (narrow the dates). */
export const WALLET_LOG_EXPORT_MAX_ROWS = 1_000_000;
/** Each entry type's Chinese name (the console's finance screens and the export). */
export const walletLogTypeNames: Record<number, string> = {
  [WalletLogType.TopUp]: "充值",
  [WalletLogType.Purchase]: "消费",
  [WalletLogType.Withdraw]: "提现",
  [WalletLogType.WithdrawRefund]: "提现退回",
  [WalletLogType.HostAdjust]: "平台调整",
  [WalletLogType.Commission]: "推荐佣金",
};
/** The export's columns, in order. */
export const walletLogExportHeaders = ["时间", "类型", "金额(元)", "余额(元)", "备注", "操作人", "推荐公司", "记录ID"] as const;
