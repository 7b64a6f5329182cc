// Reads the cells of an uploaded xlsx in a worker thread (started by upload.ts with memory limits and killed at its time
// limit), so a hostile workbook can neither block the server's event loop nor run it out of heap. Only what an import
// needs is read: the zip's directory, the workbook's first sheet, the shared strings and the sheet's hyperlinks; both
// XML parts are inflated as a stream and scanned element by element, and everything else (merges, styles, other
// sheets) is never unpacked. Plain JavaScript on purpose: on Node 20 tsx's loader does not reach worker threads.
//
// Answers one message: { ok: true, cells: string[] } or { ok: false, status, message, code }.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { posix } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { createInflateRaw, inflateRawSync } from "node:zlib";

// Parsing is background work: on Linux this thread lowers its own priority (its id from /proc/thread-self), so on a
// busy machine the requests the server answers meanwhile come first.
try {
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
} catch {
  // not Linux, or not allowed: the parse runs at the normal priority
}

/** @type {{ bytes: Uint8Array; limits: { maxCells: number; maxTextChars: number; maxSheetBytes: number; maxPartBytes: number } }} */
const { bytes, limits } = workerData;

const ZIP_MAX_ENTRIES = 2000;
const ZIP_MAX_TOTAL_BYTES = 60 * 1024 * 1024;
const ZIP_MAX_RATIO = 200;
/** Excel keeps a cell to 32,767 characters; an element far longer than that is not a workbook's. */
const MAX_ELEMENT_CHARS = 256 * 1024;

