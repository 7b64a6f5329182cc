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
import type { ApiClient } from "./client.ts";
import { bindCall, call, type InputOf } from "./define.ts";

/** A multipart upload: a FormData with the image under "file". */
const upload = z.custom<FormData>((v) => typeof FormData !== "undefined" && v instanceof FormData, "must be FormData");

export const walletLogCalls = {
  getWalletLogs: call({ method: "GET", path: "/api/WalletLog/GetWalletLogs", query: getWalletLogsQuery, result: walletLogPage }),
  payment: call({ method: "GET", path: "/api/WalletLog/Payment", idempotent: true, query: paymentQuery, result: paymentResult }),
  /** Queues the xlsx export of the entries matching the list's filters; answers its task id (TaskType.ExportWalletLogs). */
  exportWalletLogs: call({
    method: "POST",
    path: "/api/WalletLog/ExportWalletLogs",
    idempotent: true,
    query: exportWalletLogsQuery,
    result: exportWalletLogsResult,
  }),
  /** Answers the xlsx file, not JSON: see downloadWalletLogExport below. */
  downloadWalletLogExport: call({ method: "GET", path: "/api/WalletLog/DownloadWalletLogExport", query: downloadWalletLogExportQuery }),
};

export const chargeRecordCalls = {
  /** Multipart: a FormData with the image (JPEG, PNG, WebP or GIF by its bytes, at most 5 MB) under "file". */
  uploadReceipt: call({ method: "POST", path: "/api/ChargeRecord/UploadReceipt", body: upload, result: uploadReceiptResult }),
  /** Answers the image, not JSON: see getReceipt below. */
  getReceipt: call({ method: "GET", path: "/api/ChargeRecord/GetReceipt", query: getReceiptQuery }),
  /** The platform's receiving accounts (the top-up dialog shows them). */
  getReceivingAccounts: call({ method: "GET", path: "/api/ChargeRecord/GetReceivingAccounts", result: receivingAccountList }),
  submitChagreRecord: call({
    method: "POST",
    path: "/api/ChargeRecord/SubmitChagreRecord",
    idempotent: true,
    body: submitChargeRecordInput,
    result: chargeRecord,
  }),
  getChargeRecords: call({
    method: "GET",
    path: "/api/ChargeRecord/GetChargeRecords",
    query: getChargeRecordsQuery,
    result: chargeRecordPage,
  }),
  getHostChargeRecords: call({
    method: "GET",
    path: "/api/ChargeRecord/GetHostChargeRecords",
    query: getHostChargeRecordsQuery,
    result: chargeRecordPage,
  }),
  auditChargeRecord: call({
    method: "POST",
    path: "/api/ChargeRecord/AuditChargeRecord",
    idempotent: true,
    body: auditChargeRecordInput,
    result: chargeRecord,
  }),
};

export const withdrawCalls = {
  requestWithdraw: call({
    method: "POST",
    path: "/api/Withdraw/RequestWithdraw",
    idempotent: true,
    body: requestWithdrawInput,
    result: withdrawal,
  }),
  getWithdraws: call({ method: "GET", path: "/api/Withdraw/GetWithdraws", query: getWithdrawsQuery, result: withdrawalPage }),
  getHostWithdraws: call({ method: "GET", path: "/api/Withdraw/GetHostWithdraws", query: getWithdrawsQuery, result: withdrawalPage }),
  auditWithdraw: call({
    method: "POST",
    path: "/api/Withdraw/AuditWithdraw",
    idempotent: true,
    body: auditWithdrawInput,
    result: withdrawal,
  }),
};

/** The host's wallet calls of spec §7 Hosted (the rest of Hosted is in hosted.ts). */
export const hostedWalletCalls = {
  addOrSubMoney: call({
    method: "POST",
    path: "/api/Hosted/AddOrSubMoney",
    idempotent: true,
    body: addOrSubMoneyInput,
    result: hostWalletInfo,
  }),
  getHostWalletInfo: call({
    method: "GET",
    path: "/api/Hosted/GetHostWalletInfo",
    query: getHostWalletInfoQuery,
    result: hostWalletInfoPage,
  }),
};

export const createWalletLogApi = (client: ApiClient) => ({
  getWalletLogs: bindCall(client, walletLogCalls.getWalletLogs),
  payment: bindCall(client, walletLogCalls.payment),
  exportWalletLogs: bindCall(client, walletLogCalls.exportWalletLogs),
  /** The finished export's address (the file needs the bearer token: fetch it, do not navigate to it). */
  downloadWalletLogExport: (input: InputOf<typeof downloadWalletLogExportQuery>) =>
    client.url(walletLogCalls.downloadWalletLogExport.path, { taskId: input.taskId }),
});
export type WalletLogApi = ReturnType<typeof createWalletLogApi>;

export const createChargeRecordApi = (client: ApiClient) => ({
  uploadReceipt: bindCall(client, chargeRecordCalls.uploadReceipt),
  /** The receipt image's address (the image needs the bearer token: fetch it, do not navigate to it). */
  getReceipt: (input: InputOf<typeof getReceiptQuery>) => client.url(chargeRecordCalls.getReceipt.path, { pic: input.pic }),
  submitChagreRecord: bindCall(client, chargeRecordCalls.submitChagreRecord),
  getChargeRecords: bindCall(client, chargeRecordCalls.getChargeRecords),
  getHostChargeRecords: bindCall(client, chargeRecordCalls.getHostChargeRecords),
  auditChargeRecord: bindCall(client, chargeRecordCalls.auditChargeRecord),
  getReceivingAccounts: bindCall(client, chargeRecordCalls.getReceivingAccounts),
});
export type ChargeRecordApi = ReturnType<typeof createChargeRecordApi>;

export const createWithdrawApi = (client: ApiClient) => ({
  requestWithdraw: bindCall(client, withdrawCalls.requestWithdraw),
  getWithdraws: bindCall(client, withdrawCalls.getWithdraws),
  getHostWithdraws: bindCall(client, withdrawCalls.getHostWithdraws),
  auditWithdraw: bindCall(client, withdrawCalls.auditWithdraw),
});
export type WithdrawApi = ReturnType<typeof createWithdrawApi>;

export const createHostedWalletApi = (client: ApiClient) => ({
  addOrSubMoney: bindCall(client, hostedWalletCalls.addOrSubMoney),
  getHostWalletInfo: bindCall(client, hostedWalletCalls.getHostWalletInfo),
});
export type HostedWalletApi = ReturnType<typeof createHostedWalletApi>;
