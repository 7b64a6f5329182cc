// A first start as a newcomer gets it, in real Chromium against the real server (`npm start` on a fresh DATA_DIR, and a
// fresh database when the suite runs on PostgreSQL) with the demo content on (DEMO_DATA=1, the default outside tests):
// once the first start's work has ended (the host's category sync task, the demo tenant's content), the demo seller
// logs in and every screen has content: the collection list (the partial extractions marked), the product list with
// labels and the flagged product, the shop list with the sandbox shop, the editor's category picker without any host
// step, and an export started from the product list that the task centre shows finished with its download.
// Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, type AppProcess, callApi, repoRoot, startFreshApp, until } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin-e2e-2026";
// What server/modules/demo/demo-content.ts makes (DEMO_COLLECTS, DEMO_PRODUCTS, DEMO_SHOP, DEMO_LABELS).
const DEMO_COLLECTS = 48;
const DEMO_PRODUCTS = 16;
const DEMO_SHOP = "DEMO_SHOP";
const DEMO_LABELS = ["热销", "新品", "待定价"];

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let seller: string;
const cleanups: (() => unknown)[] = [];

type Task = { id: string; taskType: number; taskStatus: number; taskRemark: string | null };
type Collect = { id: string; incompleteFields: string[] };
type Product = { id: string; labelName: string | null; infringementWord: string | null };

