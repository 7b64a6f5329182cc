// 导出: ExportWalletLogs queues an xlsx export of the ledger entries matching the list's filters (its task id in the
// answer); once the task has succeeded the file is fetched with the session's headers and saved (lib/export-download.ts).
import { useMutation } from "@tanstack/react-query";
import type { InputOf } from "#shared/api/define.ts";
import type { exportWalletLogsQuery } from "#shared/contract/wallet.ts";
import { downloadFile } from "../../../lib/export-download.ts";
import { api } from "../../../lib/feature-api.ts";
import { formatDate } from "../../../lib/format.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

/** The list's filters the export takes. */
export type WalletExportFilter = Omit<InputOf<typeof exportWalletLogsQuery>, "UtcOffsetMinutes">;

/** The dates in the file are written in the browser's time zone. */
export const exportWalletLogs = (filter: WalletExportFilter) =>
  api.walletLog.exportWalletLogs({ ...filter, UtcOffsetMinutes: -new Date().getTimezoneOffset() });

/** Saves the finished export under the name the server gives; answers it. */
export const downloadWalletLogExport = async (task: { taskId: string; taskRemark?: string | null }) =>
  downloadFile(
    await api.walletLog.downloadWalletLogExport({ taskId: task.taskId }),
    task.taskRemark || `钱包记录-${formatDate(new Date())}.xlsx`,
  );

export const useExportWalletLogs = ({ mutationConfig }: MutationHookOptions<typeof exportWalletLogs> = {}) =>
  useMutation(withCallerConfig({ mutationFn: exportWalletLogs }, mutationConfig));

/** Silent: the export dialog (ExportTaskDialog) shows a failed download itself. */
export const useDownloadWalletLogExport = ({ mutationConfig }: MutationHookOptions<typeof downloadWalletLogExport> = {}) =>
  useMutation(withCallerConfig({ mutationFn: downloadWalletLogExport, meta: { silent: true } }, mutationConfig));
