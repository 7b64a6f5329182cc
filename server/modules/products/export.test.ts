// Product export through the real HTTP stack and the real job queue: ExportProduct records a task, the worker writes
// the xlsx in batches, the task centre shows it finish, DownloadExport hands the file to its creator only; the file is
// read back with exceljs and checked cell by cell.
import { randomUUID } from "node:crypto";
import { existsSync, utimesSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import ExcelJS from "exceljs";
import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productLabels, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { createTask } from "../../jobs/tasks.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { PlatformType, ProductStatus, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { productExportColumnKeys, productExportColumns } from "#shared/contract/product-export.ts";
import { createApi } from "#shared/api/index.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
});
afterAll(() => s?.close());

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const allHeaders = productExportColumnKeys.map((k) => productExportColumns[k]);

type ProductValues = typeof products.$inferInsert;
async function addProducts(t: TestTenant, rows: Partial<ProductValues>[], userId = t.userId): Promise<string[]> {
  const values = rows.map((r) => ({ tenantId: t.tenantId, id: randomUUID(), userId, title: { zh: "商品" }, ...r }));
  await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.insert(products).values(values));
  return values.map((v) => v.id);
}

async function startExport(token: string, body: unknown): Promise<string> {
  const res = await s.api("POST", "/api/Product/ExportProduct", { token, body });
  expect(res.status, res.raw).toBe(200);
  expect(res.body.result.taskId).toMatch(/^[0-9a-f-]{36}$/);
  return res.body.result.taskId;
}

