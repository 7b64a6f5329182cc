// Issue 28's points 9–11 in real Chromium against the real server (`npm start` on a fresh DATA_DIR): 系统配置 lists every
// setting the product reads and refuses a bad value before sending it; the host sets the free sub-account number on
// the package screen, and the seller, who could not buy a package while there was no limit, sees the limit before and
// after paying; the host sets the receiving accounts (one with a QR code uploaded from the form) where top-ups are
// reviewed, and the seller's top-up dialog shows them. Screenshots go to e2e/artifacts/config-*.png (and /work/shots
// when SHOTS_DIR is set).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTING_REGISTRY } from "#shared/contract/setting-registry.ts";
import { pngImage } from "#shared/images/test-images.ts";
import { launchChromium, openConsolePage, toastSays } from "./browser.ts";
import { accessToken, type AppProcess, callApi, repoRoot, startFreshApp } from "./app-process.ts";

const artifacts = process.env.SHOTS_DIR ?? join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin12345678";
const HOST = { tenant: "", user: "admin", password: ADMIN_PASSWORD };

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let sellerToken: string;
let hostToken: string;
let qrFile: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "config-e2e-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  qrFile = join(dir, "收款码.png");
  writeFileSync(qrFile, pngImage(240, 240));
  const started = await startFreshApp("system-config", { ADMIN_PASSWORD });
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
const textOf = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? "");

