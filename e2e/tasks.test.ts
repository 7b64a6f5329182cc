// The task centre (/task/list) in real Chromium against the real server (`npm start` on a fresh DATA_DIR, and a fresh
// database when the suite runs on PostgreSQL): an export of the product list is started, the task centre lists it,
// follows it to 已完成 by itself, and its 下载 saves the real xlsx the server wrote. The filters narrow the list
// through the URL. Screenshots go to e2e/artifacts.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowDownloads, launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let token: string;
const cleanups: (() => unknown)[] = [];

const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("tasks");
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  for (let i = 0; i < 5; i++) {
    await call("POST", "/api/Product/CreateOrUpdateProduct", {
      title: { zh: `任务中心测试商品 ${i}` },
      price: 20 + i,
      currency: "CNY",
      images: [],
    });
  }
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });

async function waitForFile(dir: string, suffix: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readdirSync(dir).find((f) => f.endsWith(suffix));
    if (found) return join(dir, found);
    if (Date.now() > deadline) throw new Error(`no ${suffix} in ${dir}: ${readdirSync(dir).join(", ")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("task centre", () => {
  it("lists a started export, follows it to 已完成 and downloads its file", async () => {
    const { taskId } = await call<{ taskId: string }>("POST", "/api/Product/ExportProduct", {
      filter: { title: "任务中心测试商品" },
      utcOffsetMinutes: 480,
    });
    const page = await openConsolePage(browser, app.url, demo, "/task/list");
    const downloads = mkdtempSync(join(tmpdir(), "erp-task-downloads-"));
    cleanups.push(() => rmSync(downloads, { recursive: true, force: true }));
    await allowDownloads(browser, page, downloads);
    await page.waitForSelector("[data-testid=task-list-page]");
    await page.waitForSelector(`[data-testid=task-row-${taskId}]`, { timeout: 15_000 });
    // No reload: the page asks again by itself while the export is waiting or running.
    await page.waitForSelector(`[data-testid=task-download-${taskId}]`, { timeout: 30_000 });
    const row = `[data-row-key='${taskId}']`;
    expect(await page.$eval(`${row} [data-testid=task-status]`, (e) => [e.getAttribute("data-status"), e.textContent])).toEqual([
      "3",
      "已完成",
    ]);
    expect(await page.$eval(`${row} [data-testid=task-type]`, (e) => e.textContent)).toBe("导出商品");
    expect(await page.$eval(`${row} [data-testid=task-progress]`, (e) => e.getAttribute("data-progress"))).toBe("100");
    expect(await page.$eval(`${row} [data-testid=task-remark]`, (e) => e.textContent)).toMatch(/^商品导出-\d{8}-\d{6}\.xlsx$/);
    await shot(page, "tasks-01-export-finished");

    await page.click(`[data-testid=task-download-${taskId}]`);
    const file = await waitForFile(downloads, ".xlsx");
    expect(file).toMatch(/商品导出-\d{8}-\d{6}\.xlsx$/);
    expect(readFileSync(file).subarray(0, 2).toString()).toBe("PK"); // an xlsx is a zip
    await page.waitForFunction(() => document.body.textContent!.includes("已下载"), { timeout: 10_000 });
    await shot(page, "tasks-02-downloaded");

    // The type filter goes into the URL and narrows the list to exports.
    await page.click("[data-testid=tasks-type-filter]");
    await page.waitForSelector("[data-testid=tasks-type-7]");
    await page.click("[data-testid=tasks-type-7]");
    await page.waitForFunction(() => location.hash.includes("type=7"), { timeout: 10_000 });
    await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=task-type]")].every((e) => e.textContent === "导出商品"), {
      timeout: 10_000,
    });
    expect(await page.$(`[data-testid=task-row-${taskId}]`)).not.toBeNull();
    await shot(page, "tasks-03-filtered");
    await page.browserContext().close();
  });
});
