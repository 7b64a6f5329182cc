// Product export (spec §7 Product ExportProduct, DownloadExport). ExportProduct records a task and queues a job; the
// job streams the selected products into DATA_DIR/exports/<tenantId>/<taskId>.xlsx: rows read 1,000 at a time by
// keyset on (creation_time, id), newest first as the list shows them, each batch in its own short transaction, written
// through exceljs's streaming writer (no shared strings), so memory stays flat whatever the number of products. The
// file is written under a temporary name and renamed when complete. DownloadExport streams it to the task's creator.
import { randomUUID } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, open, readdir, rename, stat, unlink } from "node:fs/promises";
import type { OutgoingHttpHeaders } from "node:http";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import ExcelJS from "exceljs";
import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import { productLabels, products, taskInfos, users } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import type { SessionUser } from "../identity/session-user.ts";
import { businessError, notFound } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import { TaskStatus, TaskType } from "../../../shared/contract/enums.ts";
import { platformNames, productStatusNames } from "../../../shared/contract/names.ts";
import { productSelection, type ProductSelection } from "../../../shared/contract/product.ts";
import {
  PRODUCT_EXPORT_KEEP_DAYS,
  PRODUCT_EXPORT_MAX_ROWS,
  productExportColumnKeys,
  productExportColumns,
  type ProductExportColumn,
} from "../../../shared/contract/product-export.ts";
import { selectionWhere } from "./filter.ts";

export const EXPORT_PRODUCTS_JOB = "export-products";
/** Rows read and written per batch; the task's progress moves once per batch. */
export const EXPORT_BATCH_SIZE = 1000;
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const KEEP_MS = PRODUCT_EXPORT_KEEP_DAYS * 24 * 3600 * 1000;
/** A temporary file older than this is a crashed run's leftover. */
const STALE_TEMP_MS = 24 * 3600 * 1000;
const DEFAULT_UTC_OFFSET_MINUTES = 480;

type ExportJob = {
  tenantId: string;
  taskId: string;
  userId: string;
  /** The validated selection (productIds, ids or filter), read again with productSelection in the job. */
  selection: ProductSelection;
  columns: ProductExportColumn[];
  utcOffsetMinutes: number;
  /** The name the download gives the file, fixed when the export was asked for. */
  fileName: string;
  content: string;
};

export type ProductExportDeps = { database: Database; jobs: Jobs; log: FastifyBaseLogger; dataDir: string };

