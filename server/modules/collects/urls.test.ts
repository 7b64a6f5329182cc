// The URL queue (AquiredUrl) through the real HTTP stack: adding and importing URLs (xlsx, csv, txt, read by content),
// duplicates ignored, the dispatcher turning them into crawl tasks (the sandbox has no outside network, so each ends
// as "host not found"), the list, statistics, sort, re-crawl and delete, who sees what, and the upload abuse cases of
// RELIABILITY.md §14 (oversized, zip bombs, wrong magic bytes, path-traversal names, `__proto__` workbooks).
import { randomBytes } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartFile, startTestServer, type ApiResponse, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { PlatformType, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { DISPATCH_BATCH } from "./urls.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;
let sub: { id: string; token: string };
const report: string[] = [];

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
  sub = await s.createSubUser(a);
});
afterAll(async () => {
  console.log("[security] upload abuse\n  " + report.join("\n  "));
  await s?.close();
});

function upload(token: string, filename: string, content: Buffer, query = ""): Promise<ApiResponse> {
  const { payload, contentType } = multipartFile(filename, content, { contentType: "application/octet-stream" });
  return s.api("POST", `/api/AquiredUrl/ImportUrls${query}`, { token, headers: { "content-type": contentType }, body: payload });
}

const statics = async (token: string, body: Record<string, unknown> = {}) =>
  (await s.api("POST", "/api/AquiredUrl/GetStatics", { token, body })).body.result;
const listUrls = async (token: string, body: Record<string, unknown> = {}) =>
  (await s.api("POST", "/api/AquiredUrl/GetList", { token, body: { maxResultCount: 1000, ...body } })).body.result;

