// 批量打单: PrintLabels queues one PDF of the ready-to-ship orders' labels (the list's filter), answering its task at
// once; once the task has succeeded the PDF is fetched with the session's headers and saved (lib/export-download.ts).
import { useMutation } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { api } from "../../../lib/feature-api.ts";
import { downloadFile } from "../../../lib/export-download.ts";
import { formatDate } from "../../../lib/format.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import type { OrderQuery } from "../order-search-params.ts";

const isoOf = (d: string | Date | undefined) => (d instanceof Date ? d.toISOString() : d);

/** The list's filter (its dates as text in the body): the server takes its ready-to-ship orders. Sent with an
 *  Idempotency-Key (useSubmitKey). */
export const printLabels = (filter: OrderQuery, options?: CallOptions) =>
  api.order.printLabels({ filter: { ...filter, StartTime: isoOf(filter.StartTime), EndTime: isoOf(filter.EndTime) } }, options);

/** Saves the finished PDF under the name the server gives; answers it. */
export const downloadPrintedLabels = async (task: { taskId: string; taskRemark?: string | null }) =>
  downloadFile(await api.order.downloadPrintedLabels({ taskId: task.taskId }), task.taskRemark || `面单-${formatDate(new Date())}.pdf`);

export function usePrintLabels({ mutationConfig }: MutationHookOptions<typeof printLabels> = {}) {
  const mutationFn = useSubmitKey(printLabels);
  return useMutation(withCallerConfig({ mutationFn }, mutationConfig));
}

/** Silent: the progress dialog shows a failed download itself. */
export const useDownloadPrintedLabels = ({ mutationConfig }: MutationHookOptions<typeof downloadPrintedLabels> = {}) =>
  useMutation(withCallerConfig({ mutationFn: downloadPrintedLabels, meta: { silent: true } }, mutationConfig));