/** ExportProduct and DownloadExport, and the worker that writes the files under dataDir/exports. */
export function createProductExport(deps: ProductExportDeps) {
  deps.jobs.handle<ExportJob>(EXPORT_PRODUCTS_JOB, (job) => runExport(deps, job));
  return {
    exportProduct: (ctx: CallContext, body: ExportInput) => exportProduct(deps.jobs, ctx, body),
    downloadExport: (ctx: CallContext, taskId: string) => downloadExport(deps.dataDir, ctx, taskId),
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
export function exportFileName(at: Date, utcOffsetMinutes: number): string {
  const local = new Date(at.getTime() + utcOffsetMinutes * 60_000).toISOString(); // 2024-05-01T15:30:12.345Z
  return `商品导出-${local.slice(0, 10).replaceAll("-", "")}-${local.slice(11, 19).replaceAll(":", "")}.xlsx`;
}
const fileNamePattern = /^商品导出-\d{8}-\d{6}\.xlsx$/;

const exportDir = (dataDir: string, tenantId: string) => join(dataDir, "exports", tenantId);
const exportFile = (dataDir: string, tenantId: string, taskId: string) => join(exportDir(dataDir, tenantId), `${taskId}.xlsx`);

// ---------------------------------------------------------------------------------------------------------------
// The download. A call answers JSON through calls.ts; this one takes the reply over (hijack) and streams the file
// itself, after the checks have run in the call's transaction. Headers already set on the reply (CORS) are kept.

async function downloadExport(dataDir: string, ctx: CallContext, taskId: string): Promise<undefined> {
  const [task] = await ctx.tx
    .select({ taskStatus: taskInfos.taskStatus, taskRemark: taskInfos.taskRemark })
    .from(taskInfos)
    .where(
      and(
        eq(taskInfos.tenantId, ctx.tenantId),
        eq(taskInfos.id, taskId),
        eq(taskInfos.creatorId, ctx.user!.id),
        eq(taskInfos.taskType, TaskType.ExportProducts),
      ),
    );
  if (!task) throw notFound("导出任务不存在");
  if (task.taskStatus === TaskStatus.Pending || task.taskStatus === TaskStatus.Running) throw businessError("导出尚未完成，请稍后再下载");
  if (task.taskStatus !== TaskStatus.Succeeded) throw businessError("导出未成功，请重新导出");

  const file = await open(exportFile(dataDir, ctx.tenantId, taskId), "r").catch(() => null);
  if (!file) throw notFound("导出文件已过期，请重新导出");
  let size: number;
  try {
    const info = await file.stat();
    if (Date.now() - info.mtimeMs > KEEP_MS) throw notFound("导出文件已过期，请重新导出");
    size = info.size;
  } catch (err) {
    await file.close();
    throw err;
  }
  const name = task.taskRemark && fileNamePattern.test(task.taskRemark) ? task.taskRemark : "商品导出.xlsx";
  const reply = ctx.reply;
  reply.hijack();
  const headers: OutgoingHttpHeaders = {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    "content-type": XLSX_TYPE,
    "content-length": String(size),
    "content-disposition": `attachment; filename="${name.replace("商品导出", "products")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    // A console on another allowed origin reads the file name too.
    "access-control-expose-headers": "Content-Disposition",
  };
  reply.raw.writeHead(200, headers);
  pipeline(file.createReadStream(), reply.raw).catch((err: unknown) => {
    ctx.req.log.warn({ err, taskId }, "export download ended early");
  });
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The job.

/** A failure that trying again cannot fix: the task fails and the job ends without a retry. */
class FinalFailure extends Error {}

async function runExport(deps: ProductExportDeps, job: ExportJob): Promise<void> {
  const db = deps.database.db;
  const { tenantId, taskId } = job;
  await updateTask(db, tenantId, taskId, { taskStatus: TaskStatus.Running, progress: 0, taskRemark: null });
  const dir = exportDir(deps.dataDir, tenantId);
  const temp = join(dir, `${taskId}.${randomUUID()}.tmp`);
  try {
    const user = await inScope(db, { tenantId }, async (tx) => {
      const [row] = await tx
        .select()
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.id, job.userId)));
      return row;
    });
    if (!user || user.isDeleted) throw new FinalFailure("导出人的账号已不存在");
    await mkdir(dir, { recursive: true });
    await removeExpiredExports(deps, dir, tenantId, job.userId);

    // The visibility rule and the selection exactly as the calls apply them: the job acts as the user who asked.
    const asUser = { tenantId, user: user as SessionUser } as CallContext;
    const selection = productSelection.parse(job.selection);
    const where = selectionWhere(asUser, selection);
    const total = await inScope(db, { tenantId }, async (tx) => (await tx.select({ n: count() }).from(products).where(where))[0]?.n ?? 0);
    if (total > PRODUCT_EXPORT_MAX_ROWS) {
      throw new FinalFailure(`一次最多导出 ${PRODUCT_EXPORT_MAX_ROWS} 个商品（选中 ${total} 个），请缩小筛选范围`);
    }
    await updateTask(db, tenantId, taskId, { taskRemark: `已导出 0/${total}` });

    const processed = await writeWorkbook(temp, job, async (onBatch) => {
      let cursor: { time: string; id: string } | null = null;
      let done = 0;
      for (;;) {
        const after: { time: string; id: string } | null = cursor;
        const rows: ExportRow[] = await inScope(db, { tenantId }, (tx) => readBatch(tx, where, after));
        if (rows.length) {
          await onBatch(rows);
          done += rows.length;
          const last = rows[rows.length - 1];
          cursor = { time: last.cursorTime, id: last.id };
          const progress = total ? Math.min(99, Math.floor((done * 100) / total)) : 99;
          await updateTask(db, tenantId, taskId, { progress, taskRemark: `已导出 ${done}/${Math.max(total, done)}` });
        }
        if (rows.length < EXPORT_BATCH_SIZE) return done;
      }
    });
    await rename(temp, exportFile(deps.dataDir, tenantId, taskId));
    await updateTask(db, tenantId, taskId, {
      taskStatus: TaskStatus.Succeeded,
      progress: 100,
      taskRemark: job.fileName,
      content: `${job.content}：共 ${processed} 个商品`,
    });
  } catch (err) {
    await unlink(temp).catch(() => {});
    const message = err instanceof FinalFailure ? err.message : `导出失败：${err instanceof Error ? err.message : String(err)}`;
    await updateTask(db, tenantId, taskId, { taskStatus: TaskStatus.Failed, taskRemark: message });
    if (err instanceof FinalFailure) return;
    throw err;
  }
}

/** The caller's finished exports older than the keeping time, and its crashed runs' temporary files. */
async function removeExpiredExports(deps: ProductExportDeps, dir: string, tenantId: string, userId: string) {
  try {
    const now = Date.now();
    const old = new Map<string, string[]>(); // task id -> its files
    for (const name of await readdir(dir)) {
      const m = /^([0-9a-f-]{36})\.(xlsx|[0-9a-f-]{36}\.tmp)$/.exec(name);
      if (!m) continue;
      const info = await stat(join(dir, name)).catch(() => null);
      if (!info || now - info.mtimeMs <= (m[2] === "xlsx" ? KEEP_MS : STALE_TEMP_MS)) continue;
      old.set(m[1], [...(old.get(m[1]) ?? []), name]);
    }
    const ids = [...old.keys()];
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const mine = await inScope(deps.database.db, { tenantId }, (tx) =>
        tx
          .select({ id: taskInfos.id })
          .from(taskInfos)
          .where(and(eq(taskInfos.tenantId, tenantId), eq(taskInfos.creatorId, userId), inArray(taskInfos.id, chunk))),
      );
      for (const { id } of mine) for (const name of old.get(id) ?? []) await unlink(join(dir, name)).catch(() => {});
    }
  } catch (err) {
    deps.log.warn({ err, tenantId }, "removing expired product exports failed");
  }
}

type ExportRow = Awaited<ReturnType<typeof readBatch>>[number];

function readBatch(tx: Tx, where: SQL, after: { time: string; id: string } | null) {
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

type Cell = string | number | Date | null;
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

/**
 * Writes the workbook to `path` as `produce` hands over batches of rows; answers produce's answer. The file stream is
 * ours (not exceljs's `filename`), so a write error (disk full) is caught at once and fails the job instead of the
 * process.
 */
async function writeWorkbook(
  path: string,
  job: ExportJob,
  produce: (onBatch: (rows: ExportRow[]) => Promise<void>) => Promise<number>,
): Promise<number> {
  const out: WriteStream = createWriteStream(path);
  let streamError: Error | null = null;
  const broken = new Promise<never>((_, reject) =>
    out.on("error", (err) => {
      streamError ??= err;
      reject(err);
    }),
  );
  broken.catch(() => {}); // raced below; an error is also checked after every batch
  const failIfBroken = () => {
    if (streamError) throw streamError;
  };
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    workbook.creator = "Mercado ERP";
    const sheet = workbook.addWorksheet("商品", { views: [{ state: "frozen", ySplit: 1 }] });
    const specs = job.columns.map((key) => columnSpecs[key]);
    sheet.columns = job.columns.map((key, i) => ({
      header: productExportColumns[key],
      key,
      width: specs[i].width,
      ...(specs[i].numFmt ? { style: { numFmt: specs[i].numFmt } } : {}),
    }));
    const header = sheet.getRow(1);
    header.font = { bold: true };
    header.commit();
    const offsetMs = job.utcOffsetMinutes * 60_000;
    const processed = await produce(async (rows) => {
      failIfBroken();
      for (const r of rows) sheet.addRow(specs.map((s) => s.value(r, offsetMs))).commit();
      await Promise.race([entryTookBatch(sheet), broken]);
    });
    sheet.commit();
    await Promise.race([workbook.commit(), broken]);
    return processed;
  } catch (err) {
    out.destroy();
    throw err;
  }
}

/**
 * exceljs's streaming writer does not wait for the zip: it hands each row's XML to the sheet's zip entry at once, so
 * when the database answers faster than deflate runs, the XML piles up in memory. Waiting after each batch until the
 * entry has taken everything written keeps at most one batch (about 1 MB of XML) in memory. It reads exceljs 4's
 * internals (the sheet's stream and its one pipe); if they change, it does not wait rather than break the export,
 * and a stalled zip does not stall the job for more than 30 s per batch.
 */
function entryTookBatch(sheet: ExcelJS.Worksheet): Promise<void> {
  type Entry = NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean } };
  const entry = (sheet as unknown as { stream?: { pipes?: Entry[] } }).stream?.pipes?.[0];
  if (!entry?._writableState?.needDrain) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      entry.off("drain", done);
      resolve();
    };
    const timer = setTimeout(done, 30_000);
    entry.once("drain", done);
  });
}
