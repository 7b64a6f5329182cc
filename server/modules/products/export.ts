// Product export (spec §7 Product ExportProduct, DownloadExport). ExportProduct records a task and queues a job; the
// job streams the selected products into DATA_DIR/exports/<tenantId>/<taskId>.xlsx through the shared export machine
// (server/jobs/xlsx-export.ts): rows read 1,000 at a time by keyset on (creation_time, id), newest first as the list
// shows them, each batch in its own short transaction, memory flat whatever the number of products. DownloadExport
// streams the finished file to the task's creator.
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { productLabels, products, users } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import type { SessionUser } from "../../http/session-user.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask } from "../../jobs/tasks.ts";
import {
  exportFileName as fileNameOf,
  runXlsxExport,
  sendExportFile,
  type Cell,
  type Cursor,
  type XlsxExportJob,
  type XlsxSource,
} from "../../jobs/xlsx-export.ts";
import { TaskType } from "#shared/contract/enums.ts";
import { platformNames, productStatusNames } from "#shared/contract/names.ts";
import { productSelection, type ProductSelection } from "#shared/contract/product.ts";
import {
  PRODUCT_EXPORT_MAX_ROWS,
  productExportColumnKeys,
  productExportColumns,
  type ProductExportColumn,
} from "#shared/contract/product-export.ts";
import { selectionWhere } from "./filter.ts";

const EXPORT_PRODUCTS_JOB = "export-products";
/** Rows read and written per batch; the task's progress moves once per batch. */
const EXPORT_BATCH_SIZE = 1000;
const DEFAULT_UTC_OFFSET_MINUTES = 480;

type ExportJob = XlsxExportJob & {
  /** The validated selection (productIds, ids or filter), read again with productSelection in the job. */
  selection: ProductSelection;
  columns: ProductExportColumn[];
};

export type ProductExportDeps = { database: Database; jobs: Jobs; log: FastifyBaseLogger; dataDir: string };