async function settle(token: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const st = await statics(token);
    if (st.pending === 0 && st.running === 0) return st;
    if (Date.now() > deadline) throw new Error(`queue not drained: ${JSON.stringify(st)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A minimal zip writer (stored or deflated entries; CRCs are not checked by the reader under test). */
function zip(entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const compressed = deflateRawSync(e.data);
    const name = Buffer.from(e.name);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("urls");
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe("CreateUrls and the dispatcher", () => {
  it("queues new URLs, ignores duplicates, detects each platform and crawls them in the background", async () => {
    const res = await s.api("POST", "/api/AquiredUrl/CreateUrls", {
      token: a.token,
      body: {
        urls: [
          "https://detail.1688.com/offer/1001.html",
          "https://item.taobao.com/item.htm?id=2002",
          "https://detail.1688.com/offer/1001.html",
        ],
      },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toEqual({
      successCount: 2,
      ignoreCount: 1,
      isDelayImport: false,
      message: expect.stringContaining("成功导入 2 个链接"),
    });
    const again = await s.api("POST", "/api/AquiredUrl/CreateUrls", {
      token: a.token,
      body: { urls: ["https://detail.1688.com/offer/1001.html"] },
    });
    expect(again.body.result).toMatchObject({ successCount: 0, ignoreCount: 1 });
    const items = (await listUrls(a.token)).items;
    expect(items.map((i: { platformType: number }) => i.platformType).sort()).toEqual([PlatformType.Alibaba1688, PlatformType.Taobao]);
    const done = await settle(a.token);
    // No outside network here: every crawl ends as a final "host not found", once.
    expect(done).toEqual({ total: 2, pending: 0, running: 0, succeeded: 0, failed: 2 });
    const after = (await listUrls(a.token)).items;
    for (const u of after) expect(u).toMatchObject({ status: TaskStatus.Failed, crawlCount: 1, collectTaskId: expect.any(String) });
    expect(after[0].message).toContain("not found");
    // The import's task record is finished by the last crawl right after its URL row: wait for it.
    const importTask = async () =>
      (
        await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: a.token, query: { TaskType: TaskType.ImportUrls } })
      ).body.result.items.at(-1);
    for (let i = 0; i < 50 && (await importTask()).taskStatus !== TaskStatus.Failed; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await importTask()).toMatchObject({
      taskStatus: TaskStatus.Failed,
      progress: 100,
      taskRemark: "成功 0，失败 2，共 2",
    });
  });

  it.each([
    [{ urls: [] }],
    [{ urls: ["ftp://x.test/a"] }],
    [{ urls: ["https://x.test/" + "a".repeat(3000)] }],
    [{ urls: ["x"], platformType: 0 }],
  ])("refuses %j with 400 and queues nothing", async (body) => {
    const before = (await statics(b.token)).total;
    const res = await s.api("POST", "/api/AquiredUrl/CreateUrls", { token: b.token, body });
    expect(res.status).toBe(400);
    expect((await statics(b.token)).total).toBe(before);
  });

  it("re-crawls failed URLs, sorts, filters, counts per day and deletes", async () => {
    const re = await s.api("POST", "/api/AquiredUrl/ReCrwalUrls", { token: a.token, body: {} });
    expect(re.body.result).toEqual({ count: 2 });
    await settle(a.token);
    const items = (await listUrls(a.token)).items;
    expect(items.every((i: { crawlCount: number }) => i.crawlCount === 2)).toBe(true);
    const [first, second] = items;
    const sort = await s.api("PUT", "/api/AquiredUrl/SetUrlSort", {
      token: a.token,
      query: { tenantId: a.tenantId },
      body: { ids: [second.id], sort: 5 },
    });
    expect(sort.body.result).toEqual({ count: 1 });
    expect((await listUrls(a.token, { sorting: "sort desc" })).items[0].id).toBe(second.id);
    expect(
      (
        await s.api("PUT", "/api/AquiredUrl/SetUrlSort", {
          token: a.token,
          query: { tenantId: b.tenantId },
          body: { ids: [second.id], sort: 1 },
        })
      ).status,
    ).toBe(403);
    expect((await listUrls(a.token, { search: "taobao" })).totalCount).toBe(1);
    expect((await listUrls(a.token, { platformType: PlatformType.Alibaba1688 })).totalCount).toBe(1);
    expect((await listUrls(a.token, { status: TaskStatus.Succeeded })).totalCount).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const perDay = await s.api("POST", "/api/AquiredUrl/GetUrlSatatics", { token: a.token, body: { startDate: today } });
    expect(perDay.body.result).toEqual([{ date: today, total: 2, succeeded: 0, failed: 2 }]);
    expect((await s.api("POST", "/api/AquiredUrl/GetUrlSatatics", { token: a.token, body: {} })).body.result).toHaveLength(30);
    expect(
      (await s.api("POST", "/api/AquiredUrl/GetUrlSatatics", { token: a.token, body: { startDate: "2020-01-01", endDate: "2024-01-01" } }))
        .status,
    ).toBe(400);
    const del = await s.api("DELETE", "/api/AquiredUrl/Delete", { token: a.token, body: { ids: [first.id] } });
    expect(del.body.result).toEqual({ count: 1 });
    expect((await statics(a.token)).total).toBe(1);
  });

  it("shows a sub-account only its URLs, the main account all, another tenant none", async () => {
    await s.api("POST", "/api/AquiredUrl/CreateUrls", { token: sub.token, body: { urls: ["https://www.amazon.com/dp/B000000001"] } });
    expect((await listUrls(sub.token)).totalCount).toBe(1);
    expect((await listUrls(a.token)).totalCount).toBe(2);
    const other = await listUrls(b.token);
    expect(other.items.some((i: { url: string }) => i.url.includes("amazon"))).toBe(false);
    const theirs = (await listUrls(a.token)).items.map((i: { id: string }) => i.id);
    expect((await s.api("DELETE", "/api/AquiredUrl/Delete", { token: b.token, body: { ids: theirs } })).body.result).toEqual({ count: 0 });
    expect((await s.api("POST", "/api/AquiredUrl/ReCrwalUrls", { token: b.token, body: { ids: theirs } })).body.result).toEqual({
      count: 0,
    });
    expect((await s.api("PUT", "/api/AquiredUrl/SetUrlSort", { token: b.token, body: { ids: theirs, sort: 9 } })).body.result).toEqual({
      count: 0,
    });
    await settle(a.token);
  });
});

describe("one queue for pasted and imported URLs", () => {
  it("counts, lists and crawls pasted URLs (CreateUrls, what the console's paste form sends) like imported ones", async () => {
    const t = await s.createTenant();
    const pasted = await s.api("POST", "/api/AquiredUrl/CreateUrls", {
      token: t.token,
      body: { urls: ["https://detail.1688.com/offer/501.html", "https://item.jd.com/502.html"] },
    });
    expect(pasted.body.result).toMatchObject({ successCount: 2, ignoreCount: 0 });
    const imported = await upload(
      t.token,
      "urls.txt",
      Buffer.from("https://detail.1688.com/offer/503.html\nhttps://item.jd.com/502.html\n"),
    );
    // The file's URL already pasted is the same queue row, not a second one.
    expect(imported.body.result).toMatchObject({ successCount: 1, ignoreCount: 1 });
    const listed = (await listUrls(t.token)).items.map((i: { url: string }) => i.url).sort();
    expect(listed).toEqual([
      "https://detail.1688.com/offer/501.html",
      "https://detail.1688.com/offer/503.html",
      "https://item.jd.com/502.html",
    ]);
    expect((await statics(t.token)).total).toBe(3);
    // Every row moves through the same states and ends with a crawl behind it (no outside network: a failure).
    expect(await settle(t.token)).toEqual({ total: 3, pending: 0, running: 0, succeeded: 0, failed: 3 });
    for (const u of (await listUrls(t.token)).items) expect(u).toMatchObject({ crawlCount: 1, collectTaskId: expect.any(String) });
    const today = new Date().toISOString().slice(0, 10);
    const perDay = await s.api("POST", "/api/AquiredUrl/GetUrlSatatics", { token: t.token, body: { startDate: today } });
    expect(perDay.body.result).toEqual([{ date: today, total: 3, succeeded: 0, failed: 3 }]);
  });
});

describe("ImportUrls", () => {
  it("imports csv (with a BOM), skipping duplicates and cells that are not URLs", async () => {
    const t = await s.createTenant();
    const csv =
      '\ufeff链接,备注\nhttps://detail.1688.com/offer/1.html,a\nhttps://detail.1688.com/offer/1.html,dup\nnot a url,x\n"https://item.jd.com/100.html",y\n';
    const res = await upload(t.token, "list.csv", Buffer.from(csv));
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ successCount: 2, ignoreCount: 1, isDelayImport: false });
    const plats = (await listUrls(t.token)).items.map((i: { platformType: number }) => i.platformType).sort();
    expect(plats).toEqual([PlatformType.Alibaba1688, PlatformType.JD]);
    await settle(t.token);
  });

  it("imports txt and xlsx by content whatever the name says, and queues a big file in the background", async () => {
    const t = await s.createTenant();
    // More URLs than one dispatch takes: the rest are crawled in the background.
    const lines = Array.from({ length: DISPATCH_BATCH + 10 }, (_, i) => `https://shop.example.test/p/${i}`).join("\r\n");
    const txt = await upload(t.token, "urls.xlsx", Buffer.from(lines), "?isDiscountPrice=true&platformType=10");
    expect(txt.status, txt.raw).toBe(200);
    expect(txt.body.result).toMatchObject({ successCount: DISPATCH_BATCH + 10, ignoreCount: 0, isDelayImport: true });
    expect(txt.body.result.message).toContain("后台分批采集");
    const book = await workbook([
      ["url"],
      ["https://shop.example.test/p/0"],
      ["https://shop.example.test/p/100"],
      [{ text: "link", hyperlink: "https://shop.example.test/p/101" }],
    ]);
    const xlsx = await upload(t.token, "urls.txt", book);
    expect(xlsx.status, xlsx.raw).toBe(200);
    expect(xlsx.body.result).toMatchObject({ successCount: 2, ignoreCount: 1 });
    const items = (await listUrls(t.token)).items;
    expect(items).toHaveLength(DISPATCH_BATCH + 10 + 2);
    expect(items.find((i: { url: string }) => i.url.endsWith("/p/5"))).toMatchObject({
      isDiscountPrice: true,
      platformType: PlatformType.Generic,
    });
    await settle(t.token, 60_000);
  });

  it("refuses the upload abuse cases with 4xx and bounded memory, leaving Object.prototype untouched (§14)", async () => {
    const t = await s.createTenant();
    // The files are built before memory is measured (the test's own buffers are not the server's).
    const bomb = zip([
      { name: "[Content_Types].xml", data: Buffer.from("<Types/>") },
      { name: "xl/worksheets/sheet1.xml", data: Buffer.alloc(200 * 1024 * 1024, 0x20) },
    ]);
    const liar = zip([
      { name: "[Content_Types].xml", data: Buffer.from("<Types/>") },
      { name: "xl/worksheets/sheet1.xml", data: Buffer.alloc(100 * 1024 * 1024, 0x20), declaredSize: 1000 },
    ]);
    const oversized = Buffer.alloc(6 * 1024 * 1024, "https://a.test/x\n");
    (globalThis as { gc?: () => void }).gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const track = () => (peak = Math.max(peak, process.memoryUsage().rss));
    const cases: [string, () => Promise<ApiResponse>, number][] = [
      ["oversized file (6 MB)", () => upload(t.token, "big.csv", oversized), 413],
      [`zip bomb named .xlsx (${bomb.length} bytes, declared 200 MB)`, () => upload(t.token, "bomb.xlsx", bomb), 400],
      [`zip bomb that lies about its size (${liar.length} bytes, 100 MB inside)`, () => upload(t.token, "liar.xlsx", liar), 400],
      [
        "a zip that is no workbook",
        () => upload(t.token, "a.xlsx", zip([{ name: "readme.txt", data: Buffer.from("https://a.test/1") }])),
        415,
      ],
      [
        "PNG bytes named .csv",
        () => upload(t.token, "urls.csv", Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), randomBytes(200)])),
        415,
      ],
      ["an old xls", () => upload(t.token, "urls.xls", Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), randomBytes(200)])), 415],
      ["a path-traversal file name", () => upload(t.token, "../../etc/passwd", Buffer.from("https://a.test/1")), 400],
      ["an empty file", () => upload(t.token, "empty.txt", Buffer.alloc(0)), 400],
      ["a file without URLs", () => upload(t.token, "none.txt", Buffer.from("hello\nworld")), 400],
      [
        "10,001 URLs",
        () => upload(t.token, "many.txt", Buffer.from(Array.from({ length: 10_001 }, (_, i) => `https://a.test/${i}`).join("\n"))),
        400,
      ],
      [
        "JSON instead of a file",
        async () => s.api("POST", "/api/AquiredUrl/ImportUrls", { token: t.token, body: { urls: ["https://a.test/1"] } }),
        415,
      ],
    ];
    for (const [what, send, status] of cases) {
      const res = await send();
      track();
      expect(res.status, `${what}: ${res.raw}`).toBe(status);
      expect(res.headers["_abperrorformat"], what).toBe("true");
      report.push(`${what}: ${res.status}`);
    }
    // A workbook whose cells and sheet name are __proto__/constructor: nothing is keyed by content.
    const proto = await workbook([
      ["__proto__", "constructor", "prototype"],
      ["__proto__", '{"isHost":true}', "https://shop.example.test/proto"],
    ]);
    const res = await upload(t.token, "proto.xlsx", proto);
    track();
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result.successCount).toBe(1);
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).isHost).toBeUndefined();
    expect((await statics(t.token)).total).toBe(1);
    report.push(`__proto__ workbook: 200, Object.prototype untouched`);
    report.push(`peak RSS growth: ${Math.round((peak - rss0) / 1024 / 1024)} MB (rss ${Math.round(peak / 1024 / 1024)} MB)`);
    expect(peak - rss0).toBeLessThan(300 * 1024 * 1024);
    await settle(t.token);
  });

  it("needs a login", async () => {
    const { payload, contentType } = multipartFile("a.txt", Buffer.from("https://a.test/1"));
    const res = await s.api("POST", "/api/AquiredUrl/ImportUrls", { headers: { "content-type": contentType }, body: payload });
    expect(res.status).toBe(401);
  });
});
