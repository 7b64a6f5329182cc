// Wallet calls (issue 19; spec §7 WalletLog, ChargeRecord, withdrawals, Hosted AddOrSubMoney / GetHostWalletInfo;
// contract/wallet.ts). Every call that moves money is idempotent: the client sends an Idempotency-Key (one per call, or
// the caller's own to retry safely). A receipt image is uploaded first (uploadReceipt: a FormData, field `file`), its
// answer's pic goes into SubmitChagreRecord or RequestWithdraw; GetReceipt answers the image itself (not JSON), so the
// client gives its address: fetch it with the same Authorization (and __tenant) headers and show the blob.
import {
  addOrSubMoneyInput,
  auditChargeRecordInput,
  auditWithdrawInput,
  chargeRecord,
  chargeRecordPage,
  getChargeRecordsQuery,
  getHostWalletInfoQuery,
  getReceiptQuery,
  downloadWalletLogExportQuery,
  exportWalletLogsQuery,
  exportWalletLogsResult,
  getWalletLogsQuery,
  getWithdrawsQuery,
  hostWalletInfo,
  hostWalletInfoPage,
  paymentQuery,
  paymentResult,
  requestWithdrawInput,
  submitChargeRecordInput,
  uploadReceiptResult,
  walletLogPage,
  withdrawal,
  withdrawalPage,
} from "../contract/wallet.ts";
import { z } from "zod";
import { receivingAccountList } from "../contract/receiving-accounts.ts";
import { call } from "./define.ts";

/** A multipart upload: a FormData with the image under "file" (the server reads the upload itself). */
const upload = z.custom<FormData>((v) => typeof FormData !== "undefined" && v instanceof FormData, "must be FormData");

const walletLogGroup = "WalletLog";
const chargeRecordGroup = "ChargeRecord";
const withdrawGroup = "Withdraw";
const hostedGroup = "Hosted";

export const walletLogCalls = {
  getWalletLogs: call({
    group: walletLogGroup,
    name: "GetWalletLogs",
    method: "GET",
    access: "user",
    summary: "The caller's tenant's ledger entries (newest first), filtered, with the balance now; amounts in yuan",
    query: getWalletLogsQuery,
    result: walletLogPage,
  }),
  payment: call({
    group: walletLogGroup,
    name: "Payment",
    method: "GET",
    access: "main",
    idempotent: true,
    movesMoney: true,
    summary: "Pays money (yuan) from the tenant's balance as a purchase with its remark; 403 InsufficientBalance when short",
    query: paymentQuery,
    result: paymentResult,
  }),
  /** Queues the xlsx export of the entries matching the list's filters; answers its task id (TaskType.ExportWalletLogs). */
  exportWalletLogs: call({
    group: walletLogGroup,
    name: "ExportWalletLogs",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Exports the tenant's entries matching the list's filters to xlsx (amounts in yuan) as a background task; answers {taskId}: poll it, then DownloadWalletLogExport",
    query: exportWalletLogsQuery,
    result: exportWalletLogsResult,
  }),
  /** Answers the xlsx file, not JSON (so no result): see downloadWalletLogExport below. */
  downloadWalletLogExport: call({
    group: walletLogGroup,
    name: "DownloadWalletLogExport",
    method: "GET",
    access: "user",
    summary: "The finished wallet log export's xlsx file (the task's creator only), for 7 days",
    query: downloadWalletLogExportQuery,
    answersFile: true,
  }),
};

