// The wallet's calls, declared in shared/api/wallet.ts. Every call that moves money requires an Idempotency-Key (which
// replays its first answer).
import type { Registrar } from "../../http/calls.ts";
import type { Services } from "../../deps.ts";
import { MAX_RECEIPT_BYTES } from "#shared/contract/wallet.ts";
import { chargeRecordCalls, hostedWalletCalls, walletLogCalls, withdrawCalls } from "#shared/api/wallet.ts";

export function registerWallet(r: Registrar, services: Services) {
  const w = services.wallet;
  r.handle(walletLogCalls.getWalletLogs, { handler: (ctx, { query }) => w.getWalletLogs(ctx, query) });
  r.handle(walletLogCalls.exportWalletLogs, { handler: (ctx, { query }) => w.exportWalletLogs(ctx, query) });
  r.handle(walletLogCalls.downloadWalletLogExport, { handler: (ctx, { query }) => w.downloadWalletLogExport(ctx, query.taskId) });
  r.handle(walletLogCalls.payment, { handler: (ctx, { query }) => w.payment(ctx, query) });
  r.handle(chargeRecordCalls.uploadReceipt, {
    multipart: { fileSizeBytes: MAX_RECEIPT_BYTES },
    handler: (ctx) => w.uploadReceipt(ctx),
  });
  r.handle(chargeRecordCalls.getReceipt, { handler: (ctx, { query }) => w.getReceipt(ctx, query) });
  r.handle(chargeRecordCalls.getReceivingAccounts, { handler: (ctx) => w.getReceivingAccounts(ctx) });
  r.handle(chargeRecordCalls.submitChagreRecord, { handler: (ctx, { body }) => w.submitChargeRecord(ctx, body) });
  r.handle(chargeRecordCalls.getChargeRecords, { handler: (ctx, { query }) => w.getChargeRecords(ctx, query) });
  r.handle(chargeRecordCalls.getHostChargeRecords, { handler: (ctx, { query }) => w.getHostChargeRecords(ctx, query) });
  r.handle(chargeRecordCalls.auditChargeRecord, { handler: (ctx, { body }) => w.auditChargeRecord(ctx, body) });
  r.handle(withdrawCalls.requestWithdraw, { handler: (ctx, { body }) => w.requestWithdraw(ctx, body) });
  r.handle(withdrawCalls.getWithdraws, { handler: (ctx, { query }) => w.getWithdraws(ctx, query) });
  r.handle(withdrawCalls.getHostWithdraws, { handler: (ctx, { query }) => w.getHostWithdraws(ctx, query) });
  r.handle(withdrawCalls.auditWithdraw, { handler: (ctx, { body }) => w.auditWithdraw(ctx, body) });
  r.handle(hostedWalletCalls.addOrSubMoney, { handler: (ctx, { body }) => w.addOrSubMoney(ctx, body) });
  r.handle(hostedWalletCalls.getHostWalletInfo, { handler: (ctx, { query }) => w.getHostWalletInfo(ctx, query) });
}
