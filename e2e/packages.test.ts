// Sub-account packages in real Chromium against the real server (`npm start` on a fresh DATA_DIR; a fresh database on
// PostgreSQL): the host limits free sub-accounts to what the demo seller already has, offers a package and credits
// the seller's wallet; the seller cannot create another sub-account, buys the package in /payment/package (the balance
// shown drops by its price), and then creates one more sub-account in /user/setting. Each step is checked against the
// server's data. Then the host creates a package in /admin/package and the seller sees it on offer; the seller, recorded
// as the agency of a new tenant, sees that tenant's commission in /finance/agency/list and its balance on the workbench.
// Screenshots go to e2e/artifacts/packages-*.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openConsolePage, toastSays } from "./browser.ts";
import { accessToken, type AppProcess, callApi, repoRoot, startFreshApp } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin12345678";

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let sellerToken: string;
let hostToken: string;
const cleanups: (() => unknown)[] = [];

type Allowance = { limit: number | null; activeSubAccounts: number; balance: number; purchasedCount: number };
const allowance = async () =>
  (await callApi<{ allowance: Allowance }>(app.url, sellerToken, "GET", "/api/SubAccountOrder/GetMySubAccOrder")).allowance;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("packages", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  sellerToken = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  hostToken = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png`, fullPage: true });
const textOf = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent);

describe("sub-account packages", () => {
  it("a seller at its limit buys a package with its balance and can create one more sub-account", async () => {
    // The host: free sub-accounts = what the seller has now, one package, ¥50 in the seller's wallet.
    const start = await allowance();
    await callApi(app.url, hostToken, "POST", "/api/SystemConfigSetting/CreateOrUpdate", {
      name: "免费子账号数",
      key: "SubAccount.FreeCount",
      value: String(start.activeSubAccounts),
    });
    const pkg = await callApi<{ id: string }>(app.url, hostToken, "POST", "/api/SubAccountOrder/CreateOrUpdateSubAccOrderInfo", {
      name: "加购 1 个子账号",
      count: 1,
      days: 30,
      price: 20,
    });
    const me = await callApi<{ tenantId: string }>(app.url, sellerToken, "GET", "/api/User/GetMyInfo");
    await callApi(app.url, hostToken, "POST", "/api/Hosted/AddOrSubMoney", {
      tenantId: me.tenantId,
      money: 50,
      type: 1,
      remark: "e2e 充值",
    });
    const atLimit = await allowance();
    expect(atLimit).toMatchObject({ limit: start.activeSubAccounts, balance: 50 });
    await expect(
      callApi(app.url, sellerToken, "POST", "/api/User/CreateSubUser", { userName: "tooearly", pwd: "Sales123456" }),
    ).rejects.toThrow(/403/);

    // The seller buys it in /payment/package.
    const page = await openConsolePage(browser, app.url, demo, "/payment/package");
    await page.waitForSelector("[data-testid=package-page]");
    await page.waitForFunction(() => document.querySelector("[data-testid=package-balance]")?.textContent === "¥50.00");
    await page.waitForSelector(`[data-package-id="${pkg.id}"] [data-testid=package-buy]`);
    await page.click(`[data-package-id="${pkg.id}"] [data-testid=package-buy]`);
    await page.waitForSelector("[data-slot=confirm-dialog]");
    expect(await textOf(page, "[data-slot=confirm-dialog]")).toContain("¥20.00");
    await page.click("[data-slot=confirm-dialog] button:last-child");
    await toastSays(page, "购买成功");
    await page.waitForFunction(() => document.querySelector("[data-testid=package-balance]")?.textContent === "¥30.00");
    await shot(page, "packages-bought");
    const after = await allowance();
    expect(after).toMatchObject({ limit: start.activeSubAccounts + 1, purchasedCount: 1, balance: 30 });

    // One more sub-account in /user/setting.
    await page.goto(`${app.url}/#/user/setting`);
    await page.waitForSelector("[data-testid=sub-users-create]");
    await page.click("[data-testid=sub-users-create]");
    await page.waitForSelector("[data-testid=sub-user-dialog]");
    await page.type("[data-testid=sub-user-username]", "bought1");
    await page.type("[data-testid=sub-user-password]", "Sales123456");
    await page.click("[data-testid=sub-user-submit]");
    await page.waitForSelector("[data-testid=sub-user-dialog]", { hidden: true });
    await shot(page, "packages-sub-account-created");
    const subs = await callApi<{ items: { userName: string }[] }>(app.url, sellerToken, "GET", "/api/User/GetSubUsers?Search=bought1");
    expect(subs.items.map((u) => u.userName)).toEqual(["bought1"]);
    expect((await allowance()).activeSubAccounts).toBe(start.activeSubAccounts + 1);
    await page.close();
  }, 180_000);

  it("the host creates a package in /admin/package and the seller sees it on offer", async () => {
    const host = await openConsolePage(browser, app.url, { tenant: "", user: "admin", password: ADMIN_PASSWORD }, "/admin/package");
    await host.waitForSelector("[data-testid=admin-package-page]");
    await host.click("[data-testid=admin-package-create]");
    await host.waitForSelector("[data-testid=admin-package-dialog]");
    await host.type("[data-testid=admin-package-name]", "e2e 五人套餐");
    await host.type("[data-testid=admin-package-count]", "5");
    await host.click("[data-testid=admin-package-days]", { count: 3 });
    await host.type("[data-testid=admin-package-days]", "90");
    await host.type("[data-testid=admin-package-price]", "88.8");
    await host.click("[data-testid=admin-package-save]");
    await toastSays(host, "已新增套餐");
    await host.waitForSelector("[data-testid=admin-package-dialog]", { hidden: true });
    await host.waitForFunction(() => document.querySelector("[data-testid=admin-package-page]")?.textContent?.includes("e2e 五人套餐"));
    // The seller's purchase of the first test is in the host's purchase list.
    await host.waitForFunction(() => document.querySelector("[aria-label=购买记录]")?.textContent?.includes("加购 1 个子账号"));
    await shot(host, "packages-admin");
    const offered = await callApi<{ id: string; name: string; count: number; days: number; price: number }[]>(
      app.url,
      sellerToken,
      "GET",
      "/api/SubAccountOrder/GetSubAccOrderInfos",
    );
    const created = offered.find((p) => p.name === "e2e 五人套餐");
    expect(created).toMatchObject({ count: 5, days: 90, price: 88.8 });

    const seller = await openConsolePage(browser, app.url, demo, "/payment/package");
    await seller.waitForSelector(`[data-package-id="${created!.id}"]`);
    expect(await textOf(seller, `[data-package-id="${created!.id}"]`)).toContain("¥88.80");
    await shot(seller, "packages-offer-from-admin");

    // The seller as an agency: the host records that it recommended a new tenant, whose ¥50 purchase pays it 10 %.
    await callApi(app.url, hostToken, "POST", "/api/SystemConfigSetting/CreateOrUpdate", {
      name: "推广佣金比例",
      key: "Agency.CommissionRate",
      value: "10",
    });
    await callApi(app.url, hostToken, "POST", "/api/Hosted/OpenTenantAccount", {
      tenantName: "e2e-invitee",
      userName: "boss",
      pwd: "Invitee123456",
    });
    const inviteeToken = await accessToken(app.url, "boss", "Invitee123456", "e2e-invitee");
    const invitee = await callApi<{ tenantId: string }>(app.url, inviteeToken, "GET", "/api/User/GetMyInfo");
    const agency = await callApi<{ tenantId: string }>(app.url, sellerToken, "GET", "/api/User/GetMyInfo");
    await callApi(app.url, hostToken, "POST", "/api/Hosted/SetRecommendTenant", {
      tenantId: invitee.tenantId,
      recommandTenantId: agency.tenantId,
      type: 1,
    });
    await callApi(app.url, hostToken, "POST", "/api/Hosted/AddOrSubMoney", {
      tenantId: invitee.tenantId,
      money: 80,
      type: 1,
      remark: "e2e",
    });
    await callApi(app.url, inviteeToken, "GET", `/api/WalletLog/Payment?money=50&remark=${encodeURIComponent("e2e 购买")}`);
    await seller.click("[data-menu-path='/finance/agency/list']");
    await seller.waitForFunction(() => document.querySelector("[data-testid=agency-total-commission]")?.textContent === "¥5.00");
    await seller.waitForFunction(() => document.querySelector("[data-testid=agency-invite-commission]")?.textContent === "¥5.00");
    await shot(seller, "packages-agency");
    // The workbench shows the balance (¥30.00 + ¥5.00 commission) in yuan.
    await seller.click("[data-menu-path='/dashboard/wrokbench']");
    await seller.waitForFunction(() =>
      document.querySelector("[data-testid=workbench-card-wallet\\.balance]")?.textContent?.includes("¥35.00"),
    );
    await shot(seller, "packages-workbench-wallet");
    await host.close();
    await seller.close();
  }, 180_000);
});