export const chargeRecordCalls = {
  /** Multipart: a FormData with the image (JPEG, PNG, WebP or GIF by its bytes, at most 5 MB) under "file". */
  uploadReceipt: call({
    group: chargeRecordGroup,
    name: "UploadReceipt",
    method: "POST",
    access: "user",
    summary: "Stores a transfer receipt image (multipart field file: JPEG, PNG, WebP or GIF by its bytes, at most 5 MB); answers its pic",
    body: upload,
    result: uploadReceiptResult,
  }),
  /** Answers the image, not JSON (so no result): see getReceipt below. */
  getReceipt: call({
    group: chargeRecordGroup,
    name: "GetReceipt",
    method: "GET",
    access: "user",
    summary: "A receipt image, to its tenant and the host only (404 to anyone else)",
    query: getReceiptQuery,
    answersFile: true,
  }),
  /** The platform's receiving accounts (the top-up dialog shows them). */
  getReceivingAccounts: call({
    group: chargeRecordGroup,
    name: "GetReceivingAccounts",
    method: "GET",
    access: "user",
    summary: "The platform's receiving accounts a top-up is transferred to (the host sets them: Wallet.ReceivingAccounts)",
    result: receivingAccountList,
  }),
  submitChagreRecord: call({
    group: chargeRecordGroup,
    name: "SubmitChagreRecord",
    method: "POST",
    access: "user",
    idempotent: true,
    movesMoney: true,
    summary: "Submits a top-up (money in yuan, how it was paid, the uploaded receipt) for the host's review",
    body: submitChargeRecordInput,
    result: chargeRecord,
  }),
  getChargeRecords: call({
    group: chargeRecordGroup,
    name: "GetChargeRecords",
    method: "GET",
    access: "user",
    summary: "The caller's tenant's top-ups, filtered, newest first",
    query: getChargeRecordsQuery,
    result: chargeRecordPage,
  }),
  getHostChargeRecords: call({
    group: chargeRecordGroup,
    name: "GetHostChargeRecords",
    method: "GET",
    access: "host",
    summary: "Every tenant's top-ups (Search: tenant name or remark), newest first",
    query: getChargeRecordsQuery,
    result: chargeRecordPage,
  }),
  auditChargeRecord: call({
    group: chargeRecordGroup,
    name: "AuditChargeRecord",
    method: "POST",
    access: "host",
    idempotent: true,
    movesMoney: true,
    summary: "Approves a pending top-up (the wallet credited once) or rejects it with a reason; an audited one is a 403",
    body: auditChargeRecordInput,
    result: chargeRecord,
  }),
};

export const withdrawCalls = {
  requestWithdraw: call({
    group: withdrawGroup,
    name: "RequestWithdraw",
    method: "POST",
    access: "main",
    idempotent: true,
    movesMoney: true,
    summary: "Requests a withdrawal to an Alipay account: the money is held from the balance at once (403 when short)",
    body: requestWithdrawInput,
    result: withdrawal,
  }),
  getWithdraws: call({
    group: withdrawGroup,
    name: "GetWithdraws",
    method: "GET",
    access: "main",
    summary: "The tenant's withdrawals, filtered, newest first",
    query: getWithdrawsQuery,
    result: withdrawalPage,
  }),
  getHostWithdraws: call({
    group: withdrawGroup,
    name: "GetHostWithdraws",
    method: "GET",
    access: "host",
    summary: "Every tenant's withdrawals (Search: tenant name, Alipay account or remark), newest first",
    query: getWithdrawsQuery,
    result: withdrawalPage,
  }),
  auditWithdraw: call({
    group: withdrawGroup,
    name: "AuditWithdraw",
    method: "POST",
    access: "host",
    idempotent: true,
    movesMoney: true,
    summary: "Approves a pending withdrawal (paid out) or rejects it with a reason (the held money returned); once only",
    body: auditWithdrawInput,
    result: withdrawal,
  }),
};

/** The host's wallet calls of spec §7 Hosted (the rest of Hosted is in hosted.ts). */
export const hostedWalletCalls = {
  addOrSubMoney: call({
    group: hostedGroup,
    name: "AddOrSubMoney",
    method: "POST",
    access: "host",
    idempotent: true,
    movesMoney: true,
    summary: "Adds to or takes from a tenant's balance (type 1 add, 2 subtract) with a required remark; answers the balance",
    body: addOrSubMoneyInput,
    result: hostWalletInfo,
  }),
  getHostWalletInfo: call({
    group: hostedGroup,
    name: "GetHostWalletInfo",
    method: "GET",
    access: "host",
    summary: "Every tenant's balance and last movement",
    query: getHostWalletInfoQuery,
    result: hostWalletInfoPage,
  }),
};
