// The shop centre in real Chromium against the real server (`npm start` on a fresh DATA_DIR, and a fresh database when
// the suite runs on PostgreSQL), whose in-process Mercado Libre sandbox plays the marketplace: connect a shop through
// the authorization window and the sandbox's consent page, come back and see it listed; edit its pricing rules and
// switches; connect another with the browser's pop-ups blocked (the page goes there and back itself). Each step is
// checked against the server's data, not only the screen. Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, callApi, freePort, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let token: string;
let salesperson: { id: string; userName: string };
const cleanups: (() => unknown)[] = [];

type Shop = {
  id: string;
  name: string;
  site: number;
  currency: string;
  status: number;
  isRecieveOrder: boolean;
  adjustRate: number | null;
  tinyPrice: number | null;
  limitMinPrice: number | null;
  limitMaxPrice: number | null;
  ownerId: string;
};

const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);
const shops = async () =>
  (await call<{ items: Shop[]; totalCount: number }>("GET", "/api/MeliAccount/GetAccounts?MaxResultCount=100")).items;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const port = await freePort();
  // Mercado Libre sends the seller back to PUBLIC_URL: the address the browser uses for the console. The sandbox's
  // consent page stays on localhost, another origin, as the real authorization page is.
  const started = await startFreshApp("shops", { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  // A salesperson of the demo tenant, to assign shops to (the console lists it from the user cache at login).
  salesperson = await call("POST", "/api/User/CreateSubUser", { userName: "sales1", pwd: "Sales123456" });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });

/** A logged-in main account on /shops/list, in a context of its own; `blockPopups` makes window.open answer null. */
async function openShops({ blockPopups = false } = {}): Promise<Page> {
  const page = await openConsolePage(
    browser,
    app.url,
    demo,
    "/shops/list",
    blockPopups ? (p) => p.evaluateOnNewDocument(() => void (window.open = () => null)).then(() => undefined) : undefined,
  );
  await page.waitForSelector("[data-testid=shops-list-page]");
  return page;
}

/** Chooses the sites in the open connect dialog and submits it. */
async function connectWith(page: Page, sites: number[]) {
  await page.waitForSelector("[data-testid=shops-connect-dialog]");
  for (const s of sites) await page.click(`[data-testid=shops-connect-site-${s}]`);
  await page.click("[data-testid=shops-connect-submit]");
}

/** On the sandbox's consent page: the test seller's nickname, then Permitir. */
async function consent(page: Page, nickname: string, expectedSite: string) {
  await page.waitForSelector("#nickname", { timeout: 15_000 });
  expect(await page.$eval("#site", (e) => (e as HTMLSelectElement).value)).toBe(expectedSite);
  await page.$eval("#nickname", (e) => ((e as HTMLInputElement).value = ""));
  await page.type("#nickname", nickname);
  // A new test seller: signed up with a password (the page asks for it again on the next authorization).
  await page.type("#password", "seller-pass-1");
  await page.click("#signup");
}

const rowTitles = (page: Page) => page.$$eval("[data-testid=shops-row-title]", (els) => els.map((e) => e.textContent ?? ""));
const toastTexts = (page: Page) =>
  page.$$eval("[data-toast-type]", (els) => els.map((e) => `${e.getAttribute("data-toast-type")}:${e.textContent}`));

