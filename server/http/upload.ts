// Reading an uploaded file (the imports: ImportUrls, ImportInfringementWord, and any later one) by its content, never by
// its name: the one multipart file of the request, within a size limit; then an xlsx workbook or text (csv or txt,
// UTF-8 or GB18030). A workbook is read in a worker thread (upload-worker.mjs) with a heap limit and a time limit, by
// streaming its first sheet's cells, so no workbook can stall or exhaust the server (a 1.5 KB sheet declaring one merge
// over every cell took the whole heap when the workbook was loaded whole). Callers get cell values and text, never keys
// built from file content, so a workbook full of `__proto__` cells changes nothing.
import { Worker } from "node:worker_threads";
import type { FastifyRequest } from "fastify";

import { AppError, badRequest } from "./errors.ts";
import { imageDimensions, type ImageDimensions } from "#shared/images/dimensions.ts";

const unsupportedFile = () => new AppError(415, "文件内容不是 xlsx、csv 或 txt，请检查文件", "UnsupportedFile");

function decodeText(buf: Buffer): string {
  let body = buf;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return new TextDecoder("gb18030").decode(body);
  }
}

/** Text if it looks like text: no NUL bytes and few control characters in the first 8 KB. */
function looksLikeText(buf: Buffer): boolean {
  const head = buf.subarray(0, 8192);
  let control = 0;
  for (const b of head) {
    if (b === 0) return false;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control <= head.length / 100;
}

/** Caps on what one workbook read may produce and take; past them the file is refused with a 400. */
export const XLSX_READ_LIMITS = {
  maxCells: 100_000,
  maxTextChars: 8_000_000,
  /** The first sheet and the shared strings, unpacked. */
  maxSheetBytes: 50 * 1024 * 1024,
  /** The small parts (workbook, relationships), unpacked. */
  maxPartBytes: 4 * 1024 * 1024,
  timeMs: 8_000,
  heapMb: 128,
};
/** Readers running at once in an app; more uploads wait their turn, so a burst cannot add a worker's heap per request. */
const MAX_CONCURRENT_READS = 2;

const overLimit = (what: string) => badRequest(`文件过大或格式不正确：${what}，请拆分或检查后导入`);

/** Runs a workbook read in one of the app's reader slots, waiting for one to free when all are taken. */
export type ReadSlots = <T>(read: () => Promise<T>) => Promise<T>;

/** An app's reader slots (app.ts makes them and gives them to the calls): nothing of them lives in the module. */
export function createReadSlots(max = MAX_CONCURRENT_READS): ReadSlots {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (read) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await read();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

type WorkerAnswer = { ok: true; cells: string[] } | { ok: false; status: number; message: string; code: string | null };

/** The non-empty cell texts of an xlsx's first sheet, read in a worker thread with memory and time limits. */
function readWorkbookCells(buf: Buffer, limits = XLSX_READ_LIMITS): Promise<string[]> {
  const bytes = new Uint8Array(buf); // a copy the worker owns: the upload's buffer may be a slice of a shared pool
  const worker = new Worker(new URL("./upload-worker.mjs", import.meta.url), {
    workerData: { bytes, limits },
    transferList: [bytes.buffer],
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    // vitest and tsx pass their loaders in execArgv; the worker is plain JavaScript and needs none of them.
    execArgv: [],
  });
  return new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(overLimit(`读取超过 ${limits.timeMs / 1000} 秒`));
      void worker.terminate();
    }, limits.timeMs);
    const settle = (done: () => void) => {
      clearTimeout(timer);
      done();
      void worker.terminate();
    };
    worker.once("message", (m: WorkerAnswer) =>
      settle(() => (m.ok ? resolve(m.cells) : reject(new AppError(m.status, m.message, m.code)))),
    );
    worker.once("error", (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? overLimit("读取所需内存超过上限")
            : badRequest("无法读取 xlsx 文件，请检查文件是否损坏"),
        ),
      ),
    );
    worker.once("exit", () => settle(() => reject(badRequest("无法读取 xlsx 文件，请检查文件是否损坏"))));
  });
}

/** What a table file holds, handed to the caller: each xlsx cell's text (first sheet, in order), or the whole text of a text file. */
export type TableVisitor = { cell(text: string): void; text(text: string): void };

type Table = { kind: "xlsx"; cells: string[] } | { kind: "text"; text: string };

/**
 * An xlsx, csv or txt by its content (415 for anything else). An xlsx is read off the HTTP thread (upload-worker.mjs):
 * its first sheet only, merges and styles ignored, within the limits.
 */
async function readTable(buf: Buffer, limits: typeof XLSX_READ_LIMITS, slots: ReadSlots): Promise<Table> {
  if (!buf.length) throw badRequest("文件为空");
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50) {
    return { kind: "xlsx", cells: await slots(() => readWorkbookCells(buf, limits)) };
  }
  const magic = buf.subarray(0, 8).toString("hex");
  if (magic.startsWith("d0cf11e0")) throw new AppError(415, "不支持旧版 xls 文件，请另存为 xlsx 后导入", "UnsupportedFile");
  if (!looksLikeText(buf)) throw unsupportedFile();
  return { kind: "text", text: decodeText(buf) };
}

/**
 * Reads an uploaded table file (see readTable) and hands what it holds to visit; answers which kind it was. A multipart
 * call's file was read before its transaction, in the app's reader slots; any other buffer (a test's) is read here.
 */
