// The host's tenants screen (issue 31) in real Chromium against the real server: the host finds a tenant, opens its
// statistics drawer (the charts load with it), copies its products (seeded through the API) to another tenant and
// watches the task's progress until it has finished, then copies two chosen products by id (复制指定商品,
// MigrateToProduct) to a third tenant and sees exactly those arrive; 独立数据库 shows the shared database and the
// server's refusal of a connection string. Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskStatus } from "#shared/contract/enums.ts";
import { launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin123456";
const DEST = { tenantName: "copy_dest", userName: "destmain", pwd: "Dest123456" };
const CHOSEN_DEST = { tenantName: "chosen_dest", userName: "chosenmain", pwd: "Chosen123456" };
const PRODUCTS = ["透明手机壳", "冬季外套", "蓝牙耳机"];

let app: AppProcess;
let browser: Browser;
let demoTenant: string;
let productIds: string[];
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("host-tenants", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  demoTenant = app.firstStart.demo!.tenant;
  const hostToken = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  await callApi(app.url, hostToken, "POST", "/api/Hosted/OpenTenantAccount", DEST);
  await callApi(app.url, hostToken, "POST", "/api/Hosted/OpenTenantAccount", CHOSEN_DEST);
  // The demo tenant's products (the first start leaves it empty here): created as its main account would.
  const demo = app.firstStart.demo!;
  const seller = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  productIds = [];
  for (const [i, zh] of PRODUCTS.entries()) {
    const p = await callApi<{ id: string }>(app.url, seller, "POST", "/api/Product/CreateOrUpdateProduct", {
      title: { zh },
      price: 20 + i,
      currency: "CNY",
      weight: 100,
      images: [],
    });
    productIds.push(p.id);
  }
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });

/** The titles of a tenant's live products, read as its main account. */
async function productTitles(t: { tenantName: string; userName: string; pwd: string }) {
  const token = await accessToken(app.url, t.userName, t.pwd, t.tenantName);
  const page = await callApi<{ items: { title: { zh?: string } }[] }>(app.url, token, "POST", "/api/Product/GetProductsByPage", {
    maxResultCount: 100,
  });
  return page.items.map((p) => p.title.zh).sort();
}

/** Follows the task progress dialog until its task has succeeded, then closes it. */
async function followTask(page: Page, route: string) {
  await page.waitForSelector("[data-testid=tenant-task-progress-dialog]", { timeout: 15_000 });
  await page.waitForFunction(
    (done) => document.querySelector("[data-testid=tenant-task-progress]")?.getAttribute("data-status") === String(done),
    { timeout: 60_000 },
    TaskStatus.Succeeded,
  );
  expect(await page.$eval("[data-testid=tenant-task-progress]", (e) => e.getAttribute("data-progress"))).toBe("100");
  expect(await page.$eval("[data-testid=tenant-task-progress-dialog]", (e) => e.textContent)).toContain(route);
}

