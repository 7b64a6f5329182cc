// The authorization centre in real Chromium against the real server (`npm start` on a fresh DATA_DIR; a fresh database
// on PostgreSQL): the demo seller (tenant B) generates an authorization code in /module-auth/auth; a second tenant
// (A, opened by the host) applies with it in /module-auth/apply; B approves it under 收到的申请; A then opens B's
// products through the grant. Each step is checked against the server's data. Screenshots: e2e/artifacts/module-auth-*.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openConsolePage, toastSays } from "./browser.ts";
import { accessToken, type AppProcess, callApi, repoRoot, startFreshApp } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin12345678";
const APPLICANT = { tenant: "e2eapplicant", user: "applicant", password: "Apply123456" };
const PRODUCT_TITLE = "e2e 授权共享商品";

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let grantorToken: string;
let applicantToken: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("module-auth", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  grantorToken = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  const hostToken = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  await callApi(app.url, hostToken, "POST", "/api/Hosted/OpenTenantAccount", {
    tenantName: APPLICANT.tenant,
    userName: APPLICANT.user,
    pwd: APPLICANT.password,
  });
  applicantToken = await accessToken(app.url, APPLICANT.user, APPLICANT.password, APPLICANT.tenant);
  // B's product that the grant will open.
  await callApi(app.url, grantorToken, "POST", "/api/Product/CreateOrUpdateProduct", {
    title: { zh: PRODUCT_TITLE },
    sku: "E2E-AUTH-1",
    price: 66,
  });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png`, fullPage: true });

type Page_ = { items: { id: string; auditStatus: number; tenantName: string; authTenantName: string }[]; totalCount: number };

describe("authorization centre", () => {
  it("B generates a code, A applies with it, B approves, A sees B's products", async () => {
    // Nothing held before: A cannot read B's products.
    expect((await callApi<Page_>(app.url, applicantToken, "GET", "/api/ModuleAuth/GetAuths?Type=1")).totalCount).toBe(0);

    // B: 生成授权码 in /module-auth/auth.
    const grantor = await openConsolePage(browser, app.url, demo, "/module-auth/auth");
    await grantor.waitForSelector("[data-testid=module-auth-page]");
    await grantor.click("[data-testid=auth-generate-code]");
    await grantor.waitForSelector("[data-testid=auth-code-dialog]").catch(async (e: unknown) => {
      await shot(grantor, "module-auth-failure");
      throw e;
    });
    await grantor.waitForFunction(() =>
      /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/.test(document.querySelector("[data-testid=auth-code]")?.textContent ?? ""),
    );
    const code = (await grantor.$eval("[data-testid=auth-code]", (e) => e.textContent))!;
    await shot(grantor, "module-auth-code");
    await grantor.keyboard.press("Escape");
    await grantor.waitForSelector("[data-testid=auth-code-dialog]", { hidden: true });

    // A: applies in /module-auth/apply with the code, for viewing and copying B's products.
    const applicant = await openConsolePage(browser, app.url, APPLICANT, "/module-auth/apply");
    await applicant.waitForSelector("[data-testid=auth-apply-form]");
    await applicant.type("[data-testid=auth-apply-code]", code);
    await applicant.click("[data-testid=auth-apply-content-products\\.copy]");
    await applicant.type("[data-testid=auth-apply-remark]", "e2e 合作申请");
    await applicant.click("[data-testid=auth-apply-submit]");
    await toastSays(applicant, "等待对方审核");
    await applicant.waitForFunction(
      () => document.querySelector("[aria-label=我的申请] [data-testid=auth-status]")?.textContent === "待审核",
    );
    await shot(applicant, "module-auth-applied");
    const made = await callApi<Page_>(app.url, applicantToken, "GET", "/api/ModuleAuth/GetApplys?Type=1");
    expect(made.items).toHaveLength(1);
    expect(made.items[0]).toMatchObject({ auditStatus: 1, authTenantName: demo.tenant });

    // B: approves it under 收到的申请.
    await grantor.click("[data-testid=auth-tab-given]");
    await grantor.waitForSelector("[data-testid=auth-approve]");
    await shot(grantor, "module-auth-received");
    await grantor.click("[data-testid=auth-approve]");
    await grantor.waitForSelector("[data-slot=confirm-dialog]");
    await grantor.click("[data-slot=confirm-dialog] button:last-child");
    await toastSays(grantor, "已通过");
    await grantor.waitForSelector("[data-testid=auth-revoke]");
    const held = await callApi<Page_>(app.url, applicantToken, "GET", "/api/ModuleAuth/GetAuths?Type=1");
    expect(held.items.map((a) => a.authTenantName)).toEqual([demo.tenant]);
    const cache = await callApi<{ moduleAuths: { id: string; name: string }[] }>(
      app.url,
      applicantToken,
      "GET",
      "/api/User/GetUserInitCache",
    );
    expect(cache.moduleAuths).toEqual([{ id: held.items[0].id, name: demo.tenant }]);

    // A: 已授权 lists the grant; 查看商品 shows B's product.
    await applicant.goto(`${app.url}/#/module-auth/auth`);
    await applicant.waitForSelector("[data-testid=auth-open-products]");
    await applicant.click("[data-testid=auth-open-products]");
    await applicant.waitForSelector("[data-testid=auth-products-dialog]");
    await applicant.waitForFunction(
      (t) => document.querySelector("[data-testid=auth-products-dialog]")?.textContent?.includes(t),
      { timeout: 15_000 },
      PRODUCT_TITLE,
    );
    await new Promise((r) => setTimeout(r, 500));
    await shot(applicant, "module-auth-products");
    await grantor.browserContext().close();
    await applicant.browserContext().close();
  }, 180_000);
});
