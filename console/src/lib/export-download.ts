// The file of a finished export (DownloadExport, DownloadWalletLogExport, DownloadPurchaseListExport) or 批量打单
// (DownloadPrintedLabels): the call answers the file's address, which needs the bearer token (and tenant), so it is
// fetched, not navigated to, and saved under the name its Content-Disposition gives. Shared by the screen that started the task and the task centre, since features do not
// import each other.
import { tenantHeader } from "#shared/api/client.ts";
import { TaskType } from "#shared/contract/enums.ts";
import { errorFromBody } from "#shared/api/errors.ts";
import { useUserStore } from "../stores/user.ts";
import { api } from "./feature-api.ts";
import { formatDate } from "./format.ts";

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
export const downloadProductExport = (task: TaskFile): Promise<string> => downloadTaskFile({ ...task, taskType: TaskType.ExportProducts });

type TaskFile = { taskId: string; taskRemark?: string | null };

/** The task types whose finished file the task centre offers (下载, to the task's creator): where the file is and the
 *  name to save it under when the server gives none. */
const taskFiles: Partial<Record<number, { url: (taskId: string) => Promise<string>; name: () => string }>> = {
  [TaskType.ExportProducts]: {
    url: (taskId) => api.productExport.downloadExport({ taskId }),
    name: () => `商品导出-${formatDate(new Date())}.xlsx`,
  },
  [TaskType.PrintLabels]: {
    url: async (taskId) => api.order.downloadPrintedLabels({ taskId }),
    name: () => `面单-${formatDate(new Date())}.pdf`,
  },
  [TaskType.ExportWalletLogs]: {
    url: async (taskId) => api.walletLog.downloadWalletLogExport({ taskId }),
    name: () => `钱包记录-${formatDate(new Date())}.xlsx`,
  },
  [TaskType.ExportPurchaseList]: {
    url: async (taskId) => api.order.downloadPurchaseListExport({ taskId }),
    name: () => `采购单-${formatDate(new Date())}.xlsx`,
  },
};

/** Whether a task of this type leaves a file to download once it has succeeded. */
export const taskHasFile = (taskType: number) => taskType in taskFiles;

/** Saves a finished task's file (an export's xlsx: products, wallet entries, 采购单; 批量打单's PDF) as downloadProductExport does; answers the name. */
export async function downloadTaskFile(task: TaskFile & { taskType: number }): Promise<string> {
  const file = taskFiles[task.taskType];
  if (!file) throw new Error(`task type ${task.taskType} has no file`);
  return downloadFile(await file.url(task.taskId), task.taskRemark || file.name());
}

/** A file of the API (an export, a label, a receipt image) fetched with the session's headers; a refusal throws the
 *  server's error. */
export async function fetchApiFile(url: string): Promise<Response> {
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
  return res;
}

/** Fetches a file of the API with the session's headers (an export, an order's label) and saves it under the name its
 *  Content-Disposition gives, else `fallbackName`; a refusal throws the server's error. Answers the name. */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const res = await fetchApiFile(url);
  const blob = await res.blob();
  const name = fileNameOf(res.headers.get("content-disposition")) ?? fallbackName;
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
