// 批量打单 (issue 32): PrintLabels takes the orders (their ids, or the orders list's filter) and answers a task at once;
// the task fetches their labels from Mercado Libre in batches, puts them in packing order (source shop, then SKU)
// behind a packing list page, and keeps one PDF that DownloadPrintedLabels hands to the task's creator. Only orders
// ready to ship (待发货) have a label; once printed their shipment reads `printed`.
import { z } from "zod";
import { id } from "./common.ts";
import { orderFilterQuery } from "./orders.ts";

/** Orders one PrintLabels takes at most; a larger selection is refused (narrow the filter). */
export const PRINT_LABELS_MAX_ORDERS = 1_000;

/** orderIds (the selection), filter (the orders list's filter: its ready-to-ship orders), or both (the ids within it). */
export const printLabelsInput = z
  .object({
    orderIds: z.array(id).min(1).max(PRINT_LABELS_MAX_ORDERS).optional(),
    filter: orderFilterQuery.optional(),
  })
  .refine((v) => v.orderIds !== undefined || v.filter !== undefined, "请给出 orderIds 或 filter");

/** The queued task (task centre, TaskType.PrintLabels); follow it, then DownloadPrintedLabels with its id. */
export const printLabelsResult = z.object({ taskId: z.string(), orders: z.number().int() });

/** DownloadPrintedLabels: the PrintLabels task's id; only its creator downloads it. */
export const printedLabelsQuery = z.object({ taskId: id });
