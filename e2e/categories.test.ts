// The category tree-select in real Chromium against the real server (`npm start` on a fresh DATA_DIR, and a fresh
// database when the suite runs on PostgreSQL): the host syncs Mexico's categories through the API, then a seller opens
// a product in the editor, picks a category by searching (without its accents, in lower case), saves, and the server
// holds the category and its full name. The tree is cached in IndexedDB with its version, and a second opening only
// checks the version (notModified). Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, HTTPResponse, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CategoryTreeNode } from "#shared/contract/category.ts";
import { launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin-e2e-2026";
let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let seller: string;
let host: string;
let productId: string;
const cleanups: (() => unknown)[] = [];

const call = <T>(token: string, method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

const flatten = (nodes: CategoryTreeNode[]): CategoryTreeNode[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("categories", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  seller = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  host = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  // The host syncs Mexico (tree and attributes) and waits for the task.
  const { taskId } = await call<{ taskId: string }>(host, "POST", "/api/MeliCategory/UpdateAllCategory", { sites: [1], withFees: false });
  for (let i = 0; ; i++) {
    const page = await call<{ items: { id: string; taskStatus: number; taskRemark: string }[] }>(
      host,
      "GET",
      "/api/TaskInfo/GetTaskInfoByPage?TaskType=9&MaxResultCount=10",
    );
    const task = page.items.find((t) => t.id === taskId);
    if (task?.taskStatus === 3) break;
    if (task?.taskStatus === 4 || i > 600) throw new Error(`category sync did not finish: ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const p = await call<{ id: string }>(seller, "POST", "/api/Product/CreateOrUpdateProduct", {
    title: { zh: "硅胶手机壳", es: "Funda de silicona para celular" },
    price: 35,
    currency: "CNY",
  });
  productId = p.id;
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });

async function openEditor(): Promise<Page> {
  const page = await openConsolePage(browser, app.url, demo, "/proudcts/list");
  await page.waitForSelector(`[data-testid=products-row-edit-${productId}]`, { timeout: 15_000 });
  await page.click(`[data-testid=products-row-edit-${productId}]`);
  await page.waitForSelector("[data-testid=products-editor-form]");
  return page;
}

describe("category tree-select", () => {
  it("picks a category by searching in the product editor, and the server keeps it with its full name", async () => {
    const answer = await call<{ version: string; tree: CategoryTreeNode[] }>(seller, "GET", "/api/MeliCategory/GetAllCategory?site=1");
    const leaves = flatten(answer.tree).filter((n) => n.isLeaf);
    // A leaf with an accent in its name, searched without it.
    const leaf = leaves.find((n) => fold(n.name) !== n.name.toLowerCase()) ?? leaves[0];
    const query = fold(leaf.name);

    const page = await openEditor();
    const treeAnswers: HTTPResponse[] = [];
    page.on("response", (r) => r.url().includes("/api/MeliCategory/GetAllCategory") && treeAnswers.push(r));
    await page.click("[data-testid=products-editor-site]");
    await page.waitForSelector("[data-testid=products-editor-site-1]");
    await page.click("[data-testid=products-editor-site-1]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-category]")?.hasAttribute("disabled"));
    await page.click("[data-testid=products-editor-category]");
    await page.waitForSelector("[data-testid=products-editor-category-list] [role=treeitem]", { timeout: 15_000 });
    // The dropdown stays within 400 px and as wide as the field.
    const box = await page.$eval("[data-testid=products-editor-category-dropdown]", (e) => e.getBoundingClientRect().toJSON());
    const field = await page.$eval("[data-testid=products-editor-category]", (e) => e.getBoundingClientRect().toJSON());
    expect(box.height).toBeLessThanOrEqual(400);
    expect(Math.round(box.width)).toBe(Math.round(field.width));
    await shot(page, "categories-01-tree");

    await page.type("[data-testid=products-editor-category-search]", query);
    await page.waitForSelector(`[data-testid=products-editor-category-node-${leaf.id}]`);
    const row = await page.$eval(`[data-testid=products-editor-category-node-${leaf.id}]`, (e) => e.textContent ?? "");
    expect(row).toContain(leaf.fullName);
    await shot(page, "categories-02-search");
    await page.click(`[data-testid=products-editor-category-node-${leaf.id}]`);
    await page.waitForFunction(
      (name) => document.querySelector("[data-testid=products-editor-category]")?.textContent?.includes(name),
      {},
      leaf.fullName,
    );
    await shot(page, "categories-03-chosen");
    await page.click("[data-testid=products-editor-save]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-form]"), { timeout: 10_000 });

    const saved = await call<{ cateId: string; site: number; categoryName: string; cateInfo: { cateId: string; site: number } }>(
      seller,
      "GET",
      `/api/Product/GetProductById?id=${productId}`,
    );
    expect(saved).toMatchObject({ cateId: leaf.id, site: 1, categoryName: leaf.fullName, cateInfo: { cateId: leaf.id, site: 1 } });

    // The local database holds the tree under the server's version.
    const cached = await page.evaluate(
      () =>
        new Promise<{ version: string; count: number } | null>((resolve, reject) => {
          const open = indexedDB.open("erp-category-cache", 1);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const get = open.result.transaction("categories").objectStore("categories").get(1);
            get.onsuccess = () => resolve(get.result ? { version: get.result.version, count: get.result.tree.length } : null);
          };
        }),
    );
    expect(cached).toEqual({ version: answer.version, count: answer.tree.length });

    // Opened again after a reload: the version is checked and the tree comes from the cache.
    treeAnswers.length = 0;
    await page.reload();
    await page.waitForSelector(`[data-testid=products-row-edit-${productId}]`, { timeout: 15_000 });
    await page.click(`[data-testid=products-row-edit-${productId}]`);
    await page.waitForFunction(
      (name) => document.querySelector("[data-testid=products-editor-category]")?.textContent?.includes(name),
      { timeout: 15_000 },
      leaf.fullName,
    );
    await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.includes("GetAllCategory")));
    for (let i = 0; i < 50 && !treeAnswers.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(treeAnswers.map((r) => new URL(r.url()).searchParams.get("version"))).toEqual([answer.version]);
    const body = JSON.parse(await treeAnswers[0].text()) as { result: { notModified: boolean; tree: unknown } };
    expect(body.result).toMatchObject({ notModified: true, tree: null });
    await page.browserContext().close();
  }, 120_000);
});
