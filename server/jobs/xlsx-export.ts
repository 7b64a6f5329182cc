// The one xlsx export machine (first written for the product export, issue 5; the wallet log export uses it too). A
// call records a task and queues a job; the job (runXlsxExport) streams rows into DATA_DIR/exports/<tenantId>/<taskId>.xlsx:
// rows read in batches by keyset, each batch in its own short transaction under the tenant's scope, written through
// exceljs's streaming writer (no shared strings), so memory stays flat whatever the number of rows. The file is written
// under a temporary name and renamed when complete; the task carries progress and, when done, the download's file name.
// sendExportFile streams a finished file to the task's creator.
import { randomUUID } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, open, readdir, rename, stat, unlink } from "node:fs/promises";
import type { OutgoingHttpHeaders } from "node:http";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
// exceljs is loaded with the first export, not at every start (0.5 s of CPU).
import type ExcelJS from "exceljs";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../db/client.ts";
import { taskInfos, users } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import type { CallContext } from "../http/calls.ts";
import type { SessionUser } from "../http/session-user.ts";
import { businessError, notFound } from "../http/errors.ts";
import { updateTask } from "./tasks.ts";
import { TaskStatus } from "#shared/contract/enums.ts";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** Days a finished export can be downloaded; older files are removed. */
const EXPORT_KEEP_DAYS = 7;
const KEEP_MS = EXPORT_KEEP_DAYS * 24 * 3600 * 1000;
/** A temporary file older than this is a crashed run's leftover. */
const STALE_TEMP_MS = 24 * 3600 * 1000;

export type XlsxExportDeps = { database: Database; log: FastifyBaseLogger; dataDir: string };

/** What every export job carries; an export adds its own selection. */
export type XlsxExportJob = {
  tenantId: string;
  taskId: string;
  userId: string;
  utcOffsetMinutes: number;
  /** The name the download gives the file, fixed when the export was asked for. */
  fileName: string;
  content: string;
};

export type Cell = string | number | Date | null;
export type XlsxColumn<R> = { header: string; width: number; numFmt?: string; value: (r: R, offsetMs: number) => Cell };
/** A keyset cursor: the last row's time as PostgreSQL's own text (microseconds and offset) and its id. */
export type Cursor = { time: string; id: string };

/** What one export reads and writes, built for the user who asked (their visibility rules apply). */
export type XlsxSource<R extends { id: string; cursorTime: string }> = {
  sheetName: string;
  columns: XlsxColumn<R>[];
  /** Rows per batch; progress moves once per batch. */
  batchSize: number;
  maxRows: number;
  /** The refusal when the selection holds more than maxRows. */
  tooMany: (total: number) => string;
  /** How the finished task's content counts the rows: "共 12 条记录". */
  done: (rows: number) => string;
  count: (tx: Tx) => Promise<number>;
  /** The next batch after the cursor (null: the first), in the file's order. */
  batch: (tx: Tx, after: Cursor | null) => Promise<R[]>;
};

/** `<prefix>-20240501-153012.xlsx`, in the caller's time zone. */
export function exportFileName(prefix: string, at: Date, utcOffsetMinutes: number): string {
  const local = new Date(at.getTime() + utcOffsetMinutes * 60_000).toISOString(); // 2024-05-01T15:30:12.345Z
  return `${prefix}-${local.slice(0, 10).replaceAll("-", "")}-${local.slice(11, 19).replaceAll(":", "")}.xlsx`;
}

const exportDir = (dataDir: string, tenantId: string) => join(dataDir, "exports", tenantId);
const exportFile = (dataDir: string, tenantId: string, taskId: string) => join(exportDir(dataDir, tenantId), `${taskId}.xlsx`);

// ---------------------------------------------------------------------------------------------------------------
// The download. A call answers JSON through calls.ts; this one takes the reply over (hijack) and streams the file
// itself, after the checks have run in the call's transaction. Headers already set on the reply (CORS) are kept.

export type ExportFileKind = {
  taskType: number;
  /** The file name a finished task records (its taskRemark); anything else downloads as fallbackName. */
  fileNamePattern: RegExp;
  fallbackName: string;
  /** The Chinese prefix of the name and its ASCII stand-in for old clients (filename=). */
  prefix: string;
  asciiPrefix: string;
};

/** What a download says when its task is missing, still running or failed. */
export type TaskFileMessages = { missing: string; running: string; failed: string };