async function waitForTask(token: string, taskId: string, timeoutMs = 55_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", {
      token,
      query: { TaskType: TaskType.ExportProducts, MaxResultCount: 100 },
    });
    expect(res.status).toBe(200);
    const task = res.body.result.items.find((t: { id: string }) => t.id === taskId);
    if (task && (task.taskStatus === TaskStatus.Succeeded || task.taskStatus === TaskStatus.Failed)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} not finished in ${timeoutMs} ms: ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The download as bytes (the harness's api() reads bodies as text). */
async function download(token: string, taskId: string) {
  const res = await s.app.inject({
    method: "GET",
    url: "/api/Product/DownloadExport",
    query: { taskId },
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: () => JSON.parse(res.body) };
}

async function exportAndRead(t: { token: string }, body: unknown) {
  const taskId = await startExport(t.token, body);
  const task = await waitForTask(t.token, taskId);
  expect(task.taskStatus, task.taskRemark).toBe(TaskStatus.Succeeded);
  const file = await download(t.token, taskId);
  expect(file.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.bytes as never);
  const sheet = workbook.worksheets[0];
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return { taskId, task, file, sheet, rows };
}

describe("ExportProduct", () => {
  it("exports a filter selection: the task finishes, its creator downloads the xlsx, every cell as stored", async () => {
    const t = await s.createTenant();
    const labelId = randomUUID();
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.insert(productLabels).values({ tenantId: t.tenantId, id: labelId, name: "热卖" }),
    );
    const [first, second] = await addProducts(t, [
      {
        title: { zh: "蓝牙耳机 无线", es: "Auriculares Bluetooth", pt: "Fones Bluetooth", en: "Bluetooth earbuds" },
        sku: "BT-001",
        price: "12.50",
        currency: "CNY",
        weight: "85.5",
        size: "10x8x4",
        stock: 120,
        brand: "声海",
        status: ProductStatus.Ready,
        labelId,
        platformType: PlatformType.Alibaba1688,
        sourceUrl: "https://detail.1688.com/offer/1.html",
        infringementWord: "bluetooth",
        image: "https://img.example.com/1.jpg",
        images: ["https://img.example.com/1.jpg", "https://img.example.com/2.jpg"],
        creationTime: new Date("2024-05-01T07:30:12.000Z"),
      },
      {
        title: { en: "Phone case & <cover>" },
        price: "3",
        status: ProductStatus.Ready,
        creationTime: new Date("2024-05-02T00:00:00.000Z"),
      },
      // Not matching the filter, deleted, or another tenant's: never in the file.
      { title: { zh: "未编辑的" }, status: ProductStatus.Unedited },
      { title: { zh: "已删除" }, status: ProductStatus.Ready, isDeleted: true },
    ]);
    await addProducts(b, [{ title: { zh: "别家的" }, status: ProductStatus.Ready }]);

    const { taskId, task, file, rows } = await exportAndRead(t, { filter: { status: ProductStatus.Ready } });
    expect(task).toMatchObject({ taskType: TaskType.ExportProducts, progress: 100, creatorId: t.userId });
    expect(task.taskRemark).toMatch(/^商品导出-\d{8}-\d{6}\.xlsx$/);
    expect(task.content).toBe("导出商品（按筛选条件）：共 2 个商品");
    expect(file.headers["content-type"]).toBe(XLSX_TYPE);
    expect(file.headers["content-disposition"]).toContain(`filename*=UTF-8''${encodeURIComponent(task.taskRemark)}`);
    expect(file.headers["content-disposition"]).toMatch(/^attachment; /);
    expect(Number(file.headers["content-length"])).toBe(file.bytes.length);

    expect(rows[0]).toEqual(allHeaders);
    expect(rows[0].slice(0, 3)).toEqual(["商品ID", "标题", "标题(西语)"]);
    expect(rows).toHaveLength(3);
    // Newest first; empty values are empty cells.
    expect(rows[1][0]).toBe(second);
    expect(rows[1][1]).toBe("Phone case & <cover>");
    expect(rows[1][4]).toBe("Phone case & <cover>");
    expect(rows[1][6]).toBe(3);
    expect(rows[1][13]).toBeUndefined(); // no label
    const byHeader = Object.fromEntries(allHeaders.map((h, i) => [h, rows[2][i]]));
    expect(byHeader).toEqual({
      商品ID: first,
      标题: "蓝牙耳机 无线",
      "标题(西语)": "Auriculares Bluetooth",
      "标题(葡语)": "Fones Bluetooth",
      "标题(英语)": "Bluetooth earbuds",
      SKU: "BT-001",
      价格: 12.5,
      币种: "CNY",
      "重量(g)": 85.5,
      "尺寸(cm)": "10x8x4",
      库存: 120,
      品牌: "声海",
      状态: "待发布",
      标签: "热卖",
      来源平台: "1688",
      来源链接: "https://detail.1688.com/offer/1.html",
      侵权词: "bluetooth",
      主图: "https://img.example.com/1.jpg",
      // 07:30:12 UTC written as the clock reads at UTC+8 (the default).
      创建时间: new Date("2024-05-01T15:30:12.000Z"),
      所属账号: "boss",
    });

    // Downloading again works (the file stays for 7 days); the task is the caller's own.
    expect((await download(t.token, taskId)).status).toBe(200);
  });

  it("writes the chosen columns in the chosen order for an id selection, in the caller's time zone", async () => {
    const t = await s.createTenant();
    const ids = await addProducts(t, [
      { sku: "A", price: "1.00", creationTime: new Date("2024-01-01T00:00:00Z") },
      { sku: "B", price: "2.00", creationTime: new Date("2024-01-02T00:00:00Z") },
      { sku: "C", price: "3.00", creationTime: new Date("2024-01-03T00:00:00Z") },
    ]);
    const { rows, task } = await exportAndRead(t, {
      productIds: [ids[0], ids[2], ids[0]],
      columns: ["sku", "price", "creationTime", "sku"],
      utcOffsetMinutes: -360,
    });
    expect(task.content).toBe("导出商品（已选 2 个）：共 2 个商品");
    expect(rows).toEqual([
      ["SKU", "价格", "创建时间"],
      ["C", 3, new Date("2024-01-02T18:00:00Z")],
      ["A", 1, new Date("2023-12-31T18:00:00Z")],
    ]);
  });

  it("exports 20,000 products once each, in order, with the process's memory flat", async () => {
    const t = await s.createTenant();
    // Made by the database (the strings are built there, not sent through the driver: about 30 % less CPU on PGlite), 700 rows per
    // statement and transaction: each group shares one now() to the microsecond, so the keyset's tie-break on id and
    // its microsecond cursor are both crossed at batch boundaries (1,000 rows). Long titles: the rows together weigh
    // about 40 MB as strings, more than the export may ever hold.
    for (let from = 0; from < 20_000; from += 700) {
      const to = Math.min(from + 700, 20_000) - 1;
      await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
        tx.execute(sql`
          insert into products (tenant_id, id, user_id, title, sku, price, weight, image, source_url)
          select ${t.tenantId}, gen_random_uuid(), ${t.userId},
            jsonb_build_object('zh', '商品 ' || i, 'es', 'Producto ' || i || ' ' || repeat('x', 990),
              'en', 'Product ' || i || ' ' || repeat('y', 990)),
            'SKU-' || i, i % 1000, 100, 'https://img.example.com/' || i || '.jpg', 'https://item.example.com/' || i
          from generate_series(${from}::int, ${to}::int) i`),
      );
    }
    const expectedIds = (
      await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
        tx
          .select({ id: products.id })
          .from(products)
          .where(and(eq(products.tenantId, t.tenantId), eq(products.isDeleted, false)))
          .orderBy(desc(products.creationTime), desc(products.id)),
      )
    ).map((r) => r.id);
    expect(expectedIds).toHaveLength(20_000);

    // Memory held, sampled after a full collection: the JavaScript heap plus buffers (the zip's data lives there).
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const held = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const baseline = held();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, held())), 500);
    let taskId: string;
    let task: { taskStatus: number; taskRemark: string; content: string; progress: number };
    try {
      taskId = await startExport(t.token, { filter: {} });
      task = await waitForTask(t.token, taskId, 300_000);
    } finally {
      clearInterval(sampler);
    }
    const growthMb = (peak - baseline) / 2 ** 20;
    console.log(`export of 20,000 products: memory held grew by at most ${growthMb.toFixed(1)} MB`);
    expect(task.taskStatus, task.taskRemark).toBe(TaskStatus.Succeeded);
    expect(task.content).toBe("导出商品（按筛选条件）：共 20000 个商品");
    expect(growthMb).toBeLessThan(32);

    const file = await download(t.token, taskId);
    expect(file.status).toBe(200);
    // Read back whole (exceljs's streaming reader can split a UTF-8 character at a chunk boundary): id, display title
    // and price of every row.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.bytes as never);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const got: string[] = [];
    const mismatches: string[] = [];
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      const n = Number(String(row.getCell(6).value).slice(4)); // SKU-<n>
      if (row.getCell(2).value !== `商品 ${n}` || row.getCell(7).value !== n % 1000) mismatches.push(`row ${number}`);
      got.push(String(row.getCell(1).value));
    });
    expect(mismatches).toEqual([]);
    expect(header).toEqual(allHeaders);
    expect(got).toHaveLength(20_000);
    expect(new Set(got).size).toBe(20_000);
    expect(got).toEqual(expectedIds);
  }, 400_000);

  it("never lets another tenant download a task or see a product; only the creator downloads", async () => {
    const mine = await addProducts(a, [{ title: { zh: "甲的商品" } }]);
    const taskId = await startExport(a.token, { ids: mine });
    await waitForTask(a.token, taskId);
    expect((await download(a.token, taskId)).status).toBe(200);

    const fromB = await download(b.token, taskId);
    expect(fromB.status).toBe(404);
    expect(fromB.json().error.message).toBe("导出任务不存在");
    const sub = await s.createSubUser(a);
    expect((await download(sub.token, taskId)).status).toBe(404);
    expect((await download(a.token, randomUUID())).status).toBe(404);
    const anonymous = await s.app.inject({ method: "GET", url: "/api/Product/DownloadExport", query: { taskId } });
    expect(anonymous.statusCode).toBe(401);

    // B selecting A's ids, or everything: A's products are not in B's file.
    expect((await exportAndRead(b, { ids: mine })).rows).toEqual([allHeaders]);
    const all = await exportAndRead(b, { filter: {} });
    expect(all.rows.some((r) => r.includes("甲的商品"))).toBe(false);
    expect(all.rows.flat()).not.toContain(mine[0]);
  });

  it("a sub-account exports only its own products; the main account exports everyone's", async () => {
    const t = await s.createTenant();
    const sub = await s.createSubUser(t);
    const [subProduct] = await addProducts(t, [{ title: { zh: "子账号的" } }], sub.id);
    const [mainProduct] = await addProducts(t, [{ title: { zh: "主账号的" } }]);

    const bySub = await exportAndRead(sub, { filter: {}, columns: ["id", "title", "owner"] });
    expect(bySub.rows).toEqual([
      ["商品ID", "标题", "所属账号"],
      [subProduct, "子账号的", sub.userName],
    ]);
    // Naming the main account's product by id does not help.
    expect((await exportAndRead(sub, { ids: [mainProduct, subProduct], columns: ["id"] })).rows).toEqual([["商品ID"], [subProduct]]);
    const byMain = await exportAndRead(t, { filter: {}, columns: ["id"] });
    expect(byMain.rows.slice(1).flat().sort()).toEqual([subProduct, mainProduct].sort());
    const byOwner = await exportAndRead(t, { filter: { userId: sub.id }, columns: ["id"] });
    expect(byOwner.rows).toEqual([["商品ID"], [subProduct]]);
  });

  it("refuses a download before the export has finished, and one whose file has expired", async () => {
    const t = await s.createTenant();
    const pending = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      createTask(tx, { tenantId: t.tenantId, taskType: TaskType.ExportProducts, content: "导出商品", creatorId: t.userId }),
    );
    const early = await download(t.token, pending);
    expect(early.status).toBe(403);
    expect(early.json().error.message).toBe("导出尚未完成，请稍后再下载");

    // A file older than 7 days cannot be downloaded, and the next export removes it.
    await addProducts(t, [{ title: { zh: "旧" } }]);
    const { taskId } = await exportAndRead(t, { filter: {} });
    const file = join(s.deps.config.dataDir, "exports", t.tenantId, `${taskId}.xlsx`);
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(file, eightDaysAgo, eightDaysAgo);
    const expired = await download(t.token, taskId);
    expect(expired.status).toBe(404);
    expect(expired.json().error.message).toBe("导出文件已过期，请重新导出");
    // Another user's expired file in the same tenant stays until that user exports again.
    const sub = await s.createSubUser(t);
    await addProducts(t, [{ title: { zh: "子" } }], sub.id);
    const subExport = await exportAndRead(sub, { filter: {} });
    const subFile = join(s.deps.config.dataDir, "exports", t.tenantId, `${subExport.taskId}.xlsx`);
    utimesSync(subFile, eightDaysAgo, eightDaysAgo);

    const next = await exportAndRead(t, { filter: {} });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(subFile)).toBe(true);
    expect(existsSync(join(s.deps.config.dataDir, "exports", t.tenantId, `${next.taskId}.xlsx`))).toBe(true);
  });

  it("works through the typed client over a real socket: export, poll the task centre, fetch the file", async () => {
    const t = await s.createTenant();
    const [id] = await addProducts(t, [{ title: { zh: "客户端导出" }, sku: "CLI-1" }]);
    await s.app.listen({ port: 0, host: "127.0.0.1" });
    const baseUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
    const api = createApi({ baseUrl, getToken: () => t.token, getTenant: () => t.tenantName });

    const { taskId } = await api.productExport.exportProduct({ ids: [id], columns: ["id", "title", "sku"] });
    let task;
    for (let tries = 0; ; tries++) {
      const page = await api.tasks.getTaskInfoByPage({ TaskType: TaskType.ExportProducts, MaxResultCount: 10 });
      task = page.items.find((x) => x.id === taskId);
      if (task?.taskStatus === TaskStatus.Succeeded || task?.taskStatus === TaskStatus.Failed || tries > 500) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(task).toMatchObject({ taskStatus: TaskStatus.Succeeded, progress: 100 });

    const url = await api.productExport.downloadExport({ taskId });
    expect(url).toBe(`${baseUrl}/api/Product/DownloadExport?taskId=${taskId}`);
    const res = await fetch(url, { headers: { authorization: `Bearer ${t.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(XLSX_TYPE);
    const name = /filename\*=UTF-8''([^;]+)/.exec(res.headers.get("content-disposition") ?? "")?.[1];
    expect(decodeURIComponent(name ?? "")).toBe(task!.taskRemark);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await res.arrayBuffer()) as never);
    expect(
      workbook.worksheets[0]
        .getSheetValues()
        .slice(1)
        .map((r) => (r as unknown[]).slice(1)),
    ).toEqual([
      ["商品ID", "标题", "SKU"],
      [id, "客户端导出", "CLI-1"],
    ]);
    // Without the token the address is no use.
    expect((await fetch(url)).status).toBe(401);
  });

  it("answers 400 to bad input and records no task", async () => {
    const t = await s.createTenant();
    const id = randomUUID();
    const bad: unknown[] = [
      {},
      { ids: [] },
      { ids: [id], productIds: [] },
      { ids: ["nope"] },
      { filter: { status: 99 } },
      { filter: {}, columns: [] },
      { filter: {}, columns: ["password"] },
      { filter: {}, utcOffsetMinutes: 10_000 },
      { filter: {}, utcOffsetMinutes: 1.5 },
    ];
    for (const body of bad) {
      const res = await s.api("POST", "/api/Product/ExportProduct", { token: t.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBeTruthy();
    }
    expect((await s.api("GET", "/api/Product/DownloadExport", { token: t.token })).status).toBe(400);
    expect((await s.api("GET", "/api/Product/DownloadExport", { token: t.token, query: { taskId: "x" } })).status).toBe(400);
    expect((await s.api("POST", "/api/Product/ExportProduct", { body: { filter: {} } })).status).toBe(401);
    const tasks = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token: t.token, query: { TaskType: TaskType.ExportProducts } });
    expect(tasks.body.result.totalCount).toBe(0);
  });
});