export async function readTableFile(buf: Buffer, visit: TableVisitor, limits = XLSX_READ_LIMITS): Promise<"xlsx" | "text"> {
  const before = tablesReadBeforeTransaction.get(buf);
  const table = before ? unwrap(before) : await readTable(buf, limits, (read) => read());
  if (table.kind === "xlsx") table.cells.forEach((text) => visit.cell(text));
  else visit.text(table.text);
  return table.kind;
}

// ---------------------------------------------------------------------------------------------------------------
// Before the transaction: a multipart call's file is received and read before its transaction opens (calls.ts), so
// neither a slow client nor a slow workbook holds a database connection meanwhile (on PGlite, the only one: every other
// request waited for the upload). The outcome, errors included, is kept and given to the handler when it asks, so what
// the handler checks first still answers first.

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };
const outcome = <T>(p: Promise<T>): Promise<Outcome<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
function unwrap<T>(o: Outcome<T>): T {
  if (!o.ok) throw o.error;
  return o.value;
}

const filesReceivedBeforeTransaction = new WeakMap<FastifyRequest, Outcome<Buffer>>();
const tablesReadBeforeTransaction = new WeakMap<Buffer, Outcome<Table>>();

/**
 * Receives and reads a multipart call's file ahead of its handler, a workbook in one of the app's reader slots; never
 * throws (the handler meets the errors).
 */
export async function receiveUploadBeforeTransaction(req: FastifyRequest, maxBytes: number, slots: ReadSlots): Promise<void> {
  const file = await outcome(receiveFile(req, maxBytes));
  filesReceivedBeforeTransaction.set(req, file);
  if (file.ok) tablesReadBeforeTransaction.set(file.value, await outcome(readTable(file.value, XLSX_READ_LIMITS, slots)));
}

// ---------------------------------------------------------------------------------------------------------------
// An uploaded image: its size read from the header, never by decoding it (a 420 KB PNG can declare 12,000 × 12,000
// pixels, ~432 MB once decoded by whoever views it).

/** Caps on an uploaded image's declared size: a long phone screenshot or a 24-megapixel photo passes. */
export const IMAGE_LIMITS = { maxSide: 10_000, maxPixels: 30_000_000 };

/** The uploaded image's format and size: 415 when it is not a JPEG, PNG, WebP or GIF, 400 when it declares too many pixels. */
export function checkUploadedImage(buf: Buffer, what: string, limits = IMAGE_LIMITS): ImageDimensions {
  if (!buf.length) throw badRequest("文件为空");
  const image = imageDimensions(buf);
  if (!image) throw new AppError(415, `文件内容不是 JPG、PNG、WebP 或 GIF 图片，请上传${what}`, "UnsupportedFile");
  const { width, height } = image;
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels)
    throw badRequest(
      `图片尺寸过大（${width} × ${height} 像素）：每边最多 ${limits.maxSide} 像素、共最多 ${limits.maxPixels / 10_000} 万像素，请缩小后上传${what}`,
    );
  return image;
}

// ---------------------------------------------------------------------------------------------------------------
// The multipart file of a request.

/** A file name that tries to name a path is refused (we never use it, but it is a sign of abuse). */
function checkFileName(name: string | undefined) {
  if (!name) return;
  if (name.length > 255 || /[\\/\0]/.test(name) || name.includes("..")) throw badRequest("文件名无效");
}

const tooLarge = (maxBytes: number) => new AppError(413, `文件过大，最大 ${maxBytes / 1024 / 1024} MB`, "PayloadTooLarge");

function multipartError(err: unknown, maxBytes: number): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code ?? "";
  if (code === "FST_REQ_FILE_TOO_LARGE" || code === "FST_PARTS_LIMIT" || code === "FST_FILES_LIMIT") return tooLarge(maxBytes);
  return badRequest("上传的文件无法读取");
}

/**
 * The bytes of the request's one uploaded file (multipart field `file`) of a call declared with `multipart`: 400
 * without a file or with a path-like name, 415 when the request is not multipart, 413 over maxBytes.
 */
export async function receiveUpload(ctx: { req: FastifyRequest }, maxBytes: number): Promise<Buffer> {
  const before = filesReceivedBeforeTransaction.get(ctx.req);
  if (!before) return receiveFile(ctx.req, maxBytes);
  const buf = unwrap(before);
  if (buf.length > maxBytes) throw tooLarge(maxBytes);
  return buf;
}

async function receiveFile(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  const req = request as FastifyRequest & {
    isMultipart?: () => boolean;
    file?: (o?: object) => Promise<{ filename: string; toBuffer(): Promise<Buffer>; file: { truncated: boolean } } | undefined>;
  };
  const sent = req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0";
  if (!sent && req.headers["transfer-encoding"] === undefined) throw badRequest("请选择要上传的文件（multipart/form-data，字段 file）");
  if (!req.isMultipart?.() || !req.file) throw new AppError(415, "请以 multipart/form-data 上传文件（字段 file）", "UnsupportedMediaType");
  let part;
  try {
    // preservePath: the name as sent, so a name that tries to name a path is seen (and refused) rather than trimmed.
    part = await req.file({ limits: { fileSize: maxBytes, files: 1 }, preservePath: true });
  } catch (err) {
    throw multipartError(err, maxBytes);
  }
  if (!part) throw badRequest("请选择要上传的文件");
  checkFileName(part.filename);
  let buf: Buffer;
  try {
    buf = await part.toBuffer();
  } catch (err) {
    throw multipartError(err, maxBytes);
  }
  if (part.file.truncated || buf.length > maxBytes) throw tooLarge(maxBytes);
  return buf;
}