describe("host tenants screen", () => {
  it("the host finds a tenant, opens its statistics, copies its products to another tenant, then chosen ones to a third, watching the progress", async () => {
    const page = await openConsolePage(browser, app.url, { tenant: "", user: "admin", password: ADMIN_PASSWORD }, "/admin/user");
    await page.waitForSelector("[data-testid=admin-user-page]");
    await page.type("[data-testid=admin-tenants-search]", demoTenant);
    await page.waitForFunction(
      (name) => {
        const rows = [...document.querySelectorAll("[data-testid^=admin-tenant-stats-]")];
        return rows.length === 1 && document.querySelector("[data-testid=admin-user-page]")!.textContent!.includes(name);
      },
      { timeout: 15_000 },
      demoTenant,
    );

    // 统计: the drawer with its figures, both charts drawn and the per-user table.
    await page.click("[data-testid^=admin-tenant-stats-]");
    await page.waitForSelector("[data-testid=tenant-statistics-figures]", { timeout: 15_000 });
    await page.waitForSelector("[data-testid=tenant-statistics-products-chart] canvas");
    await page.waitForSelector("[data-testid=tenant-statistics-shops-chart] canvas");
    const drawer = await page.$eval("[data-testid=tenant-statistics-drawer]", (e) => e.textContent ?? "");
    expect(drawer).toContain(`统计：${demoTenant}`);
    expect(drawer).toContain("用户统计");
    await shot(page, "host-tenant-statistics");
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=tenant-statistics-drawer]", { hidden: true });

    // 更多 → 复制商品 to the other tenant, found by name; the task's progress follows until it has succeeded.
    await page.click("[data-testid^=admin-tenant-more-]");
    await page.click("[data-testid=admin-tenant-action-copyProducts]");
    await page.waitForSelector("[data-testid=tenant-copy-dialog]");
    await page.type("[data-testid=tenant-copy-dest-search]", DEST.tenantName);
    await page.waitForSelector("[data-testid=tenant-copy-dest-option]");
    await page.click("[data-testid=tenant-copy-dest-option]");
    await page.click("[data-testid=tenant-copy-submit]");
    await followTask(page, `${demoTenant} → ${DEST.tenantName}`);
    await shot(page, "host-tenant-copy-progress");
    expect(await productTitles(DEST)).toEqual([...PRODUCTS].sort());
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=tenant-task-progress-dialog]", { hidden: true });

    // 更多 → 复制指定商品: two of the products by id (pasted with a comma and a new line) to the third tenant.
    await page.click("[data-testid^=admin-tenant-more-]");
    await page.click("[data-testid=admin-tenant-action-transferProducts]");
    await page.waitForSelector("[data-testid=tenant-products-dialog]");
    await page.type("[data-testid=tenant-products-ids]", `${productIds[0]},\n${productIds[2]}`);
    await page.waitForFunction(() => document.querySelector("[data-testid=tenant-products-ids-count]")?.textContent === "已填 2 个商品");
    await page.type("[data-testid=tenant-products-dest-search]", CHOSEN_DEST.tenantName);
    await page.waitForSelector("[data-testid=tenant-products-dest-option]");
    await page.click("[data-testid=tenant-products-dest-option]");
    await page.waitForSelector("[data-testid=tenant-products-owner]");
    await shot(page, "host-tenant-chosen-products");
    await page.click("[data-testid=tenant-products-submit]");
    await followTask(page, `${demoTenant} → ${CHOSEN_DEST.tenantName}，2 个商品`);
    expect(await productTitles(CHOSEN_DEST)).toEqual([PRODUCTS[0], PRODUCTS[2]].sort());
    // The source keeps its own (a copy, not a move).
    expect(
      await productTitles({ tenantName: demoTenant, userName: app.firstStart.demo!.user, pwd: app.firstStart.demo!.password }),
    ).toHaveLength(3);

    // 更多 → 独立数据库: the tenant is on the shared database; setting a connection string (confirmed) is refused with the
    // server's words (PGlite has only one database; on PostgreSQL nothing listens on port 1).
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=tenant-task-progress-dialog]", { hidden: true });
    await page.click("[data-testid^=admin-tenant-more-]");
    await page.click("[data-testid=admin-tenant-action-database]");
    await page.waitForSelector("[data-testid=tenant-database-state][data-state=shared]", { timeout: 15_000 });
    expect(await page.$eval("[data-testid=tenant-database-state]", (e) => e.textContent)).toBe("共享数据库");
    await page.type("[data-testid=tenant-database-input]", "postgres://erp:secret@127.0.0.1:1/erp_own");
    await page.click("[data-testid=tenant-database-submit]");
    await page.click("[data-slot=confirm-dialog] button::-p-text(开始迁移)");
    await page.waitForSelector("[data-testid=tenant-database-error]", { timeout: 15_000 });
    expect(await page.$eval("[data-testid=tenant-database-error]", (e) => e.textContent)).toMatch(/PGlite|无法连接该数据库/);
    await shot(page, "host-tenant-database");
    await page.keyboard.press("Escape");

    // The workbench's trends are drawn by the same uPlot wrapper (its lazy chunk): the host's three charts, new tenants
    // among them (three opened today).
    await page.click("[data-menu-path='/dashboard/wrokbench']");
    await page.waitForSelector("[data-testid=workbench-chart-tenants\\.created] canvas", { timeout: 15_000 });
    expect(await page.$$eval("[data-testid^=workbench-chart-] canvas", (c) => c.length)).toBeGreaterThanOrEqual(2);
    await shot(page, "host-workbench-charts");
    await page.browserContext().close();
  });
});
