// The purchase list as xlsx (issue 32), through the shared export machine (server/jobs/xlsx-export.ts) as the wallet
// log export: ExportPurchaseList records a task and queues a job; the job reads the list for the user who asked (their
// visibility applies: the same orderWhere as the screen) and writes one row per thing to buy, by source shop.
// DownloadPurchaseListExport streams the finished file to the task's creator. A purchase list is bounded
// (PURCHASE_LIST_MAX_LINES order lines), so the job writes it as one batch.
import type { z } from "zod";
import type { CallContext } from "../../http/calls.ts";
import type { SessionUser } from "../../http/session-user.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask } from "../../jobs/tasks.ts";
import {
  exportFileName,
  runXlsxExport,
  sendExportFile,
  type XlsxColumn,
  type XlsxExportDeps,
  type XlsxExportJob,
} from "../../jobs/xlsx-export.ts";
import { TaskType } from "#shared/contract/enums.ts";
import type { OrderFilter } from "#shared/contract/orders.ts";
import {
  PURCHASE_LIST_MAX_LINES,
  purchaseListExportHeaders,
  type exportPurchaseListInput,
  type PurchaseListLine,
} from "#shared/contract/order-sources.ts";
import { groupPurchaseLines, purchaseRows } from "./purchase.ts";

const EXPORT_PURCHASE_LIST_JOB = "export-purchase-list";
const DEFAULT_UTC_OFFSET_MINUTES = 480;
const PREFIX = "采购单";
const fileNamePattern = /^采购单-\d{8}-\d{6}\.xlsx$/;

/** The filter as the job carries it (dates as ISO text). */
type Filter = Omit<Partial<OrderFilter>, "StartTime" | "EndTime"> & { StartTime?: string; EndTime?: string };
type PurchaseExportJob = XlsxExportJob & { filter: Filter };
type Row = PurchaseListLine & { id: string; cursorTime: string; shopName: string | null };

export type PurchaseExportDeps = XlsxExportDeps & { jobs: Jobs };

const columns: XlsxColumn<Row>[] = (
  [
    { width: 20, value: (r) => r.shopName ?? "未知来源" },
    { width: 40, value: (r) => r.title },
    { width: 20, value: (r) => r.source?.variant?.sku ?? null },
    { width: 20, value: (r) => r.source?.variant?.values.join(" / ") || null },
    { width: 8, value: (r) => r.quantity },
    { width: 8, value: (r) => r.boughtQuantity },
    { width: 10, numFmt: "0.00", value: (r) => r.source?.lastKnownPrice ?? null },
    { width: 6, value: (r) => r.source?.currency ?? null },
    { width: 12, numFmt: "0.00", value: (r) => r.estimatedCost },
    { width: 50, value: (r) => r.source?.purchaseUrl ?? null },
    { width: 40, value: (r) => [...new Set(r.orders.map((o) => o.orderNo))].join(", ") },
  ] satisfies Omit<XlsxColumn<Row>, "header">[]
).map((c, i) => ({ ...c, header: purchaseListExportHeaders[i] }));

/** A CallContext for the job's reads: the user who asked, in the job's own short transaction. */
const jobContext = (tx: CallContext["tx"], tenantId: string, user: SessionUser) => ({ tx, tenantId, user }) as unknown as CallContext;

export function createPurchaseExport(deps: PurchaseExportDeps) {
  const exportWorker = worker<PurchaseExportJob>(EXPORT_PURCHASE_LIST_JOB, (job) =>
    runXlsxExport(deps, job, (user) => {
      const filter: Partial<OrderFilter> = {
        ...job.filter,
        StartTime: job.filter.StartTime ? new Date(job.filter.StartTime) : undefined,
        EndTime: job.filter.EndTime ? new Date(job.filter.EndTime) : undefined,
      };
      const read = async (tx: CallContext["tx"]): Promise<Row[]> => {
        const rows = await purchaseRows(jobContext(tx, job.tenantId, user), filter);
        return groupPurchaseLines(rows.slice(0, PURCHASE_LIST_MAX_LINES)).flatMap((g) =>
          g.lines.map((l, i) => ({ ...l, id: `${g.shopId ?? ""}:${i}`, cursorTime: "", shopName: g.shopName })),
        );
      };
      return {
        sheetName: PREFIX,
        columns,
        // One batch: the list is bounded.
        batchSize: PURCHASE_LIST_MAX_LINES + 1,
        maxRows: PURCHASE_LIST_MAX_LINES,
        tooMany: (total) => `一次最多导出 ${PURCHASE_LIST_MAX_LINES} 行（选中 ${total} 行），请缩小筛选范围`,
        done: (n) => `共 ${n} 行`,
        count: async (tx) => (await read(tx)).length,
        batch: async (tx, after) => (after ? [] : read(tx)),
      };
    }),
  );

  async function exportPurchaseList(ctx: CallContext, input: z.output<typeof exportPurchaseListInput>) {
    const { UtcOffsetMinutes, StartTime, EndTime, ...rest } = input;
    const u = ctx.user!;
    const filter: Filter = { ...rest, StartTime: StartTime?.toISOString(), EndTime: EndTime?.toISOString() };
    const utcOffsetMinutes = UtcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES;
    const content = "导出采购单";
    const taskId = await createTask(ctx.tx, { tenantId: ctx.tenantId, taskType: TaskType.ExportPurchaseList, content, creatorId: u.id });
    const fileName = exportFileName(PREFIX, new Date(), utcOffsetMinutes);
    const job: PurchaseExportJob = { tenantId: ctx.tenantId, taskId, userId: u.id, utcOffsetMinutes, fileName, content, filter };
    await deps.jobs.send<PurchaseExportJob>(EXPORT_PURCHASE_LIST_JOB, job, { tx: ctx.tx });
    return { taskId };
  }

  return {
    exportPurchaseList,
    downloadPurchaseListExport: (ctx: CallContext, taskId: string) =>
      sendExportFile(deps.dataDir, ctx, taskId, {
        taskType: TaskType.ExportPurchaseList,
        fileNamePattern,
        fallbackName: `${PREFIX}.xlsx`,
        prefix: PREFIX,
        asciiPrefix: "purchase-list",
      }),
    workers: [exportWorker],
  };
}