/** Reads until `done` holds; throws with the last answer after `timeoutMs`. */
const ended = (t: Task | undefined) => t !== undefined && t.taskStatus !== TaskStatus.Pending && t.taskStatus !== TaskStatus.Running;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("fresh-start", { DEMO_DATA: "1", ADMIN_PASSWORD }, { empty: true });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  expect(demo).toBeDefined();
  seller = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  const host = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  browser = await launchChromium();

  // The first start's work, followed through the API: the host's category sync task ends succeeded...
  const [sync] = await until(
    "first start's category sync",
    async () =>
      (
        await callApi<{ items: Task[] }>(
          app.url,
          host,
          "GET",
          `/api/TaskInfo/GetTaskInfoByPage?TaskType=${TaskType.SyncCategories}&MaxResultCount=10`,
        )
      ).items,
    (items) => items.length === 1 && ended(items[0]),
  );
  expect(sync.taskStatus, sync.taskRemark ?? "").toBe(TaskStatus.Succeeded);
  // ...and the demo content's last step, the infringement screening, has flagged its product.
  await until(
    "demo content",
    () => callApi<{ items: Product[] }>(app.url, seller, "POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 }),
    (p) => p.items.some((i) => i.infringementWord),
  );
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

// CI runs this file on both databases at the same time: each run's screenshots keep their own names.
const run = process.env.DATABASE_URL ? "-postgres" : "";
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}${run}.png`) as `${string}.png` });
const count = (page: Page, selector: string) => page.$$eval(selector, (els) => els.length);

describe("a fresh start with the demo content", () => {
  it("shows the demo seller's collections, products and shop, a working category picker, and an export in the task centre", async () => {
    const collects = await callApi<{ items: Collect[]; totalCount: number }>(app.url, seller, "POST", "/api/Collect/GetCollect", {
      maxResultCount: 100,
    });
    expect(collects.totalCount).toBe(DEMO_COLLECTS);
    const partial = collects.items.filter((c) => c.incompleteFields.length > 0).length;

    // The collection list: every collection on one page of 50, the partial ones marked 部分字段未采集.
    const page = await openConsolePage(browser, app.url, demo, "/collects/list");
    await page.waitForSelector("[data-testid=collects-list-page]");
    await page.evaluate(() => void (location.hash = "#/collects/list?size=50"));
    await page.waitForFunction(
      (n) => document.querySelectorAll("[data-testid=collects-status]").length === n,
      { timeout: 15_000 },
      DEMO_COLLECTS,
    );
    expect(await page.$eval("[data-slot=pagination-total]", (e) => e.textContent)).toBe(`共 ${DEMO_COLLECTS} 条`);
    expect(await count(page, "[data-testid=collects-incomplete]")).toBe(partial);
    if (partial) {
      expect(await page.$eval("[data-testid=collects-incomplete]", (e) => e.textContent)).toContain("部分字段未采集");
      await page.$eval("[data-testid=collects-incomplete]", (e) => e.scrollIntoView({ block: "center" }));
    }
    await shot(page, "fresh-start-01-collects");

    // The product list: the moved products, labelled, one flagged by the infringement word.
    await page.click("[data-menu-path='/proudcts/list']");
    await page.waitForSelector("[data-testid=products-list-page]");
    await page.waitForFunction(
      (n) => document.querySelectorAll("[data-testid=products-status]").length === n,
      { timeout: 15_000 },
      DEMO_PRODUCTS,
    );
    const labels = await page.$$eval("[data-testid=products-list-page] [data-row-key] [title]", (els) =>
      els.map((e) => e.getAttribute("title")),
    );
    for (const label of DEMO_LABELS) expect(labels).toContain(label);
    // The list marks exactly the products the screening flagged (the demo's word flags at least one).
    const flagged = (
      await callApi<{ items: Product[] }>(app.url, seller, "POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 })
    ).items.filter((i) => i.infringementWord).length;
    expect(flagged).toBeGreaterThanOrEqual(1);
    expect(await count(page, "[data-testid=products-infringement]")).toBe(flagged);
    await shot(page, "fresh-start-02-products");

    // The editor's category picker lists Mexico's categories: the first start synced them, no host step.
    const first = await page.$eval("[data-testid=products-list-page] [data-row-key]", (e) => e.getAttribute("data-row-key")!);
    await page.click(`[data-testid=products-row-edit-${first}]`);
    await page.waitForSelector("[data-testid=products-editor-form]");
    await page.click("[data-testid=products-editor-site]");
    await page.waitForSelector("[data-testid=products-editor-site-1]");
    await page.click("[data-testid=products-editor-site-1]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-category]")?.hasAttribute("disabled"));
    await page.click("[data-testid=products-editor-category]");
    await page.waitForSelector("[data-testid=products-editor-category-list] [role=treeitem]", { timeout: 15_000 });
    expect(await count(page, "[data-testid=products-editor-category-list] [role=treeitem]")).toBeGreaterThan(5);
    await shot(page, "fresh-start-03-category-picker");
    await page.keyboard.press("Escape"); // the picker
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-category-list]"));
    // Closed unsaved: the site was changed, so the editor asks first.
    await page.click("[data-testid=products-editor] [data-slot=sheet-footer] button::-p-text(取消)");
    await page.click("[data-slot=confirm-dialog] button::-p-text(放弃修改)");
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-form]"));

    // An export of the whole list, left to run in the background.
    await page.click("[data-testid=products-export]");
    // The dialog counts the selection with a call of its own: wait for the count, not just the element.
    await page.waitForSelector("[data-testid=products-export-dialog-count][data-count]:not([data-count=''])");
    expect(await page.$eval("[data-testid=products-export-dialog-count]", (e) => e.getAttribute("data-count"))).toBe(String(DEMO_PRODUCTS));
    await page.click("[data-testid=products-export-dialog-submit]");
    await page.waitForSelector("[data-testid=products-export-progress-dialog]");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-export-progress-dialog]"));

    // The task centre lists it, finished, with its download.
    await page.click("[data-menu-path='/task/list']");
    await page.waitForSelector("[data-testid=task-list-page]");
    const [exported] = await until(
      "export task",
      async () =>
        (
          await callApi<{ items: Task[] }>(
            app.url,
            seller,
            "GET",
            `/api/TaskInfo/GetTaskInfoByPage?TaskType=${TaskType.ExportProducts}&MaxResultCount=10`,
          )
        ).items,
      (items) => items.length === 1,
      10_000,
    );
    await page.waitForSelector(`[data-testid=task-download-${exported.id}]`, { timeout: 30_000 });
    const row = `[data-row-key='${exported.id}']`;
    expect(await page.$eval(`${row} [data-testid=task-status]`, (e) => [e.getAttribute("data-status"), e.textContent])).toEqual([
      String(TaskStatus.Succeeded),
      "已完成",
    ]);
    expect(await page.$eval(`${row} [data-testid=task-type]`, (e) => e.textContent)).toBe("导出商品");
    await shot(page, "fresh-start-04-task-centre");

    // The shop list: the sandbox shop the first start connected.
    await page.click("[data-menu-path='/shops/list']");
    await page.waitForSelector("[data-testid=shops-list-page]");
    await page.waitForSelector("[data-testid=shops-row-title]", { timeout: 15_000 });
    expect(await page.$$eval("[data-testid=shops-row-title]", (els) => els.map((e) => e.textContent))).toEqual([DEMO_SHOP]);
    await shot(page, "fresh-start-05-shops");
    await page.browserContext().close();
  }, 120_000);
});
