// The wallet's screens in real Chromium against the real server (`npm start` on a fresh DATA_DIR; a fresh database on
// PostgreSQL): the demo seller tops up ¥500.50 in /finance/charge/list with a receipt image uploaded from the form; the
// host opens /admin/recharge, sees the receipt in the review dialog and approves it; the seller's wallet then shows the
// balance and the ledger entry. A second top-up is rejected: the host must give a reason, the seller sees it and the
// balance does not move. A withdrawal is held from the balance at once and approved in the withdrawals tab.
// Screenshots go to e2e/artifacts/finance-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChargeStatus, WalletLogType } from "#shared/contract/enums.ts";
import { pngImage } from "#shared/images/test-images.ts";
import { launchChromium, openConsolePage, toastSays } from "./browser.ts";
import { accessToken, type AppProcess, callApi, repoRoot, startFreshApp, until } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin12345678";

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let sellerToken: string;
let receiptFile: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("finance", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  sellerToken = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  const dir = mkdtempSync(join(tmpdir(), "erp-finance-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  receiptFile = join(dir, "转账截图.png");
  writeFileSync(receiptFile, pngImage(480, 320));
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png`, fullPage: true });

type Page_ = { items: { id: string; status: number; money: number; reason: string | null }[]; totalCount: number };
const sellerCharges = () => callApi<Page_>(app.url, sellerToken, "GET", "/api/ChargeRecord/GetChargeRecords?MaxResultCount=50");
const ledger = () =>
  callApi<{ balance: number; items: { type: number; money: number; balance: number }[] }>(
    app.url,
    sellerToken,
    "GET",
    "/api/WalletLog/GetWalletLogs?MaxResultCount=50",
  );

/** The seller's top-up through the charge page's dialog: amount, receipt uploaded from the file field, remark. */
async function submitCharge(page: Page, money: string, remark: string) {
  await page.click("[data-testid=charge-new]");
  await page.waitForSelector("[data-testid=charge-dialog]");
  await page.type("[data-testid=charge-money]", money);
  const input = (await page.$("[data-testid=charge-receipt-file]")) as ElementHandle<HTMLInputElement>;
  await input.uploadFile(receiptFile);
  await page.waitForSelector("[data-testid=charge-receipt-preview]", { timeout: 15_000 });
  await page.type("[data-testid=charge-remark]", remark);
  await page.click("[data-testid=charge-submit]");
  await toastSays(page, "充值申请已提交");
  await page.waitForSelector("[data-testid=charge-dialog]", { hidden: true });
}

describe("the wallet's screens", () => {
  it("a seller tops up with a receipt, the host approves it in /admin/recharge, and the seller's balance shows it", async () => {
    const seller = await openConsolePage(browser, app.url, demo, "/finance/charge/list");
    await seller.waitForSelector("[data-testid=charge-page]");
    await seller.waitForSelector("[data-testid=charge-balance]");
    expect(await seller.$eval("[data-testid=charge-balance]", (e) => e.textContent)).toBe("¥0.00");

    // A bad amount is refused in the form, before anything is sent.
    await seller.click("[data-testid=charge-new]");
    await seller.waitForSelector("[data-testid=charge-dialog]");
    await seller.type("[data-testid=charge-money]", "12.345");
    await seller.click("[data-testid=charge-submit]");
    await seller.waitForFunction(() => document.querySelector("[data-testid=charge-dialog]")?.textContent?.includes("最多两位小数"));
    await seller.waitForFunction(() => document.querySelector("[data-testid=charge-dialog]")?.textContent?.includes("请输入转账凭证"));
    await seller.keyboard.press("Escape");
    await seller.waitForSelector("[data-testid=charge-dialog]", { hidden: true });
    expect((await sellerCharges()).totalCount).toBe(0);

    await submitCharge(seller, "500.50", "工行转账 尾号 6688");
    await seller.waitForSelector("[data-testid=charge-status][data-status='1']");
    const [record] = (await sellerCharges()).items;
    expect(record).toMatchObject({ money: 500.5, status: ChargeStatus.Pending });
    expect(await seller.$eval("[data-testid=charge-money-cell]", (e) => e.textContent)).toBe("¥500.50");
    await shot(seller, "finance-01-submitted");

    // The host reviews it with the receipt shown, and approves.
    const host = await openConsolePage(browser, app.url, { tenant: "", user: "admin", password: ADMIN_PASSWORD }, "/admin/recharge");
    await host.waitForSelector("[data-testid=admin-recharge-page]");
    await host.waitForSelector("[data-testid=charge-review]", { timeout: 30_000 });
    expect(await host.$eval("[data-testid=recharge-total]", (e) => e.getAttribute("data-total"))).toBe("1");
    await host.click("[data-testid=charge-review]");
    await host.waitForSelector("[data-testid=review-dialog]");
    await host.waitForSelector("[data-testid=review-receipt][data-ready=true]", { timeout: 15_000 });
    const size = await host.$eval("[data-testid=review-receipt]", (e) => [
      (e as HTMLImageElement).naturalWidth,
      (e as HTMLImageElement).naturalHeight,
    ]);
    expect(size).toEqual([480, 320]);
    expect(await host.$eval("[data-testid=review-money]", (e) => e.textContent)).toBe("¥500.50");
    await new Promise((r) => setTimeout(r, 300)); // the dialog's opening animation
    await shot(host, "finance-02-review");
    await host.click("[data-testid=review-approve]");
    await toastSays(host, "已通过");
    await host.waitForFunction(() => document.querySelector("[data-testid=recharge-total]")?.getAttribute("data-total") === "0");
    await shot(host, "finance-03-approved");

    // Credited once: one ledger entry, the balance.
    const after = await ledger();
    expect(after.balance).toBe(500.5);
    expect(after.items).toEqual([expect.objectContaining({ type: WalletLogType.TopUp, money: 500.5, balance: 500.5 })]);

    // The seller's wallet shows the balance and the entry.
    await seller.click("[data-menu-path='/finance/wallet/list']");
    await seller.waitForSelector("[data-testid=wallet-page]");
    await seller.click("[data-testid=wallet-refresh]");
    await seller.waitForFunction(() => document.querySelector("[data-testid=wallet-balance]")?.getAttribute("data-balance") === "500.5", {
      timeout: 15_000,
    });
    expect(await seller.$eval("[data-testid=wallet-balance]", (e) => e.textContent)).toBe("¥500.50");
    expect(await seller.$eval("[data-testid=wallet-log-money]", (e) => e.textContent)).toBe("+¥500.50");
    expect(await seller.$eval("[data-testid=wallet-log-type]", (e) => e.textContent)).toBe("充值");
    expect(await seller.$eval("[data-testid=wallet-log-balance]", (e) => e.textContent)).toBe("¥500.50");
    await shot(seller, "finance-04-wallet");

    // The type filter is in the URL: purchases only shows none.
    await seller.click("[data-testid=wallet-filter-type]");
    await seller.click(`[data-testid=wallet-filter-type-${WalletLogType.Purchase}]`);
    await seller.waitForFunction((t) => location.hash.includes(`type=${t}`), {}, WalletLogType.Purchase);
    await seller.waitForFunction(() => !document.querySelector("[data-testid=wallet-log-money]"));

    // A second top-up, rejected: a reason is required, the seller sees it, and the balance does not move.
    await seller.click("[data-menu-path='/finance/charge/list']");
    await seller.waitForSelector("[data-testid=charge-page]");
    await submitCharge(seller, "80", "第二笔");
    await host.click("[data-testid=recharge-refresh]");
    await host.waitForSelector("[data-testid=charge-review]", { timeout: 15_000 });
    await host.click("[data-testid=charge-review]");
    // The receipt drawn first: its image's height moves the buttons under it (a click computed before it lands beside).
    await host.waitForSelector("[data-testid=review-receipt][data-ready=true]", { timeout: 15_000 });
    await host.click("[data-testid=review-reject]");
    // The confirm button is drawn by the click above: on a loaded machine it is not there yet when the click returns.
    await host.waitForSelector("[data-testid=review-reject-confirm]");
    await host.click("[data-testid=review-reject-confirm]");
    await host.waitForFunction(() => document.querySelector("[data-testid=review-dialog]")?.textContent?.includes("驳回时请填写原因"));
    await host.type("[data-testid=review-reason]", "凭证金额与申请金额不符");
    await host.click("[data-testid=review-reject-confirm]");
    await toastSays(host, "已驳回");
    const rejected = await until(
      "the rejected top-up",
      async () => (await sellerCharges()).items.find((c) => c.money === 80) ?? null,
      (c) => c?.status === ChargeStatus.Rejected,
      15_000,
    );
    expect(rejected!.reason).toBe("凭证金额与申请金额不符");
    expect((await ledger()).balance).toBe(500.5);
    await seller.click("[data-testid=charge-refresh]");
    await seller.waitForSelector(`[data-testid=charge-status][data-status='${ChargeStatus.Rejected}']`, { timeout: 15_000 });
    expect(await seller.$eval("[data-testid=charge-page]", (e) => e.textContent)).toContain("凭证金额与申请金额不符");
    await shot(seller, "finance-05-rejected");

    // A withdrawal: the money is held at once; the host pays it out and approves it in the withdrawals tab.
    await seller.click("[data-testid=charge-withdraw]");
    await seller.waitForSelector("[data-testid=withdraw-dialog]");
    await seller.type("[data-testid=withdraw-money]", "600");
    await seller.type("[data-testid=withdraw-account]", "seller@example.com");
    await seller.click("[data-testid=withdraw-submit]");
    await seller.waitForFunction(() => document.querySelector("[data-testid=withdraw-dialog]")?.textContent?.includes("余额不足"));
    await seller.click("[data-testid=withdraw-money]", { count: 3 });
    await seller.type("[data-testid=withdraw-money]", "100");
    await seller.click("[data-testid=withdraw-submit]");
    await toastSays(seller, "提现申请已提交");
    expect((await ledger()).balance).toBe(400.5);
    await seller.click("[data-testid=finance-tab-withdraw]");
    await seller.waitForSelector("[data-testid=withdraw-status][data-status='1']", { timeout: 15_000 });
    await seller.waitForFunction(() => document.querySelector("[data-testid=charge-balance]")?.textContent === "¥400.50");
    await shot(seller, "finance-06-withdraw");
    await host.click("[data-testid=finance-tab-withdraw]");
    await host.waitForSelector("[data-testid=withdraw-review]", { timeout: 15_000 });
    await host.click("[data-testid=withdraw-review]");
    await host.waitForSelector("[data-testid=review-approve]");
    await host.click("[data-testid=review-approve]");
    await toastSays(host, "已通过");
    await host.waitForFunction(() => document.querySelector("[data-testid=recharge-total]")?.getAttribute("data-total") === "0");
    const final = await ledger();
    expect(final.balance).toBe(400.5);
    expect(final.items.map((e) => e.type)).toEqual([WalletLogType.Withdraw, WalletLogType.TopUp]);
  });
});
