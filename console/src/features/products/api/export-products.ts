// 导出: ExportProduct queues an xlsx export of the target (its task id in the answer); once the task has succeeded the
// file is saved. DownloadExport answers the xlsx itself and needs the bearer token (and tenant), so it is fetched, not
// navigated to, and saved under the name its Content-Disposition gives.
import { useMutation } from "@tanstack/react-query";
import { tenantHeader } from "@shared/api/client.ts";
import { errorFromBody } from "@shared/api/errors.ts";
import { api } from "../../../lib/feature-api.ts";
import { formatDate } from "../../../lib/format.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { useUserStore } from "../../../stores/user.ts";
import { selectionBody, type BulkTarget } from "../bulk-target.ts";

/** The dates in the file are written in the browser's time zone. */
export const exportProducts = (t: BulkTarget) =>
  api.productExport.exportProduct({ ...selectionBody(t), utcOffsetMinutes: -new Date().getTimezoneOffset() });

/** The file name of a Content-Disposition header (RFC 6266: filename* wins over filename), or null. */
export function fileNameOf(disposition: string | null | undefined): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ""));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
  const name = plain ? (plain[2] ?? plain[1]).trim() : "";
  return name || null;
}

/** Saves the finished export's file under the name the server gives, else the task's remark, else a dated name;
 *  answers the name. */
export async function downloadProductExport(task: { taskId: string; taskRemark?: string | null }): Promise<string> {
  const url = await api.productExport.downloadExport({ taskId: task.taskId });
  const { access_token, tenantId } = useUserStore.getState();
  const headers: Record<string, string> = {};
  if (access_token) headers.authorization = `Bearer ${access_token}`;
  const tenant = tenantHeader(tenantId);
  if (tenant) headers.__tenant = tenant;
  const res = await fetch(url, { headers });
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => null);
    throw errorFromBody(res.status, body);
  }
  const blob = await res.blob();
  const name = fileNameOf(res.headers.get("content-disposition")) ?? (task.taskRemark || `商品导出-${formatDate(new Date())}.xlsx`);
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return name;
}

export const useExportProducts = ({ mutationConfig }: MutationHookOptions<typeof exportProducts> = {}) =>
  useMutation(withCallerConfig({ mutationFn: exportProducts }, mutationConfig));

/** Answers the saved file's name. */
export const useDownloadProductExport = ({ mutationConfig }: MutationHookOptions<typeof downloadProductExport> = {}) =>
  useMutation(withCallerConfig({ mutationFn: downloadProductExport }, mutationConfig));