describe("shop centre", () => {
  it("connects a Mexican shop through the authorization window and lists it", async () => {
    const page = await openShops();
    await page.waitForSelector("[data-testid=shops-empty]");
    await shot(page, "shops-01-empty");

    await page.click("[data-testid=shops-empty-connect]");
    await page.waitForSelector("[data-testid=shops-connect-dialog]");
    await page.click("[data-testid=shops-connect-site-1]");
    await shot(page, "shops-02-connect-dialog");
    const popupOpened = new Promise<Page | null>((resolve) => page.once("popup", resolve));
    await page.click("[data-testid=shops-connect-submit]");
    const popup = (await popupOpened)!;
    await consent(popup, "TESTSHOP_MX_1", "MLM");
    expect(new URL(popup.url()).host).toBe(new URL(app.url.replace("127.0.0.1", "localhost")).host);
    await page.waitForSelector("[data-testid=shops-auth-waiting]");
    await popup.setViewport({ width: 1000, height: 760 });
    await shot(popup, "shops-03-consent");
    await popup.click("#allow");

    // AuthBack posts the result to this window and closes its own.
    await page.waitForFunction(
      () => [...document.querySelectorAll("[data-toast-type=success]")].some((e) => e.textContent?.includes("授权成功")),
      {
        timeout: 20_000,
      },
    );
    await page.waitForFunction(() => !document.querySelector("[data-testid=shops-auth-waiting]"));
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=shops-row-title]").length === 1, { timeout: 10_000 });
    expect(await rowTitles(page)).toEqual(["TESTSHOP_MX_1"]);
    expect(await page.$eval("[data-testid=shops-site]", (e) => e.textContent)).toContain("墨西哥");
    expect(await page.$eval("[data-testid=shops-status]", (e) => e.textContent)).toBe("正常");
    expect((await toastTexts(page)).join(" ")).toContain("已新增 1 个店铺（墨西哥）");
    await shot(page, "shops-04-list");

    const [mx] = await shops();
    expect(mx).toMatchObject({ name: "TESTSHOP_MX_1", site: 1, currency: "MXN", status: 1 });
    // The user cache (accs) carries it too.
    const cache = await page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").state.userCache.accs);
    expect(cache.map((a: { name: string }) => a.name)).toEqual(["TESTSHOP_MX_1"]);
    await page.browserContext().close();
  });

  it("edits the pricing rules, order receiving and status of the shop", async () => {
    const page = await openShops();
    await page.waitForSelector("[data-testid=shops-row-title]");
    const [mx] = await shops();

    await page.click(`[data-testid=shops-row-pricing-${mx.id}]`);
    await page.waitForSelector("[data-testid=shops-pricing-dialog]");
    await page.type("[data-testid=shops-pricing-alias]", "墨西哥主店");
    await page.type("[data-testid=shops-pricing-adjustRate]", "1.25");
    await page.type("[data-testid=shops-pricing-tinyPrice]", "0.99");
    await page.type("[data-testid=shops-pricing-limitMinPrice]", "100");
    await page.type("[data-testid=shops-pricing-limitMaxPrice]", "50");
    await page.click("[data-testid=shops-pricing-submit]");
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=shops-pricing-dialog]")?.textContent?.includes("最高限价不能低于最低限价"),
    );
    await shot(page, "shops-05-pricing-dialog");
    await page.click("[data-testid=shops-pricing-limitMaxPrice]", { count: 3 });
    await page.type("[data-testid=shops-pricing-limitMaxPrice]", "5000");
    await page.click("[data-testid=shops-pricing-submit]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=shops-pricing-dialog]"));
    await page.waitForFunction(() => document.querySelector("[data-testid=shops-row-title]")?.textContent === "墨西哥主店");
    expect(await page.$eval("[data-testid=shops-pricing-summary]", (e) => e.textContent)).toContain("倍率 ×1.25");
    let [saved] = await shops();
    expect(saved).toMatchObject({ adjustRate: 1.25, tinyPrice: 0.99, limitMinPrice: 100, limitMaxPrice: 5000 });

    // Order receiving: a switch; disabling: confirmed first.
    const receiving = saved.isRecieveOrder;
    await page.click(`[data-testid=shops-row-receive-${mx.id}]`);
    await page.waitForFunction(
      (id, want) =>
        document.querySelector(`[data-testid=shops-row-receive-${id}]`)?.getAttribute("data-state") === (want ? "checked" : "unchecked"),
      { timeout: 10_000 },
      mx.id,
      !receiving,
    );
    await page.click(`[data-testid=shops-row-enable-${mx.id}]`);
    await page.waitForSelector("[data-slot=confirm-dialog]");
    await shot(page, "shops-06-disable-confirm");
    const buttons = await page.$$("[data-slot=confirm-dialog] button");
    for (const b of buttons) if ((await b.evaluate((e) => e.textContent)) === "停用") await b.click();
    await page.waitForFunction(() => document.querySelector("[data-testid=shops-status]")?.textContent === "已停用", { timeout: 10_000 });
    [saved] = await shops();
    expect(saved).toMatchObject({ isRecieveOrder: !receiving, status: 2 });

    // The groups tab shows the seller's account with the shop.
    await page.click("[data-testid=shops-tab-groups]");
    await page.waitForSelector("[data-testid=shops-groups]");
    expect(await page.$eval("[data-testid=shops-group-name]", (e) => e.textContent)).toBe("TESTSHOP_MX_1");
    await shot(page, "shops-07-groups");
    await page.browserContext().close();
  });

  it("with pop-ups blocked, goes to the authorization page and back in the same window", async () => {
    const page = await openShops({ blockPopups: true });
    await page.waitForSelector("[data-testid=shops-row-title]");
    await page.click("[data-testid=shops-connect]");
    await connectWith(page, [2]);
    await consent(page, "TESTSHOP_BR_1", "MLB");
    await Promise.all([page.waitForNavigation(), page.click("#allow")]);
    // AuthBack's page leads back to /#/shops/list?auth=success...; the list reports it and drops it from the URL.
    await page.waitForFunction(() => location.hash.startsWith("#/shops/list"), { timeout: 20_000 });
    await page.waitForFunction(
      () => [...document.querySelectorAll("[data-toast-type=success]")].some((e) => e.textContent?.includes("TESTSHOP_BR_1")),
      {
        timeout: 20_000,
      },
    );
    await page.waitForFunction(() => !location.hash.includes("auth="));
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=shops-row-title]").length === 2, { timeout: 10_000 });
    expect(await rowTitles(page)).toContain("TESTSHOP_BR_1");
    await shot(page, "shops-08-back-same-window");
    const all = await shops();
    expect(all.find((s) => s.name === "TESTSHOP_BR_1")).toMatchObject({ site: 2, currency: "BRL" });

    // Filters live in the URL: 巴西 only.
    await page.click("[data-testid=shops-filter-site]");
    await page.click("[data-testid=shops-filter-site-2]");
    await page.waitForFunction(() => location.hash.includes("site=2"));
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=shops-row-title]").length === 1);
    expect(await rowTitles(page)).toEqual(["TESTSHOP_BR_1"]);
    await page.browserContext().close();
  });

  it("changes the pricing rules of the chosen shops at once and assigns them to a salesperson", async () => {
    const page = await openShops();
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=shops-row-title]").length === 2, { timeout: 10_000 });
    await page.click("[data-testid=shops-list-page] table [aria-label=全选]");
    await page.waitForFunction(() => document.querySelector("[data-testid=shops-bulk-bar]")?.getAttribute("data-count") === "2");

    await page.click("[data-testid=shops-bulk-pricing]");
    await page.waitForSelector("[data-testid=shops-batch-dialog]");
    await page.click("[data-testid=shops-batch-submit]");
    await page.waitForSelector("[data-testid=shops-batch-apply-error]");
    await page.click("[data-testid=shops-batch-apply-adjustRate]");
    await page.type("[data-testid=shops-batch-adjustRate]", "1.1");
    await page.click("[data-testid=shops-batch-apply-limitMaxPrice]");
    await shot(page, "shops-09-batch-dialog");
    await page.click("[data-testid=shops-batch-submit]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=shops-batch-dialog]"));
    await page.waitForFunction(() =>
      [...document.querySelectorAll("[data-toast-type=success]")].some((e) => e.textContent?.includes("已修改 2 个店铺")),
    );
    for (const s of await shops()) expect(s).toMatchObject({ adjustRate: 1.1, limitMaxPrice: null });

    await page.click("[data-testid=shops-bulk-assign]");
    await page.waitForSelector("[data-testid=shops-assign-dialog]");
    await page.click("[data-testid=shops-assign-user]");
    await page.click(`[data-testid=shops-assign-user-${salesperson.id}]`);
    await shot(page, "shops-10-assign-dialog");
    await page.click("[data-testid=shops-assign-submit]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=shops-assign-dialog]"));
    await page.waitForFunction(
      () => [...document.querySelectorAll("[data-testid=shops-list-page] td")].filter((e) => e.textContent === "sales1").length === 2,
      { timeout: 10_000 },
    );
    for (const s of await shops()) expect(s.ownerId).toBe(salesperson.id);
    await shot(page, "shops-11-assigned");
    await page.browserContext().close();
  });
});
