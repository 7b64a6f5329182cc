// Chinese categories and category mapping in real Chromium against the real server (`npm start` on a fresh DATA_DIR,
// no translation service): the host syncs Mexico, the glossary names its categories in Chinese, and a seller finds
// 耳机 in the product editor's picker; saving a collected product (with its Taobao category) with that category
// remembers the mapping, the next product of that source category is offered it first, and the 类目映射 screen lists
// it. Screenshots go to e2e/artifacts (and /work/shots when it exists).
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, until, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin-e2e-2026";
let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let seller: string;
const products: string[] = [];
const cleanups: (() => unknown)[] = [];

const call = <T>(token: string, method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

const item = (itemId: string) => ({
  platform: "taobao",
  itemId,
  sourceUrl: `https://item.taobao.com/item.htm?id=${itemId}`,
  title: { zh: `无线蓝牙耳机 ${itemId}` },
  titleLanguage: "zh",
  currency: "CNY",
  price: 59,
  images: ["https://img.example.com/e.jpg"],
  attributes: [],
  options: [],
  variants: [],
  sourceCategory: { id: "50008090", path: "影音电器 > 耳机/耳麦" },
});

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("category-mapping", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  seller = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  const host = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  const { taskId } = await call<{ taskId: string }>(host, "POST", "/api/MeliCategory/UpdateAllCategory", {
    sites: [1],
    withAttributes: false,
    withFees: false,
  });
  await until(
    "category sync",
    () =>
      call<{ items: { id: string; taskStatus: number }[] }>(host, "GET", "/api/TaskInfo/GetTaskInfoByPage?TaskType=9&MaxResultCount=10"),
    (page) => page.items.some((t) => t.id === taskId && t.taskStatus === 3),
    240_000,
  );
  for (const id of ["7001", "7002"]) {
    const c = await call<{ id: string }>(seller, "POST", "/api/Collect/CrawlProductByPlugin", item(id));
    const m = await call<{ productIds: string[] }>(seller, "POST", "/api/Collect/MigratToProduct", { ids: [c.id] });
    products.push(m.productIds[0]);
  }
  browser = await launchChromium();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });
  if (existsSync("/work/shots")) await page.screenshot({ path: `/work/shots/${name}.png` });
}

async function openEditor(productId: string): Promise<Page> {
  const page = await openConsolePage(browser, app.url, demo, "/proudcts/list");
  await page.waitForSelector(`[data-testid=products-row-edit-${productId}]`, { timeout: 20_000 });
  await page.click(`[data-testid=products-row-edit-${productId}]`);
  await page.waitForSelector("[data-testid=products-editor-form]");
  await page.click("[data-testid=products-editor-site]");
  await page.waitForSelector("[data-testid=products-editor-site-1]");
  await page.click("[data-testid=products-editor-site-1]");
  await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-category]")?.hasAttribute("disabled"));
  return page;
}

describe("Chinese categories and category mapping", () => {
  it("finds 耳机 with no translation service, remembers the pick, offers it for the next product and lists it", async () => {
    const page = await openEditor(products[0]);
    await page.click("[data-testid=products-editor-category]");
    await page.waitForSelector("[data-testid=products-editor-category-list] [role=treeitem]", { timeout: 20_000 });
    expect(await page.$eval("[data-testid=products-editor-category-search]", (e) => (e as HTMLInputElement).placeholder)).toBe(
      "搜索类目：中文或西语名称",
    );
    await page.type("[data-testid=products-editor-category-search]", "耳机");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=products-editor-category-list] [role=option]").length > 0);
    const rows = await page.$$eval("[data-testid=products-editor-category-list] [role=option]", (els) =>
      els.map((e) => ({ id: e.getAttribute("data-testid")!.replace("products-editor-category-node-", ""), text: e.textContent ?? "" })),
    );
    const wireless = rows.find((r) => r.text.includes("无线耳机"))!;
    expect(wireless).toBeDefined();
    await shot(page, "categories-chinese-search");
    await page.click(`[data-testid=products-editor-category-node-${wireless.id}]`);
    await page.click("[data-testid=products-editor-save]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-form]"), { timeout: 15_000 });
    await page.close();

    // The next product of the same Taobao category: the mapping is offered first, and taken in one click.
    const next = await openEditor(products[1]);
    await next.waitForSelector("[data-testid=products-editor-category-mapping]", { timeout: 15_000 });
    expect(await next.$eval("[data-testid=products-editor-category-mapping]", (e) => e.getAttribute("data-cate-id"))).toBe(wireless.id);
    await shot(next, "categories-mapping-suggested");
    await next.click("[data-testid=products-editor-category-mapping-use]");
    await next.waitForFunction(() => !document.querySelector("[data-testid=products-editor-category-mapping]"));
    await next.close();

    const screen = await openConsolePage(browser, app.url, demo, "/proudcts/category-mappings");
    await screen.waitForSelector("[data-testid^=category-mappings-category-]", { timeout: 15_000 });
    const text = await screen.$eval("[data-testid=category-mappings-page]", (e) => e.textContent ?? "");
    expect(text).toContain("影音电器 > 耳机/耳麦");
    expect(text).toContain("无线耳机");
    await shot(screen, "categories-mapping-screen");
  });
});
