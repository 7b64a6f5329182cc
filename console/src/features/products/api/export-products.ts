// 导出: ExportProduct queues an xlsx export of the target (its task id in the answer); once the task has succeeded the
// file is saved (lib/export-download.ts, which the task centre uses too).
import { useMutation } from "@tanstack/react-query";
import { downloadProductExport } from "../../../lib/export-download.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { selectionBody, type BulkTarget } from "../bulk-target.ts";

/** The dates in the file are written in the browser's time zone. */
export const exportProducts = (t: BulkTarget) =>
  api.productExport.exportProduct({ ...selectionBody(t), utcOffsetMinutes: -new Date().getTimezoneOffset() });

export const useExportProducts = ({ mutationConfig }: MutationHookOptions<typeof exportProducts> = {}) =>
  useMutation(withCallerConfig({ mutationFn: exportProducts }, mutationConfig));

/** Answers the saved file's name. */
export const useDownloadProductExport = ({ mutationConfig }: MutationHookOptions<typeof downloadProductExport> = {}) =>
  useMutation(withCallerConfig({ mutationFn: downloadProductExport }, mutationConfig));
