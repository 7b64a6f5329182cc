// The wallet's calls (issue 19; spec §7 WalletLog, ChargeRecord, withdrawals, Hosted AddOrSubMoney /
// GetHostWalletInfo). Every call that moves money requires an Idempotency-Key (which replays its first answer).
import type { Registrar } from "../../http/calls.ts";
import type { Services } from "../../deps.ts";
import {
  addOrSubMoneyInput,
  auditChargeRecordInput,
  auditWithdrawInput,
  chargeRecord,
  chargeRecordPage,
  getChargeRecordsQuery,
  getHostChargeRecordsQuery,
  getHostWalletInfoQuery,
  getReceiptQuery,
  downloadWalletLogExportQuery,
  exportWalletLogsQuery,
  exportWalletLogsResult,
  getWalletLogsQuery,
  getWithdrawsQuery,
  hostWalletInfo,
  hostWalletInfoPage,
  MAX_RECEIPT_BYTES,
  paymentQuery,
  paymentResult,
  requestWithdrawInput,
  submitChargeRecordInput,
  uploadReceiptResult,
  walletLogPage,
  withdrawal,
  withdrawalPage,
} from "#shared/contract/wallet.ts";
import { receivingAccountList } from "#shared/contract/receiving-accounts.ts";

export function registerWallet(r: Registrar, services: Services) {
  const w = services.wallet;
  r.call({
    group: "WalletLog",
    name: "GetWalletLogs",
    method: "GET",
    access: "user",
    summary: "The caller's tenant's ledger entries (newest first), filtered, with the balance now; amounts in yuan",
    query: getWalletLogsQuery,
    result: walletLogPage,
    handler: (ctx, { query }) => w.getWalletLogs(ctx, query),
  });
  r.call({
    group: "WalletLog",
    name: "ExportWalletLogs",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Exports the tenant's entries matching the list's filters to xlsx (amounts in yuan) as a background task; answers {taskId}: poll it, then DownloadWalletLogExport",
    query: exportWalletLogsQuery,
    result: exportWalletLogsResult,
    handler: (ctx, { query }) => w.exportWalletLogs(ctx, query),
  });
  r.call({
    group: "WalletLog",
    name: "DownloadWalletLogExport",
    method: "GET",
    access: "user",
    summary: "The finished wallet log export's xlsx file (the task's creator only), for 7 days",
    query: downloadWalletLogExportQuery,
    handler: (ctx, { query }) => w.downloadWalletLogExport(ctx, query.taskId),
  });
  r.call({
    group: "WalletLog",
    name: "Payment",
    method: "GET",
    access: "main",
    idempotent: true,
    movesMoney: true,
    summary: "Pays money (yuan) from the tenant's balance as a purchase with its remark; 403 InsufficientBalance when short",
    query: paymentQuery,
    result: paymentResult,
    handler: (ctx, { query }) => w.payment(ctx, query),
  });
  r.call({
    group: "ChargeRecord",
    name: "UploadReceipt",
    method: "POST",
    access: "user",
    summary: "Stores a transfer receipt image (multipart field file: JPEG, PNG, WebP or GIF by its bytes, at most 5 MB); answers its pic",
    multipart: { fileSizeBytes: MAX_RECEIPT_BYTES },
    result: uploadReceiptResult,
    handler: (ctx) => w.uploadReceipt(ctx),
  });
  r.call({
    group: "ChargeRecord",
    name: "GetReceipt",
    method: "GET",
    access: "user",
    summary: "A receipt image, to its tenant and the host only (404 to anyone else)",
    query: getReceiptQuery,
    handler: (ctx, { query }) => w.getReceipt(ctx, query),
  });
  r.call({
    group: "ChargeRecord",
    name: "GetReceivingAccounts",
    method: "GET",
    access: "user",
    summary: "The platform's receiving accounts a top-up is transferred to (the host sets them: Wallet.ReceivingAccounts)",
    result: receivingAccountList,
    handler: (ctx) => w.getReceivingAccounts(ctx),
  });
  r.call({
    group: "ChargeRecord",
    name: "SubmitChagreRecord",
    method: "POST",
    access: "user",
    idempotent: true,
    movesMoney: true,
    summary: "Submits a top-up (money in yuan, how it was paid, the uploaded receipt) for the host's review",
    body: submitChargeRecordInput,
    result: chargeRecord,
    handler: (ctx, { body }) => w.submitChargeRecord(ctx, body),
  });
  r.call({
    group: "ChargeRecord",
    name: "GetChargeRecords",
    method: "GET",
    access: "user",
    summary: "The caller's tenant's top-ups, filtered, newest first",
    query: getChargeRecordsQuery,
    result: chargeRecordPage,
    handler: (ctx, { query }) => w.getChargeRecords(ctx, query),
  });
  r.call({
    group: "ChargeRecord",
    name: "GetHostChargeRecords",
    method: "GET",
    access: "host",
    summary: "Every tenant's top-ups (Search: tenant name or remark), newest first",
    query: getHostChargeRecordsQuery,
    result: chargeRecordPage,
    handler: (ctx, { query }) => w.getHostChargeRecords(ctx, query),
  });
  r.call({
    group: "ChargeRecord",
    name: "AuditChargeRecord",
    method: "POST",
    access: "host",
    idempotent: true,
    movesMoney: true,
    summary: "Approves a pending top-up (the wallet credited once) or rejects it with a reason; an audited one is a 403",
    body: auditChargeRecordInput,
    result: chargeRecord,
    handler: (ctx, { body }) => w.auditChargeRecord(ctx, body),
  });
  r.call({
    group: "Withdraw",
    name: "RequestWithdraw",
    method: "POST",
    access: "main",
    idempotent: true,
    movesMoney: true,
    summary: "Requests a withdrawal to an Alipay account: the money is held from the balance at once (403 when short)",
    body: requestWithdrawInput,
    result: withdrawal,
    handler: (ctx, { body }) => w.requestWithdraw(ctx, body),
  });
  r.call({
    group: "Withdraw",
    name: "GetWithdraws",
    method: "GET",
    access: "main",
    summary: "The tenant's withdrawals, filtered, newest first",
    query: getWithdrawsQuery,
    result: withdrawalPage,
    handler: (ctx, { query }) => w.getWithdraws(ctx, query),
  });
  r.call({
    group: "Withdraw",
    name: "GetHostWithdraws",
    method: "GET",
    access: "host",
    summary: "Every tenant's withdrawals (Search: tenant name, Alipay account or remark), newest first",
    query: getWithdrawsQuery,
    result: withdrawalPage,
    handler: (ctx, { query }) => w.getHostWithdraws(ctx, query),
  });
  r.call({
    group: "Withdraw",
    name: "AuditWithdraw",
    method: "POST",
    access: "host",
    idempotent: true,
    movesMoney: true,
    summary: "Approves a pending withdrawal (paid out) or rejects it with a reason (the held money returned); once only",
    body: auditWithdrawInput,
    result: withdrawal,
    handler: (ctx, { body }) => w.auditWithdraw(ctx, body),
  });
  r.call({
    group: "Hosted",
    name: "AddOrSubMoney",
    method: "POST",
    access: "host",
    idempotent: true,
    movesMoney: true,
    summary: "Adds to or takes from a tenant's balance (type 1 add, 2 subtract) with a required remark; answers the balance",
    body: addOrSubMoneyInput,
    result: hostWalletInfo,
    handler: (ctx, { body }) => w.addOrSubMoney(ctx, body),
  });
  r.call({
    group: "Hosted",
    name: "GetHostWalletInfo",
    method: "GET",
    access: "host",
    summary: "Every tenant's balance and last movement",
    query: getHostWalletInfoQuery,
    result: hostWalletInfoPage,
    handler: (ctx, { query }) => w.getHostWalletInfo(ctx, query),
  });
}