class Refused extends Error {
  /** @param {string} message @param {number} [status] @param {string | null} [code] */
  constructor(message, status = 400, code = null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
const notWorkbook = () => new Refused("zip 文件不是 xlsx 工作簿", 415, "UnsupportedFile");

// ---------------------------------------------------------------------------------------------------------------
// The zip: its central directory is checked before anything is unpacked (entry count, declared sizes, ratio).

/** @typedef {{ name: string; method: number; compressedSize: number; size: number; localOffset: number }} ZipEntry */

/** @param {Buffer} buf @returns {ZipEntry[]} */
function zipEntries(buf) {
  const minEocd = 22;
  let eocd = -1;
  for (let i = buf.length - minEocd; i >= Math.max(0, buf.length - minEocd - 65535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Refused("xlsx 文件已损坏（找不到 zip 目录）");
  const count = buf.readUInt16LE(eocd + 10);
  const dirSize = buf.readUInt32LE(eocd + 12);
  const dirOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw new Refused("不支持 zip64 格式的 xlsx 文件");
  if (count > ZIP_MAX_ENTRIES) throw new Refused("xlsx 文件包含的条目过多");
  if (dirOffset + dirSize > buf.length) throw new Refused("xlsx 文件已损坏（zip 目录越界）");
  /** @type {ZipEntry[]} */
  const out = [];
  let p = dirOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new Refused("xlsx 文件已损坏（zip 目录无效）");
    const nameLen = buf.readUInt16LE(p + 28);
    out.push({
      name: buf.subarray(p + 46, p + 46 + nameLen).toString("utf8"),
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return out;
}

/** @param {ZipEntry[]} entries */
function checkDeclaredSizes(entries) {
  if (!entries.some((e) => e.name === "[Content_Types].xml") || !entries.some((e) => e.name.startsWith("xl/"))) throw notWorkbook();
  let total = 0;
  for (const e of entries) {
    if (e.name.includes("..") || e.name.startsWith("/")) throw new Refused("xlsx 文件包含无效的条目名");
    total += e.size;
    if (total > ZIP_MAX_TOTAL_BYTES) throw new Refused("xlsx 文件解压后过大，已拒绝");
    if (e.compressedSize > 0 && e.size / e.compressedSize > ZIP_MAX_RATIO && e.size > 1024 * 1024) {
      throw new Refused("xlsx 文件压缩比异常（疑似压缩炸弹），已拒绝");
    }
    if (e.method !== 0 && e.method !== 8) throw new Refused("xlsx 文件使用了不支持的压缩方式");
  }
}

/** The compressed bytes of an entry. @param {Buffer} buf @param {ZipEntry} e */
function entryData(buf, e) {
  const lh = e.localOffset;
  if (lh + 30 > buf.length || buf.readUInt32LE(lh) !== 0x04034b50) throw new Refused("xlsx 文件已损坏（条目头无效）");
  const start = lh + 30 + buf.readUInt16LE(lh + 26) + buf.readUInt16LE(lh + 28);
  if (start + e.compressedSize > buf.length) throw new Refused("xlsx 文件已损坏（条目越界）");
  return buf.subarray(start, start + e.compressedSize);
}

const lyingSize = () => new Refused("xlsx 文件解压后与声明的大小不符（疑似压缩炸弹），已拒绝");
const tooBig = (/** @type {string} */ what) => new Refused(`文件过大或格式不正确：${what}超过上限，请拆分后导入`);

/** A small part (relationships, workbook) whole, within maxBytes. @param {Buffer} buf @param {ZipEntry} e */
function readPart(buf, e) {
  if (e.size > limits.maxPartBytes) throw tooBig(e.name);
  const data = entryData(buf, e);
  if (e.method === 0) {
    if (e.compressedSize !== e.size) throw new Refused("xlsx 文件已损坏（条目大小不符）");
    return data.toString("utf8");
  }
  let out;
  try {
    out = inflateRawSync(data, { maxOutputLength: e.size + 1 });
  } catch {
    throw lyingSize();
  }
  if (out.length !== e.size) throw lyingSize();
  return out.toString("utf8");
}

/**
 * Streams a part's text to onText chunk by chunk, never more than it declares nor maxBytes.
 * @param {Buffer} buf @param {ZipEntry} e @param {number} maxBytes @param {(text: string) => void} onText
 */
async function streamPart(buf, e, maxBytes, onText) {
  if (e.size > maxBytes) throw tooBig(e.name);
  const data = entryData(buf, e);
  const decoder = new TextDecoder("utf-8");
  if (e.method === 0) {
    if (e.compressedSize !== e.size) throw new Refused("xlsx 文件已损坏（条目大小不符）");
    for (let i = 0; i < data.length; i += 65536) onText(decoder.decode(data.subarray(i, i + 65536), { stream: true }));
    return;
  }
  const inflate = createInflateRaw();
  inflate.end(data);
  let total = 0;
  try {
    for await (const chunk of inflate) {
      total += chunk.length;
      if (total > e.size) throw lyingSize();
      onText(decoder.decode(chunk, { stream: true }));
    }
  } catch (err) {
    if (err instanceof Refused) throw err;
    throw new Refused("xlsx 文件已损坏（无法解压）");
  }
  if (total !== e.size) throw lyingSize();
}

// ---------------------------------------------------------------------------------------------------------------
// XML, scanned with patterns: a part is fed in chunks and each complete element is handed on as soon as it is seen.

const P = "(?:[\\w.-]+:)?"; // an optional namespace prefix
const xmlEscape = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));|_x([0-9A-Fa-f]{4})_/g;
const named = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** @param {string} s */
function decodeXml(s) {
  return s.replace(xmlEscape, (_, dec, hex, name, ooxml) => {
    const code = dec ? Number(dec) : hex ? parseInt(hex, 16) : ooxml ? parseInt(ooxml, 16) : -1;
    if (code < 0) return named[/** @type {keyof typeof named} */ (name)];
    return code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

/** An attribute's value by its local name. @param {string} attrs @param {string} name */
function attr(attrs, name) {
  const m = new RegExp(`(?:^|\\s)${P}${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? decodeXml(m[1] ?? m[2]) : undefined;
}

const phonetic = new RegExp(`<${P}rPh\\b[\\s\\S]*?</${P}rPh>`, "g");
const textRun = new RegExp(`<${P}t(?:\\s[^>]*)?>([\\s\\S]*?)</${P}t>`, "g");

/** The text of rich or plain string content (`<t>` runs; phonetic guides left out). @param {string} inner */
function runsText(inner) {
  let text = "";
  for (const m of inner.replace(phonetic, "").matchAll(textRun)) text += m[1];
  return decodeXml(text);
}

/**
 * Feeds text to a pattern of whole elements, keeping only the unfinished tail between chunks.
 * @param {RegExp} element global, matching one whole element
 * @param {RegExp} start global, matching where such an element begins
 * @param {(m: RegExpExecArray) => void} onElement
 */
function elementScanner(element, start, onElement) {
  let pending = "";
  return (/** @type {string} */ text) => {
    pending += text;
    element.lastIndex = 0;
    let end = 0;
    let m;
    while ((m = element.exec(pending))) {
      onElement(m);
      end = element.lastIndex;
    }
    const rest = pending.slice(end);
    start.lastIndex = 0;
    const open = start.exec(rest);
    const keepFrom = open ? open.index : rest.lastIndexOf("<");
    pending = keepFrom < 0 ? "" : rest.slice(keepFrom);
    if (pending.length > MAX_ELEMENT_CHARS) throw new Refused("文件过大或格式不正确：单元格内容过长");
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The workbook.

/** @param {Map<string, ZipEntry>} byName @param {Buffer} buf @param {string} path */
function relationships(byName, buf, path) {
  const e = byName.get(path);
  /** @type {Map<string, { target: string; external: boolean }>} */
  const out = new Map();
  if (!e) return out;
  for (const m of readPart(buf, e).matchAll(new RegExp(`<${P}Relationship\\b([^>]*)>`, "g"))) {
    const id = attr(m[1], "Id");
    const target = attr(m[1], "Target");
    if (id && target) out.set(id, { target, external: attr(m[1], "TargetMode") === "External" });
  }
  return out;
}

/**
 * The path of the workbook's first sheet: by the workbook's own order, else the first worksheet part.
 * @param {Map<string, ZipEntry>} byName @param {Buffer} buf
 */
function firstSheetPath(byName, buf) {
  const workbook = byName.get("xl/workbook.xml");
  if (workbook) {
    const sheet = new RegExp(`<${P}sheet\\b([^>]*)>`).exec(readPart(buf, workbook));
    const rel = sheet && attr(sheet[1], "id");
    const target = rel && relationships(byName, buf, "xl/_rels/workbook.xml.rels").get(rel)?.target;
    if (target) return target.startsWith("/") ? target.slice(1) : posix.normalize(posix.join("xl", target));
  }
  return [...byName.keys()].find((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n));
}

/** @param {Map<string, ZipEntry>} byName @param {Buffer} buf */
async function sharedStrings(byName, buf) {
  const e = byName.get("xl/sharedStrings.xml");
  /** @type {string[]} */
  const out = [];
  if (!e) return out;
  let chars = 0;
  const scan = elementScanner(
    new RegExp(`<${P}si(?=[\\s>/])[^>]*?(?:/>|>([\\s\\S]*?)</${P}si>)`, "g"),
    new RegExp(`<${P}si(?=[\\s>/])`, "g"),
    (m) => {
      // A copy of its own: a substring would keep the whole chunk it was cut from alive as long as the string.
      const text = m[1] ? Buffer.from(runsText(m[1]), "utf8").toString("utf8") : "";
      chars += text.length;
      if (chars > limits.maxTextChars) throw tooBig("共享字符串");
      out.push(text);
    },
  );
  await streamPart(buf, e, limits.maxSheetBytes, scan);
  return out;
}

const valueOf = new RegExp(`<${P}v(?:\\s[^>]*)?>([\\s\\S]*?)</${P}v>`);
const inlineOf = new RegExp(`<${P}is(?:\\s[^>]*)?>([\\s\\S]*?)</${P}is>`);

/**
 * A cell's text: a string as stored, a number as written; booleans and errors are no text.
 * @param {string} type @param {string | undefined} inner @param {string[]} shared
 */
function cellText(type, inner, shared) {
  if (!inner) return "";
  if (type === "inlineStr") {
    const is = inlineOf.exec(inner);
    return is ? runsText(is[1]) : "";
  }
  const v = valueOf.exec(inner);
  if (!v) return "";
  if (type === "s") return shared[Number(v[1])] ?? "";
  if (type === "b" || type === "e") return "";
  const value = decodeXml(v[1]);
  if (type === "str" || type === "d") return value;
  const n = Number(value);
  return Number.isFinite(n) ? String(n) : "";
}

async function readCells() {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = zipEntries(buf);
  checkDeclaredSizes(entries);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const sheetPath = firstSheetPath(byName, buf);
  const sheet = sheetPath && byName.get(sheetPath);
  if (!sheet) throw new Refused("xlsx 文件中没有工作表");
  const shared = await sharedStrings(byName, buf);
  const links = relationships(byName, buf, `${posix.dirname(sheetPath)}/_rels/${posix.basename(sheetPath)}.rels`);

  /** @type {string[]} */
  const cells = [];
  /** Where each referenced cell's text sits in cells, so a hyperlink (listed after the cells) can replace it. */
  const byRef = new Map();
  let chars = 0;
  const take = (/** @type {string} */ text) => {
    chars += text.length;
    if (cells.length >= limits.maxCells) throw tooBig(`单元格数（最多 ${limits.maxCells} 个）`);
    if (chars > limits.maxTextChars) throw tooBig("单元格内容总量");
    cells.push(text);
  };
  const scan = elementScanner(
    new RegExp(`<${P}(c|hyperlink)(?=[\\s>/])([^>]*?)(?:/>|>([\\s\\S]*?)</${P}\\1>)`, "g"),
    new RegExp(`<${P}(?:c|hyperlink)(?=[\\s>/])`, "g"),
    (m) => {
      const [, tag, attrs, inner] = m;
      if (tag === "c") {
        const text = cellText(attr(attrs, "t") ?? "n", inner, shared);
        if (!text) return;
        const ref = attr(attrs, "r");
        if (ref) byRef.set(ref, cells.length);
        take(text);
        return;
      }
      // A hyperlink cell stands for its target, as the imports read it.
      const link = links.get(attr(attrs, "id") ?? "");
      const at = byRef.get(attr(attrs, "ref") ?? "");
      if (link?.external && at !== undefined) {
        chars += link.target.length;
        cells[at] = link.target;
      }
    },
  );
  await streamPart(buf, sheet, limits.maxSheetBytes, scan);
  return cells;
}

const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);
try {
  port.postMessage({ ok: true, cells: await readCells() });
} catch (err) {
  if (err instanceof Refused) port.postMessage({ ok: false, status: err.status, message: err.message, code: err.code });
  else port.postMessage({ ok: false, status: 400, message: "无法读取 xlsx 文件，请检查文件是否损坏", code: null });
}
