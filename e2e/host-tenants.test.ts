// The host's tenants screen (issue 31) in real Chromium against the real server: the host finds a tenant, opens its
// statistics drawer (the charts load with it), copies its products to another tenant and watches the task's progress
// until it has finished. Screenshots go to e2e/artifacts.
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

let app: AppProcess;
let browser: Browser;
let demoTenant: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("host-tenants", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  demoTenant = app.firstStart.demo!.tenant;
  const hostToken = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  await callApi(app.url, hostToken, "POST", "/api/Hosted/OpenTenantAccount", DEST);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });

describe("host tenants screen", () => {
  it("the host finds a tenant, opens its statistics, copies its products to another tenant and watches the progress", async () => {
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
    await page.waitForSelector("[data-testid=tenant-task-progress-dialog]", { timeout: 15_000 });
    await page.waitForFunction(
      (done) => document.querySelector("[data-testid=tenant-task-progress]")?.getAttribute("data-status") === String(done),
      { timeout: 60_000 },
      TaskStatus.Succeeded,
    );
    expect(await page.$eval("[data-testid=tenant-task-progress]", (e) => e.getAttribute("data-progress"))).toBe("100");
    expect(await page.$eval("[data-testid=tenant-task-progress-dialog]", (e) => e.textContent)).toContain(
      `${demoTenant} → ${DEST.tenantName}`,
    );
    await shot(page, "host-tenant-copy-progress");
    await page.browserContext().close();
  });
});