/** The caller's own finished task of this type (its taskRemark holds the file name), or the error to answer. */
export async function finishedTaskOf(ctx: CallContext, taskId: string, taskType: number, says: TaskFileMessages) {
  const [task] = await ctx.tx
    .select({ taskStatus: taskInfos.taskStatus, taskRemark: taskInfos.taskRemark })
    .from(taskInfos)
    .where(
      and(
        eq(taskInfos.tenantId, ctx.tenantId),
        eq(taskInfos.id, taskId),
        eq(taskInfos.creatorId, ctx.user!.id),
        eq(taskInfos.taskType, taskType),
      ),
    );
  if (!task) throw notFound(says.missing);
  if (task.taskStatus === TaskStatus.Pending || task.taskStatus === TaskStatus.Running) throw businessError(says.running);
  if (task.taskStatus !== TaskStatus.Succeeded) throw businessError(says.failed);
  return task;
}

const exportMessages: TaskFileMessages = {
  missing: "导出任务不存在",
  running: "导出尚未完成，请稍后再下载",
  failed: "导出未成功，请重新导出",
};

export async function sendExportFile(dataDir: string, ctx: CallContext, taskId: string, kind: ExportFileKind): Promise<undefined> {
  const task = await finishedTaskOf(ctx, taskId, kind.taskType, exportMessages);

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
  const name = task.taskRemark && kind.fileNamePattern.test(task.taskRemark) ? task.taskRemark : kind.fallbackName;
  const reply = ctx.reply;
  reply.hijack();
  const headers: OutgoingHttpHeaders = {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    "content-type": XLSX_TYPE,
    "content-length": String(size),
    "content-disposition": `attachment; filename="${name.replace(kind.prefix, kind.asciiPrefix)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
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

/** Runs one export job: the user who asked is read again, `sourceFor` builds what to read for them. */
export async function runXlsxExport<R extends { id: string; cursorTime: string }>(
  deps: XlsxExportDeps,
  job: XlsxExportJob,
  sourceFor: (user: SessionUser) => XlsxSource<R>,
): Promise<void> {
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

    const source = sourceFor(user as SessionUser);
    const total = await inScope(db, { tenantId }, (tx) => source.count(tx));
    if (total > source.maxRows) throw new FinalFailure(source.tooMany(total));
    await updateTask(db, tenantId, taskId, { taskRemark: `已导出 0/${total}` });

    const processed = await writeWorkbook(temp, source, job.utcOffsetMinutes, async (onBatch) => {
      let cursor: Cursor | null = null;
      let done = 0;
      for (;;) {
        const after: Cursor | null = cursor;
        const rows: R[] = await inScope(db, { tenantId }, (tx) => source.batch(tx, after));
        if (rows.length) {
          await onBatch(rows);
          done += rows.length;
          const last = rows[rows.length - 1];
          cursor = { time: last.cursorTime, id: last.id };
          const progress = total ? Math.min(99, Math.floor((done * 100) / total)) : 99;
          await updateTask(db, tenantId, taskId, { progress, taskRemark: `已导出 ${done}/${Math.max(total, done)}` });
        }
        if (rows.length < source.batchSize) return done;
      }
    });
    await rename(temp, exportFile(deps.dataDir, tenantId, taskId));
    await updateTask(db, tenantId, taskId, {
      taskStatus: TaskStatus.Succeeded,
      progress: 100,
      taskRemark: job.fileName,
      content: `${job.content}：${source.done(processed)}`,
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
async function removeExpiredExports(deps: XlsxExportDeps, dir: string, tenantId: string, userId: string) {
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
    deps.log.warn({ err, tenantId }, "removing expired exports failed");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The workbook.

/**
 * Writes the workbook to `path` as `produce` hands over batches of rows; answers produce's answer. The file stream is
 * ours (not exceljs's `filename`), so a write error (disk full) is caught at once and fails the job instead of the
 * process.
 */
async function writeWorkbook<R extends { id: string; cursorTime: string }>(
  path: string,
  source: XlsxSource<R>,
  utcOffsetMinutes: number,
  produce: (onBatch: (rows: R[]) => Promise<void>) => Promise<number>,
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
    const { default: excel } = await import("exceljs");
    const workbook = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    workbook.creator = "Mercado ERP";
    const sheet = workbook.addWorksheet(source.sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
    const specs = source.columns;
    sheet.columns = specs.map((spec, i) => ({
      header: spec.header,
      key: `c${i}`,
      width: spec.width,
      ...(spec.numFmt ? { style: { numFmt: spec.numFmt } } : {}),
    }));
    const header = sheet.getRow(1);
    header.font = { bold: true };
    header.commit();
    const offsetMs = utcOffsetMinutes * 60_000;
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