describe("系统配置, free sub-accounts, receiving accounts", () => {
  it("系统配置 lists every key the product reads and refuses a bad value before sending it", async () => {
    const host = await openConsolePage(browser, app.url, HOST, "/admin/system_config");
    await host.waitForFunction(
      (keys: string[]) => keys.every((k) => document.querySelector("[data-testid=known-settings]")?.textContent?.includes(k)),
      { timeout: 30_000 },
      SETTING_REGISTRY.map((d) => d.key),
    );
    const table = await textOf(host, "[data-testid=known-settings]");
    for (const d of SETTING_REGISTRY) {
      expect(table).toContain(d.key);
      expect(table).toContain(d.name);
    }
    await shot(host, "config-system");
    await host.click("[data-testid='known-setting-edit-SubAccount.FreeCount']");
    await host.waitForSelector("[data-testid=known-setting-dialog]");
    await host.type("[data-testid=known-setting-value]", "-3");
    await host.waitForSelector("[data-testid=known-setting-problem]");
    expect(await textOf(host, "[data-testid=known-setting-problem]")).toContain("整数");
    expect(await host.$eval("[data-testid=known-setting-save]", (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await shot(host, "config-system-edit");
    await host.close();
  }, 120_000);

  it("no package can be bought without a limit; the host sets the free number on the package screen; the seller sees the limit before and after", async () => {
    const pkg = await callApi<{ id: string }>(
      app.url,
      await accessToken(app.url, "admin", ADMIN_PASSWORD),
      "POST",
      "/api/SubAccountOrder/CreateOrUpdateSubAccOrderInfo",
      {
        name: "加购 3 个子账号",
        count: 3,
        days: 30,
        price: 30,
      },
    );
    const me = await callApi<{ tenantId: string }>(app.url, sellerToken, "GET", "/api/User/GetMyInfo");
    await callApi(app.url, hostToken, "POST", "/api/Hosted/AddOrSubMoney", {
      tenantId: me.tenantId,
      money: 50,
      type: 1,
      remark: "e2e 充值",
    });
    const seller = await openConsolePage(browser, app.url, demo, "/payment/package");
    await seller.waitForSelector("[data-testid=package-unlimited]");
    const buy = `[data-package-id="${pkg.id}"] [data-testid=package-buy]`;
    await seller.waitForSelector(buy);
    expect(await seller.$eval(buy, (b) => (b as HTMLButtonElement).disabled)).toBe(true);

    const host = await openConsolePage(browser, app.url, HOST, "/admin/package");
    await host.waitForSelector("[data-testid=free-count-editor]");
    expect(await textOf(host, "[data-testid=free-count-hint]")).toContain("未设置");
    await host.type("[data-testid=free-count-input]", "2");
    await host.click("[data-testid=free-count-save]");
    await toastSays(host, "免费子账号数已设为 2 个");
    await host.waitForSelector("[data-testid=free-count-editor][data-value='2']");
    await shot(host, "config-package-host");
    await host.close();

    await seller.reload();
    await seller.waitForSelector(`[data-package-id="${pkg.id}"] [data-testid=package-limit-after]`);
    expect(await textOf(seller, `[data-package-id="${pkg.id}"] [data-testid=package-limit-after]`)).toBe("上限 2 → 5 个");
    expect(await seller.$eval(buy, (b) => (b as HTMLButtonElement).disabled)).toBe(false);
    await seller.click(buy);
    await seller.waitForSelector("[data-slot=confirm-dialog]");
    expect(await textOf(seller, "[data-slot=confirm-dialog]")).toContain("子账号上限：现在 2 个，购买后 5 个（30 天内有效）");
    await shot(seller, "config-package-seller");
    await seller.click("[data-slot=confirm-dialog] button:last-child");
    await toastSays(seller, "购买成功：子账号上限 5 个");
    const mine = await callApi<{ allowance: { limit: number; purchasedCount: number } }>(
      app.url,
      sellerToken,
      "GET",
      "/api/SubAccountOrder/GetMySubAccOrder",
    );
    expect(mine.allowance).toMatchObject({ limit: 5, purchasedCount: 3 });
    await seller.close();
  }, 180_000);

  it("the host sets the receiving accounts with a QR code; the seller's top-up dialog shows them", async () => {
    const host = await openConsolePage(browser, app.url, HOST, "/admin/recharge");
    await host.waitForSelector("[data-testid=receiving-accounts-edit]");
    await host.click("[data-testid=receiving-accounts-edit]");
    await host.waitForSelector("[data-testid=receiving-accounts-dialog]");
    // 添加 is enabled once the saved accounts are in the form (they would replace a row added before).
    await host.waitForSelector("[data-testid=receiving-account-add]:not([disabled])");
    await host.click("[data-testid=receiving-account-add]");
    // The new account's row is drawn after the click: wait for both of its fields before typing.
    await host.waitForSelector("input[aria-label='第 1 个账户的收款人']");
    await host.waitForSelector("input[aria-label='第 1 个账户的账号']");
    await host.type("input[aria-label='第 1 个账户的收款人']", "张三");
    await host.type("input[aria-label='第 1 个账户的账号']", "pay@example.com");
    const file = (await host.$("[data-testid=receiving-qr-0-file]")) as ElementHandle<HTMLInputElement>;
    await file.uploadFile(qrFile);
    await host.waitForSelector("[data-testid=receiving-account-row] img[data-ready=true]", { timeout: 15_000 });
    await host.click("[data-testid=receiving-account-add]");
    // The second row, and then its bank fields, are drawn after each click: each is waited for before it is used.
    await host.waitForSelector("[data-testid=receiving-kind-1]");
    await host.click("[data-testid=receiving-kind-1]");
    await host.waitForSelector("[data-testid=receiving-kind-1-bank]");
    await host.click("[data-testid=receiving-kind-1-bank]");
    await host.waitForSelector("input[aria-label='第 2 个账户的开户行']");
    await host.type("input[aria-label='第 2 个账户的收款人']", "某某科技有限公司");
    await host.type("input[aria-label='第 2 个账户的账号']", "6222 0000 1111 2222");
    await host.type("input[aria-label='第 2 个账户的开户行']", "招商银行深圳分行");
    await shot(host, "config-accounts-host");
    await host.click("[data-testid=receiving-accounts-save]");
    await toastSays(host, "收款账户已保存");
    await host.close();

    const saved = await callApi<{ name: string; kind: string; qrPic?: string }[]>(
      app.url,
      sellerToken,
      "GET",
      "/api/ChargeRecord/GetReceivingAccounts",
    );
    expect(saved.map((a) => [a.name, a.kind, !!a.qrPic])).toEqual([
      ["张三", "alipay", true],
      ["某某科技有限公司", "bank", false],
    ]);

    const seller = await openConsolePage(browser, app.url, demo, "/finance/charge/list");
    await seller.waitForSelector("[data-testid=charge-new]");
    await seller.click("[data-testid=charge-new]");
    await seller.waitForSelector("[data-testid=charge-dialog] [data-testid=receiving-account]");
    await seller.waitForSelector("[data-testid=receiving-account-qr-0][data-ready=true]", { timeout: 15_000 });
    const dialog = await textOf(seller, "[data-testid=charge-dialog]");
    for (const text of ["张三", "pay@example.com", "支付宝", "银行转账", "某某科技有限公司", "6222 0000 1111 2222", "招商银行深圳分行"])
      expect(dialog).toContain(text);
    await shot(seller, "config-topup");
    await seller.close();
  }, 180_000);
});
