// Product export calls (spec §7 Product ExportProduct, DownloadExport). exportProduct queues the export and answers
// its task id; the task centre (tasks.getTaskInfoByPage, TaskType.ExportProducts) shows its progress; once it has
// succeeded, DownloadExport answers the xlsx file itself (not JSON), so the client gives its address: fetch it with
// the same Authorization (and __tenant) headers as every call and save the body (a blob) under the name of its
// Content-Disposition (also the task's taskRemark).
import { downloadExportQuery, exportProductInput, exportProductResult } from "../contract/product-export.ts";
import { call } from "./define.ts";

const group = "Product";

export const productExportCalls = {
  exportProduct: call({
    group,
    name: "ExportProduct",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Export the selected products (ids or filter) to xlsx as a background task; answers {taskId}: poll the task centre, then DownloadExport",
    body: exportProductInput,
    result: exportProductResult,
  }),
  /**
   * Answers application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, not JSON, so it declares no result: see
   * downloadExport below.
   */
  downloadExport: call({
    group,
    name: "DownloadExport",
    method: "GET",
    access: "user",
    summary: "The finished export's xlsx file (the task's creator only), for 7 days",
    query: downloadExportQuery,
    answersFile: true,
  }),
};
