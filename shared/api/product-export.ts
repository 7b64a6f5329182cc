// Product export calls (spec §7 Product ExportProduct, DownloadExport). exportProduct queues the export and answers
// its task id; the task centre (tasks.getTaskInfoByPage, TaskType.ExportProducts) shows its progress; once it has
// succeeded, DownloadExport answers the xlsx file itself (not JSON), so the client gives its address: fetch it with
// the same Authorization (and __tenant) headers as every call and save the body (a blob) under the name of its
// Content-Disposition (also the task's taskRemark).
import { downloadExportQuery, exportProductInput, exportProductResult } from "../contract/product-export.ts";
import type { ApiClient } from "./client.ts";
import { bindCall, call, type InputOf } from "./define.ts";

export const productExportCalls = {
  exportProduct: call({
    idempotent: true,
    method: "POST",
    path: "/api/Product/ExportProduct",
    body: exportProductInput,
    result: exportProductResult,
  }),
  /** Answers application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, not JSON: see downloadExport below. */
  downloadExport: call({ method: "GET", path: "/api/Product/DownloadExport", query: downloadExportQuery }),
};

export const createProductExportApi = (client: ApiClient) => ({
  exportProduct: bindCall(client, productExportCalls.exportProduct),
  /** The download's address (the file needs the bearer token: fetch it, do not navigate to it). */
  downloadExport: (input: InputOf<typeof downloadExportQuery>) =>
    client.url(productExportCalls.downloadExport.path, { taskId: input.taskId }),
});
export type ProductExportApi = ReturnType<typeof createProductExportApi>;