/** ExportProduct and DownloadExport, and the worker that writes the files under dataDir/exports. */
export function createProductExport(deps: ProductExportDeps) {
  return {
    workers: [worker<ExportJob>(EXPORT_PRODUCTS_JOB, (job) => runExport(deps, job))],
    exportProduct: (ctx: CallContext, body: ExportInput) => exportProduct(deps.jobs, ctx, body),
    downloadExport: (ctx: CallContext, taskId: string) =>
      sendExportFile(deps.dataDir, ctx, taskId, {
        taskType: TaskType.ExportProducts,
        fileNamePattern,
        fallbackName: "商品导出.xlsx",
        prefix: "商品导出",
        asciiPrefix: "products",
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The calls.

type ExportInput = ProductSelection & { columns?: ProductExportColumn[] | null; utcOffsetMinutes?: number | null };

async function exportProduct(jobs: Jobs, ctx: CallContext, body: ExportInput) {
  const u = ctx.user!;
  const selection: ProductSelection = { productIds: body.productIds ?? null, ids: body.ids ?? null, filter: body.filter ?? null };
  selectionWhere(ctx, selection); // the same refusal as every bulk edit for a selection that selects nothing
  const columns = body.columns?.length ? [...new Set(body.columns)] : [...productExportColumnKeys];
  const utcOffsetMinutes = body.utcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES;
  const list = selection.productIds ?? selection.ids;
  const content = list ? `导出商品（已选 ${new Set(list).size} 个）` : "导出商品（按筛选条件）";
  const taskId = await createTask(ctx.tx, { tenantId: ctx.tenantId, taskType: TaskType.ExportProducts, content, creatorId: u.id });
  const job: ExportJob = {
    tenantId: ctx.tenantId,
    taskId,
    userId: u.id,
    selection,
    columns,
    utcOffsetMinutes,
    fileName: exportFileName(new Date(), utcOffsetMinutes),
    content,
  };
  await jobs.send<ExportJob>(EXPORT_PRODUCTS_JOB, job, { tx: ctx.tx });
  return { taskId };
}

/** 商品导出-20240501-153012.xlsx, in the caller's time zone. */
const exportFileName = (at: Date, utcOffsetMinutes: number): string => fileNameOf("商品导出", at, utcOffsetMinutes);
const fileNamePattern = /^商品导出-\d{8}-\d{6}\.xlsx$/;

// ---------------------------------------------------------------------------------------------------------------
// The job: the visibility rule and the selection exactly as the calls apply them (the job acts as the user who asked).

function runExport(deps: ProductExportDeps, job: ExportJob): Promise<void> {
  return runXlsxExport(deps, job, (user: SessionUser): XlsxSource<ExportRow> => {
    const asUser = { tenantId: job.tenantId, user } as CallContext;
    const where = selectionWhere(asUser, productSelection.parse(job.selection));
    return {
      sheetName: "商品",
      columns: job.columns.map((key) => ({ header: productExportColumns[key], ...columnSpecs[key] })),
      batchSize: EXPORT_BATCH_SIZE,
      maxRows: PRODUCT_EXPORT_MAX_ROWS,
      tooMany: (total) => `一次最多导出 ${PRODUCT_EXPORT_MAX_ROWS} 个商品（选中 ${total} 个），请缩小筛选范围`,
      done: (n) => `共 ${n} 个商品`,
      count: async (tx) => (await tx.select({ n: count() }).from(products).where(where))[0]?.n ?? 0,
      batch: (tx, after) => readBatch(tx, where, after),
    };
  });
}

type ExportRow = Awaited<ReturnType<typeof readBatch>>[number];

function readBatch(tx: Tx, where: SQL, after: Cursor | null) {
  // The cursor's time travels as PostgreSQL's own text (microseconds and offset), so no row is skipped or repeated.
  const keyset = after ? sql`(${products.creationTime}, ${products.id}) < (${after.time}::timestamptz, ${after.id}::uuid)` : undefined;
  return tx
    .select({
      id: products.id,
      cursorTime: sql<string>`${products.creationTime}::text`,
      creationTime: products.creationTime,
      title: products.title,
      titleText: products.titleText,
      sku: products.sku,
      price: products.price,
      currency: products.currency,
      weight: products.weight,
      size: products.size,
      stock: products.stock,
      brand: products.brand,
      status: products.status,
      labelName: productLabels.name,
      platformType: products.platformType,
      sourceUrl: products.sourceUrl,
      infringementWord: products.infringementWord,
      image: products.image,
      owner: users.userName,
    })
    .from(products)
    .leftJoin(productLabels, and(eq(productLabels.tenantId, products.tenantId), eq(productLabels.id, products.labelId)))
    .leftJoin(users, and(eq(users.tenantId, products.tenantId), eq(users.id, products.userId)))
    .where(keyset ? and(where, keyset) : where)
    .orderBy(desc(products.creationTime), desc(products.id))
    .limit(EXPORT_BATCH_SIZE);
}

// ---------------------------------------------------------------------------------------------------------------
// The workbook.

const text = (v: string | null | undefined): Cell => (v === null || v === undefined || v === "" ? null : v);
const num = (v: string | null): Cell => (v === null ? null : Number(v));
const titleIn = (title: unknown, lang: string): Cell =>
  title && typeof title === "object" && typeof (title as Record<string, unknown>)[lang] === "string"
    ? text((title as Record<string, string>)[lang])
    : null;

const columnSpecs: Record<ProductExportColumn, { width: number; numFmt?: string; value: (r: ExportRow, offsetMs: number) => Cell }> = {
  id: { width: 38, value: (r) => r.id },
  title: { width: 50, value: (r) => text(r.titleText) },
  titleEs: { width: 50, value: (r) => titleIn(r.title, "es") },
  titlePt: { width: 50, value: (r) => titleIn(r.title, "pt") },
  titleEn: { width: 50, value: (r) => titleIn(r.title, "en") },
  sku: { width: 20, value: (r) => text(r.sku) },
  price: { width: 12, numFmt: "0.00", value: (r) => num(r.price) },
  currency: { width: 8, value: (r) => text(r.currency) },
  weight: { width: 10, value: (r) => num(r.weight) },
  size: { width: 14, value: (r) => text(r.size) },
  stock: { width: 10, value: (r) => r.stock },
  brand: { width: 16, value: (r) => text(r.brand) },
  status: { width: 10, value: (r) => productStatusNames[r.status] ?? String(r.status) },
  label: { width: 14, value: (r) => text(r.labelName) },
  platform: { width: 12, value: (r) => (r.platformType === null ? null : (platformNames[r.platformType] ?? String(r.platformType))) },
  sourceUrl: { width: 40, value: (r) => text(r.sourceUrl) },
  infringementWord: { width: 14, value: (r) => text(r.infringementWord) },
  image: { width: 40, value: (r) => text(r.image) },
  // Excel dates carry no zone: the time is written as the clock reads at the caller's offset.
  creationTime: { width: 20, numFmt: "yyyy-mm-dd hh:mm:ss", value: (r, offsetMs) => new Date(r.creationTime.getTime() + offsetMs) },
  owner: { width: 16, value: (r) => text(r.owner) },
};
