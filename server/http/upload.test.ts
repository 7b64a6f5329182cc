// The upload reader (upload.ts, upload-worker.mjs): what it reads from a workbook (first sheet, shared and inline
// strings, numbers, hyperlinks; merges and other sheets never), its caps (cells, time, heap), and the three hostile
// workbooks of issue 14 sent through the real HTTP stack: each answered with the reader's 4xx from a reader thread while
// the process's memory stays bounded, and /health calls start and answer while a reader thread works (an order of
// events, not a time: the times are printed and kept in bench/RESULTS.md).
import { randomBytes, randomInt } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Worker } from "node:worker_threads";
import { crc32, deflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { createReadSlots, readTableFile, XLSX_READ_LIMITS } from "./upload.ts";

/** A zip of deflated entries, as any xlsx writer makes it. */
function zip(entries: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [entryName, content] of Object.entries(entries)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const compressed = deflateRawSync(data);
    const name = Buffer.from(entryName);
    const header = (size: number, signature: number) => {
      const h = Buffer.alloc(size);
      h.writeUInt32LE(signature, 0);
      return h;
    };
    const local = header(30, 0x04034b50);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = header(46, 0x02014b50);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const worksheetRel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet";

/** A workbook of sheets given as their sheetData rows (XML) and extra XML after sheetData; the first is listed first. */
function workbook(sheets: { rows: string; after?: string; rels?: string }[], shared: string[] = []): Buffer {
  const parts: Record<string, string | Buffer> = {
    "[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    "xl/workbook.xml": `<workbook ${NS} ${REL_NS}><sheets>${sheets
      .map((_, i) => `<sheet name="s${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join("")}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${worksheetRel}" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join("")}</Relationships>`,
  };
  if (shared.length)
    parts["xl/sharedStrings.xml"] = `<sst ${NS} count="${shared.length}">${shared.map((s) => `<si>${s}</si>`).join("")}</sst>`;
  sheets.forEach((sheet, i) => {
    parts[`xl/worksheets/sheet${i + 1}.xml`] =
      `<worksheet ${NS} ${REL_NS}><sheetData>${sheet.rows}</sheetData>${sheet.after ?? ""}</worksheet>`;
    if (sheet.rels) parts[`xl/worksheets/_rels/sheet${i + 1}.xml.rels`] = sheet.rels;
  });
  return zip(parts);
}

const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

async function cellsOf(buf: Buffer, limits = XLSX_READ_LIMITS): Promise<string[]> {
  const cells: string[] = [];
  await readTableFile(buf, { cell: (t) => cells.push(t), text: () => cells.push("<text>") }, limits);
  return cells;
}

async function refusal(read: Promise<unknown>): Promise<{ status: number; message: string }> {
  const err = (await read.then(
    () => null,
    (e: unknown) => e,
  )) as { status: number; message: string } | null;
  expect(err, "expected a refusal").not.toBeNull();
  return { status: err!.status, message: err!.message };
}

describe("the workbook reader", () => {
  it("reads the first sheet's cells: shared, rich and inline strings, numbers, entities, hyperlinks; nothing else", async () => {
    const first = {
      rows:
        `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" s="3"/><c r="D1"><v>2024</v></c></row>` +
        `<row r="2">${inline("A2", "a &amp; b &lt;c&gt; &#x4E2D;&#25991;_x0041_")}<c r="B2" t="b"><v>1</v></c>` +
        `<c r="C2" t="str"><f>A1</f><v>formula text</v></c><c r="D2" t="e"><v>#N/A</v></c></row>` +
        `<row r="3"><c r="A3" t="s"><v>2</v></c></row>`,
      after:
        `<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>` +
        `<hyperlinks><hyperlink ref="A3" r:id="rId7"/></hyperlinks>`,
      rels:
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId7" Type="hyperlink" Target="https://shop.example.test/p/1" TargetMode="External"/></Relationships>`,
    };
    const book = workbook(
      [first, { rows: `<row r="1">${inline("A1", "second sheet")}</row>` }],
      ["<t>plain</t>", `<r><rPr><b/></rPr><t xml:space="preserve">rich </t></r><r><t>text</t></r><rPh><t>ルビ</t></rPh>`, "<t>link</t>"],
    );
    expect(await cellsOf(book)).toEqual(["plain", "rich text", "2024", "a & b <c> 中文A", "formula text", "https://shop.example.test/p/1"]);
  });

  it("reads elements split across stream chunks and namespace-prefixed markup", async () => {
    const rows = Array.from(
      { length: 20_000 },
      (_, i) => `<x:row r="${i + 1}"><x:c r="A${i + 1}" t="inlineStr"><x:is><x:t>w${i}</x:t></x:is></x:c></x:row>`,
    );
    const book = zip({
      "[Content_Types].xml": "<Types/>",
      "xl/worksheets/sheet1.xml": `<x:worksheet xmlns:x="${NS.slice(7, -1)}"><x:sheetData>${rows.join("")}</x:sheetData></x:worksheet>`,
    });
    const cells = await cellsOf(book);
    expect(cells).toHaveLength(20_000);
    expect(cells[12_345]).toBe("w12345");
  });

  it("refuses past its caps on cells, time and heap with a 400 that says why", async () => {
    const many = workbook([{ rows: Array.from({ length: 1000 }, (_, i) => `<row><c r="A${i + 1}"><v>${i}</v></c></row>`).join("") }]);
    const cells = await refusal(cellsOf(many, { ...XLSX_READ_LIMITS, maxCells: 500 }));
    expect(cells).toMatchObject({ status: 400, message: expect.stringContaining("文件过大或格式不正确") });
    const slow = await refusal(cellsOf(many, { ...XLSX_READ_LIMITS, timeMs: 1 }));
    expect(slow).toMatchObject({ status: 400, message: expect.stringContaining("读取超过") });
    // Half a million distinct shared strings (4 million characters, within the text cap) do not fit a 16 MB heap.
    const strings = Array.from({ length: 500_000 }, (_, i) => `<t>${i.toString(36)}${randomBytes(2).toString("hex")}</t>`);
    const heavy = workbook([{ rows: `<row><c r="A1" t="s"><v>0</v></c></row>` }], strings);
    const heap = await refusal(cellsOf(heavy, { ...XLSX_READ_LIMITS, heapMb: 16, timeMs: 60_000 }));
    expect(heap).toMatchObject({ status: 400, message: expect.stringContaining("内存") });
  });

  it("refuses broken and lying zips as before", async () => {
    expect(await refusal(cellsOf(Buffer.from("PK\x03\x04garbage")))).toMatchObject({ status: 400 });
    expect(await refusal(cellsOf(zip({ "readme.txt": "x" })))).toMatchObject({ status: 415 });
    const noSheet = zip({ "[Content_Types].xml": "<Types/>", "xl/styles.xml": "<styleSheet/>" });
    expect(await refusal(cellsOf(noSheet))).toMatchObject({ status: 400, message: "xlsx 文件中没有工作表" });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The hostile workbooks of issue 14 through the HTTP stack.

let s: TestServer;
let token: string;
const report: string[] = [];

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.createTenant()).token;
});
afterAll(async () => {
  if (report.length) console.log("[reliability] hostile workbooks sent to ImportUrls\n  " + report.join("\n  "));
  await s?.close();
});

function multipart(content: Buffer) {
  const boundary = `----erp${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="book.xlsx"\r\n\r\n`);
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

async function importFile(url: string, content: Buffer) {
  const { payload, type } = multipart(content);
  const res = await s.app.inject({ method: "POST", url, headers: { authorization: `Bearer ${token}`, "content-type": type }, payload });
  return { status: res.statusCode, body: JSON.parse(res.body) as { result?: { successCount: number }; error?: { message: string } } };
}

/**
 * Sends a file while /health is asked back to back and memory sampled every 10 ms; answers the answer, the figures, and
 * the order in which things happened: each reader thread started for the upload (process "worker" event) coming
 * online and exiting, each /health call starting and answering, and the upload answering, as positions in one sequence.
 */
async function underWatch(url: string, content: Buffer) {
  (globalThis as { gc?: () => void }).gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  let seq = 0;
  const readers: { online: number; exit: number }[] = [];
  const exits: Promise<unknown>[] = [];
  const onWorker = (w: Worker) => {
    const reader = { online: Infinity, exit: Infinity };
    readers.push(reader);
    w.once("online", () => (reader.online = seq++));
    exits.push(new Promise((resolve) => w.once("exit", () => resolve((reader.exit = seq++)))));
  };
  process.on("worker", onWorker);
  const healthCalls: { start: number; end: number; ms: number }[] = [];
  let done = false;
  const health = (async () => {
    while (!done) {
      const start = seq++;
      const t0 = performance.now();
      const res = await s.app.inject({ method: "GET", url: "/health" });
      healthCalls.push({ start, end: seq++, ms: performance.now() - t0 });
      expect(res.statusCode).toBe(200);
      await new Promise((r) => setImmediate(r));
    }
  })();
  const t0 = performance.now();
  const res = await importFile(url, content);
  const ms = performance.now() - t0;
  done = true;
  await health;
  // The reader is stopped once it has answered (or passed a limit): its thread ends.
  await Promise.all(exits);
  process.off("worker", onWorker);
  clearInterval(sampler);
  loopDelay.disable();
  return {
    res,
    readers,
    /** /health calls that started after a reader came online and answered before it exited. */
    healthWhileReading: healthCalls.filter((h) => readers.some((r) => h.start > r.online && h.end < r.exit)).length,
    ms,
    loopDelayMax: loopDelay.max / 1e6,
    healthMax: Math.max(...healthCalls.map((h) => h.ms)),
    healthCount: healthCalls.length,
    peakMb: (peak - rss0) / 1024 / 1024,
  };
}

const cellsWithoutUrls = (n: number) =>
  Array.from({ length: n }, (_, i) => `<row r="${i + 1}">${inline(`A${i + 1}`, "no link here")}</row>`).join("");

/** A sheet of ~1 MB of cells that compresses as real data does (~60 KB), so 55 of them fit the 5 MB upload limit. */
function megabyteSheet(): string {
  const rows: string[] = [];
  for (let r = 1, size = 0; size < 1024 * 1024; r++) {
    const cells = ["A", "B", "C", "D"].map((c, i) => inline(`${c}${r}`, i ? "no link here" : `item ${randomInt(10)}`));
    const row = `<row r="${r}">${cells.join("")}</row>`;
    rows.push(row);
    size += row.length;
  }
  return rows.join("");
}

describe("hostile workbooks (issue 14)", () => {
  const files = () => [
    {
      what: "a sheet declaring one merge over every cell (A1:XFD1048576)",
      book: workbook([{ rows: cellsWithoutUrls(3), after: `<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>` }]),
    },
    {
      what: "a sheet declaring a merge of A1:Z200000",
      book: workbook([{ rows: cellsWithoutUrls(3), after: `<mergeCells count="1"><mergeCell ref="A1:Z200000"/></mergeCells>` }]),
    },
    { what: "55 sheets of ~1 MB XML each", book: workbook(Array(55).fill({ rows: megabyteSheet() })) },
  ];

  it("answers each with the reader's 4xx from a reader thread, memory bounded", async () => {
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await s.app.inject({ method: "GET", url: "/health" });
      idle.push(performance.now() - t0);
    }
    report.push(`/health with no upload: max ${Math.max(...idle).toFixed(1)} ms over 10 calls`);
    for (const { what, book } of files()) {
      const w = await underWatch("/api/AquiredUrl/ImportUrls", book);
      const line =
        `${what} (${(book.length / 1024).toFixed(1)} KB): ${w.res.status} in ${Math.round(w.ms)} ms, ` +
        `/health max ${w.healthMax.toFixed(1)} ms over ${w.healthCount} calls (${w.healthWhileReading} while the reader ran), ` +
        `event loop delay max ${w.loopDelayMax.toFixed(1)} ms, peak RSS growth ${w.peakMb.toFixed(0)} MB`;
      report.push(line);
      // The reader's own answer (no link among the cells), not its time limit's refusal, from one reader thread.
      expect(w.res.status, line).toBe(400);
      expect(w.res.body.error?.message).toBe("文件中没有有效的商品链接（http 或 https）");
      expect(w.readers, line).toHaveLength(1);
      expect(w.peakMb, line).toBeLessThan(200);
    }
  });

  it("reads a workbook off the request thread: /health calls start and answer while the reader thread works", async () => {
    // ~1 MB of cells in the first sheet keeps the reader busy for many /health round trips' worth of work; a reader on
    // the request thread (or one the request thread waited on) would let none start and answer inside its life.
    const w = await underWatch("/api/AquiredUrl/ImportUrls", workbook([{ rows: megabyteSheet() }]));
    report.push(`a first sheet of ~1 MB: /health answered ${w.healthWhileReading} of ${w.healthCount} calls while the reader ran`);
    expect(w.res.status).toBe(400);
    expect(w.readers).toHaveLength(1);
    expect(w.readers[0].online).toBeLessThan(w.readers[0].exit);
    expect(w.healthWhileReading).toBeGreaterThan(0);
  });

  it("ignores merges rather than refusing the file: the same reader serves the URL and the infringement word imports", async () => {
    const merged = `<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>`;
    const urls = workbook([{ rows: `<row r="1">${inline("A1", "https://shop.example.test/merged")}</row>`, after: merged }]);
    const u = await underWatch("/api/AquiredUrl/ImportUrls", urls);
    expect(u.res.status).toBe(200);
    expect(u.res.body.result?.successCount).toBe(1);
    const words = workbook([{ rows: `<row r="1">${inline("A1", "MergedBrand")}${inline("B1", "另一个词")}</row>`, after: merged }]);
    const w = await underWatch("/api/InfringementWord/ImportInfringementWord", words);
    expect(w.res.status).toBe(200);
    expect(w.res.body.result?.successCount).toBe(2);
  });
});

describe("reader slots", () => {
  it("runs two workbook reads at once in an app; a third waits for one to end; another app's slots are its own", async () => {
    const slots = createReadSlots();
    const started: string[] = [];
    const ends = new Map<string, () => void>();
    const read = (name: string) =>
      slots(() => {
        started.push(name);
        return new Promise<string>((resolve) => ends.set(name, () => resolve(name)));
      });
    /** Lets every ready promise run (turns of the event loop, no clock). */
    const settle = async () => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    };
    const a = read("a");
    const b = read("b");
    const c = read("c");
    await settle();
    expect(started).toEqual(["a", "b"]);
    const other = createReadSlots()(async () => "other app");
    expect(await other).toBe("other app");
    ends.get("b")!();
    expect(await b).toBe("b");
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    ends.get("a")!();
    ends.get("c")!();
    expect(await Promise.all([a, c])).toEqual(["a", "c"]);
  });
});
