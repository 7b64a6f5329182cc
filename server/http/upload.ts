// Reading an uploaded file (the imports: ImportUrls, ImportInfringementWord) by its content, never by its name: the one
// multipart file of the request, within a size limit; then an xlsx workbook (a zip whose central directory is checked
// first: entry count, declared and actual inflated sizes, compression ratio, so a zip bomb is refused before anything
// is unpacked) or text (csv or txt, UTF-8 or GB18030). Callers get cell values and text, never keys built from file
// content, so a workbook full of `__proto__` cells changes nothing.
import { inflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import type { CallContext } from "./calls.ts";
import { AppError, badRequest } from "./errors.ts";

export const unsupportedFile = () => new AppError(415, "文件内容不是 xlsx、csv 或 txt，请检查文件", "UnsupportedFile");

/** Limits on what an xlsx may unpack to. */
const ZIP_MAX_ENTRIES = 2000;
const ZIP_MAX_TOTAL_BYTES = 60 * 1024 * 1024;
const ZIP_MAX_RATIO = 200;

type ZipEntry = { name: string; method: number; compressedSize: number; size: number; localOffset: number };

/** The central directory of a zip, or an error naming why it is refused. */
function zipEntries(buf: Buffer): ZipEntry[] {
  const minEocd = 22;
  let eocd = -1;
  for (let i = buf.length - minEocd; i >= Math.max(0, buf.length - minEocd - 65535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw badRequest("xlsx 文件已损坏（找不到 zip 目录）");
  const count = buf.readUInt16LE(eocd + 10);
  const dirSize = buf.readUInt32LE(eocd + 12);
  const dirOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw badRequest("不支持 zip64 格式的 xlsx 文件");
  if (count > ZIP_MAX_ENTRIES) throw badRequest("xlsx 文件包含的条目过多");
  if (dirOffset + dirSize > buf.length) throw badRequest("xlsx 文件已损坏（zip 目录越界）");
  const out: ZipEntry[] = [];
  let p = dirOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw badRequest("xlsx 文件已损坏（zip 目录无效）");
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString("utf8");
    out.push({ name, method, compressedSize, size, localOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * Refuses a zip that would unpack to too much: by the sizes it declares, and by inflating each entry with an output
 * cap (a lying header is caught there too), so memory stays bounded whatever the file claims.
 */
function checkZip(buf: Buffer): void {
  const entries = zipEntries(buf);
  if (!entries.some((e) => e.name === "[Content_Types].xml") || !entries.some((e) => e.name.startsWith("xl/"))) {
    throw new AppError(415, "zip 文件不是 xlsx 工作簿", "UnsupportedFile");
  }
  let total = 0;
  for (const e of entries) {
    if (e.name.includes("..") || e.name.startsWith("/")) throw badRequest("xlsx 文件包含无效的条目名");
    total += e.size;
    if (total > ZIP_MAX_TOTAL_BYTES) throw badRequest("xlsx 文件解压后过大，已拒绝");
    if (e.compressedSize > 0 && e.size / e.compressedSize > ZIP_MAX_RATIO && e.size > 1024 * 1024) {
      throw badRequest("xlsx 文件压缩比异常（疑似压缩炸弹），已拒绝");
    }
    if (e.method !== 0 && e.method !== 8) throw badRequest("xlsx 文件使用了不支持的压缩方式");
    const lh = e.localOffset;
    if (lh + 30 > buf.length || buf.readUInt32LE(lh) !== 0x04034b50) throw badRequest("xlsx 文件已损坏（条目头无效）");
    const start = lh + 30 + buf.readUInt16LE(lh + 26) + buf.readUInt16LE(lh + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    if (e.method === 8) {
      let inflated: Buffer;
      try {
        inflated = inflateRawSync(data, { maxOutputLength: e.size + 1 });
      } catch {
        throw badRequest("xlsx 文件解压后与声明的大小不符（疑似压缩炸弹），已拒绝");
      }
      if (inflated.length !== e.size) throw badRequest("xlsx 文件解压后与声明的大小不符，已拒绝");
    } else if (e.compressedSize !== e.size) {
      throw badRequest("xlsx 文件已损坏（条目大小不符）");
    }
  }
}

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

/** What a table file holds, handed to the caller as it is read: each xlsx cell's text, or the whole text of a text file. */
export type TableVisitor = { cell(text: string): void; text(text: string): void };

/** Reads an uploaded xlsx, csv or txt by its content (415 for anything else); answers which kind it was. */
export async function readTableFile(buf: Buffer, visit: TableVisitor): Promise<"xlsx" | "text"> {
  if (!buf.length) throw badRequest("文件为空");
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50) {
    checkZip(buf);
    const wb = new ExcelJS.Workbook();
    try {
      await wb.xlsx.load(buf as unknown as ArrayBuffer);
    } catch {
      throw badRequest("无法读取 xlsx 文件，请检查文件是否损坏");
    }
    for (const sheet of wb.worksheets) {
      sheet.eachRow({ includeEmpty: false }, (row) => {
        row.eachCell({ includeEmpty: false }, (cell) => {
          const text = cellText(cell.value as unknown);
          if (text) visit.cell(text);
        });
      });
    }
    return "xlsx";
  }
  const magic = buf.subarray(0, 8).toString("hex");
  if (magic.startsWith("d0cf11e0")) throw new AppError(415, "不支持旧版 xls 文件，请另存为 xlsx 后导入", "UnsupportedFile");
  if (!looksLikeText(buf)) throw unsupportedFile();
  visit.text(decodeText(buf));
  return "text";
}

/** A cell's text: a string, a hyperlink's target, rich text's plain text, a number as written; otherwise nothing. */
function cellText(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (v && typeof v === "object") {
    const o = v as { hyperlink?: unknown; text?: unknown; richText?: unknown };
    if (typeof o.hyperlink === "string") return o.hyperlink;
    if (typeof o.text === "string") return o.text;
    if (Array.isArray(o.richText)) return o.richText.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  }
  return "";
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
export async function receiveUpload(ctx: CallContext, maxBytes: number): Promise<Buffer> {
  const req = ctx.req as typeof ctx.req & {
    isMultipart?: () => boolean;
    file?: (o?: object) => Promise<{ filename: string; toBuffer(): Promise<Buffer>; file: { truncated: boolean } } | undefined>;
  };
  const sent = req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0";
  if (!sent && req.headers["transfer-encoding"] === undefined) throw badRequest("请选择要导入的文件（multipart/form-data，字段 file）");
  if (!req.isMultipart?.() || !req.file) throw new AppError(415, "请以 multipart/form-data 上传文件（字段 file）", "UnsupportedMediaType");
  let part;
  try {
    // preservePath: the name as sent, so a name that tries to name a path is seen (and refused) rather than trimmed.
    part = await req.file({ limits: { fileSize: maxBytes, files: 1 }, preservePath: true });
  } catch (err) {
    throw multipartError(err, maxBytes);
  }
  if (!part) throw badRequest("请选择要导入的文件");
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
