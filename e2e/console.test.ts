// The console in real Chromium (Debian's package) against the real server started as `npm start` starts it, on a
// fresh DATA_DIR (and a fresh database when the suite runs on PostgreSQL). Screenshots of each state are written to
// e2e/artifacts (ignored by git) for review.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin123456";
const SUB = { userName: "salesperson1", password: "Sales123456" };

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("console", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  // A sub-account of the demo tenant, made through the API as a main account would.
  const mainToken = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  await callApi(app.url, mainToken, "POST", "/api/User/CreateSubUser", { userName: SUB.userName, pwd: SUB.password });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

/** A new, isolated browser context (own storage) with one page. */
async function newPage(width = 1280, height = 800): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height });
  page.on("pageerror", (e) => console.error("[pageerror]", e instanceof Error ? e.message : e));
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });
const hashPath = (page: Page) => new URL(page.url()).hash.replace(/^#/, "");

async function waitForHash(page: Page, path: string) {
  await page.waitForFunction((p) => location.hash === `#${p}`, { timeout: 15_000 }, path);
}

async function fillLogin(page: Page, tenant: string, user: string, password: string) {
  await page.waitForSelector("input[name=userName]");
  for (const [name, value] of [
    ["tenantName", tenant],
    ["userName", user],
    ["password", password],
  ]) {
    await page.click(`input[name=${name}]`, { count: 3 });
    await page.keyboard.press("Backspace");
    if (value) await page.type(`input[name=${name}]`, value);
  }
  await page.click("[data-testid=login-submit]");
}

async function login(page: Page, tenant: string, user: string, password: string) {
  await page.goto(`${app.url}/#/login`);
  await fillLogin(page, tenant, user, password);
  await waitForHash(page, "/dashboard/wrokbench");
  await page.waitForSelector("[data-layout]");
}

const menuSections = (page: Page) => page.$$eval("[data-menu-section]", (els) => els.map((e) => e.getAttribute("data-menu-section")));
const menuPaths = (page: Page) => page.$$eval("[data-menu-path]", (els) => els.map((e) => e.getAttribute("data-menu-path")));
const storage = (page: Page, key: string) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? "null")?.state ?? null, key);

describe("console", () => {
  it("a deep link without a token lands on /login, and after login on the dashboard", async () => {
    const page = await newPage();
    await page.goto(`${app.url}/#/user/setting`);
    await waitForHash(page, "/login");
    await shot(page, "01-login");
    await fillLogin(page, demo.tenant, demo.user, demo.password);
    await waitForHash(page, "/dashboard/wrokbench");
    await page.waitForFunction(() => document.body.innerText.includes("用户信息加载成功"));
    await shot(page, "02-main-dashboard");
    // `/` goes to /login, which sends a logged-in user to the dashboard.
    await page.goto(`${app.url}/#/`);
    await waitForHash(page, "/dashboard/wrokbench");
    await page.browserContext().close();
  });

  it("the host sees the Administrator menu", async () => {
    const page = await newPage();
    await login(page, "", "admin", ADMIN_PASSWORD);
    expect(await menuSections(page)).toContain("/admin");
    expect(await menuPaths(page)).toEqual(expect.arrayContaining(["/admin/recharge", "/admin/user", "/admin/system_config"]));
    // The personal centre holds only the currency rates for the host, who maintains them.
    expect(await menuPaths(page)).toContain("/user/currency");
    expect(await menuPaths(page)).not.toContain("/user/setting");
    await page.click("[data-menu-path='/admin/user']");
    await waitForHash(page, "/admin/user");
    await new Promise((r) => setTimeout(r, 800));
    await shot(page, "03-host-admin-user");
    await page.click("[data-menu-path='/user/currency']");
    await waitForHash(page, "/user/currency");
    await page.waitForSelector("[data-testid=currency-page]:not([data-readonly])");
    await page.type("[data-testid=currency-search]", "USD");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=currency-code-cell]").length === 1);
    await page.click("[data-testid=currency-edit]");
    await page.waitForSelector("[data-testid=currency-dialog][data-mode=edit]");
    await page.click("[data-testid=currency-rate]", { count: 3 });
    await page.keyboard.press("Backspace");
    await page.type("[data-testid=currency-rate]", "7.25");
    await page.click("[data-testid=currency-submit]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=currency-dialog]"));
    await page.waitForFunction(() => document.querySelector("[data-testid=currency-rate-text]")?.textContent?.includes("7.25"));
    await shot(page, "03b-host-currency-edited");
    await page.browserContext().close();
  });

  it("a main account reads the currency rates the host set, without edit actions", async () => {
    const page = await newPage();
    await login(page, demo.tenant, demo.user, demo.password);
    await page.click("[data-menu-path='/user/currency']");
    await waitForHash(page, "/user/currency");
    await page.waitForSelector("[data-testid=currency-page][data-readonly] [data-testid=currency-readonly-note]");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=currency-code-cell]").length > 1);
    const rates = await page.$$eval("[data-testid=currency-rate-text]", (els) => els.map((e) => e.textContent ?? ""));
    expect(rates.some((r) => r.includes("7.25"))).toBe(true);
    expect(await page.$("[data-testid=currency-edit]")).toBeNull();
    expect(await page.$("[data-testid=currency-create]")).toBeNull();
    await shot(page, "03c-main-currency-readonly");
    await page.browserContext().close();
  });

  it("a main account sees the Mercado menu with the authorization, ordering and personal centres, without Administrator", async () => {
    const page = await newPage();
    await login(page, demo.tenant, demo.user, demo.password);
    const sections = await menuSections(page);
    expect(sections).toEqual(["/dashboard", "/proudcts", "/collects", "/shops", "/task", "/module-auth", "/finance", "/payment", "/user"]);
    // The Ozone switch shows the Ozone menu (the test section).
    await page.click("[data-platform=ozone]");
    expect(await menuSections(page)).toEqual(["/test"]);
    // A route whose area is not built yet (the Ozone test page) says so.
    await page.click("[data-menu-path='/test/index']");
    await waitForHash(page, "/test/index");
    await page.waitForSelector("[data-testid=not-available]");
    await page.click("[data-platform=mercado]");
    await page.click("[data-menu-path='/user/setting']");
    await waitForHash(page, "/user/setting");
    await new Promise((r) => setTimeout(r, 800));
    await shot(page, "04-main-sub-accounts");
    await page.browserContext().close();
  });

  it("a sub-account sees none of the main-account or host centres: their paths show 无权限访问 inside the layout", async () => {
    const page = await newPage();
    await login(page, demo.tenant, SUB.userName, SUB.password);
    const sections = await menuSections(page);
    expect(sections).toEqual(["/dashboard", "/proudcts", "/collects", "/shops", "/task", "/finance"]);
    await shot(page, "05-sub-dashboard");
    for (const path of ["/user/setting", "/admin/user", "/user"]) {
      await page.goto(`${app.url}/#${path}`);
      await page.waitForSelector("[data-layout] [data-testid=forbidden]");
      expect(hashPath(page)).toBe(path);
      // The screen itself is not there, nor a tab for it; the menu still lacks it.
      expect(await page.$("[data-testid=sub-users-search]")).toBeNull();
      expect(await page.$(`[data-tab-path='${path}']`)).toBeNull();
      expect(await menuSections(page)).not.toContain("/user");
      expect(await page.$eval("header h1", (e) => e.textContent)).toBe("无权限访问");
    }
    expect(await page.$eval("[data-testid=forbidden]", (e) => e.textContent)).toContain("无权限访问该页面");
    await shot(page, "06-forbidden");
    // The menus still work from there; a path no screen has is still "not found".
    await page.click("[data-menu-path='/faq/list']");
    await waitForHash(page, "/faq/list");
    await page.waitForSelector("[data-testid=faq-search]");
    await page.goto(`${app.url}/#/no/such/screen`);
    await waitForHash(page, "/exception/404");
    await page.waitForSelector("[data-testid=not-found]");
    await page.browserContext().close();
  });

  it("a wrong password shows the error and stays on /login", async () => {
    const page = await newPage();
    await page.goto(`${app.url}/#/login`);
    await fillLogin(page, demo.tenant, demo.user, "wrong-password");
    const error = await page.waitForSelector("[data-testid=login-error]");
    expect(await error!.evaluate((e) => e.textContent)).toMatch(/用户名或密码错误|Invalid username or password/);
    expect(hashPath(page)).toBe("/login");
    expect((await storage(page, "user"))?.access_token ?? null).toBeNull();
    // An unknown company is named as such.
    await fillLogin(page, "no-such-company", demo.user, demo.password);
    await page.waitForFunction(() => document.querySelector("[data-testid=login-error]")?.textContent?.includes("no-such-company 不存在"));
    await shot(page, "07-login-error");
    await page.browserContext().close();
  });

  it("keepAlive pages keep a typed filter and their scroll while the user switches tabs; other pages start fresh", async () => {
    // A short window, so that the workbench scrolls.
    const page = await newPage(1280, 420);
    await login(page, demo.tenant, demo.user, demo.password);
    const frame = "[data-page='/dashboard/wrokbench']";
    await page.waitForSelector(`${frame} [data-testid=workbench-refresh]`);
    const scrollTop = () => page.$eval(frame, (e) => e.scrollTop);
    await page.$eval(frame, (e) => e.scrollTo(0, 150));
    await page.waitForFunction((sel) => document.querySelector(sel)!.scrollTop === 150, {}, frame);
    await page.click("[data-menu-path='/faq/list']");
    await waitForHash(page, "/faq/list");
    await page.waitForSelector("[data-testid=faq-search]");
    await page.type("[data-testid=faq-search]", "刊登");
    await page.click("[data-tab-path='/dashboard/wrokbench']");
    await waitForHash(page, "/dashboard/wrokbench");
    await page.click("[data-tab-path='/faq/list']");
    await waitForHash(page, "/faq/list");
    expect(await page.$eval("[data-testid=faq-search]", (e) => (e as HTMLInputElement).value)).toBe("刊登");
    await shot(page, "08-keep-alive-tabs");
    await page.click("[data-tab-path='/dashboard/wrokbench']");
    await waitForHash(page, "/dashboard/wrokbench");
    await page.waitForFunction((sel) => document.querySelector(sel)!.clientHeight > 0, {}, frame);
    expect(await scrollTop()).toBe(150);
    // /user/setting is not cached: its search box is empty again after switching away and back.
    await page.click("[data-menu-path='/user/setting']");
    await page.waitForSelector("[data-testid=sub-users-search]");
    await page.type("[data-testid=sub-users-search]", "abc");
    await page.click("[data-tab-path='/faq/list']");
    await waitForHash(page, "/faq/list");
    await page.click("[data-tab-path='/user/setting']");
    await page.waitForSelector("[data-testid=sub-users-search]");
    expect(await page.$eval("[data-testid=sub-users-search]", (e) => (e as HTMLInputElement).value)).toBe("");
    await page.browserContext().close();
  });

  it("the tab bar scrolls sideways when the tabs overflow, keeping the current tab in view", async () => {
    const page = await newPage(1280, 800);
    await login(page, demo.tenant, demo.user, demo.password);
    const paths = await menuPaths(page);
    for (const path of paths) await page.click(`[data-menu-path='${path}']`);
    await waitForHash(page, paths.at(-1)!);
    const bar = "[data-testid=tab-bar]";
    const state = () =>
      page.$eval(bar, (e) => {
        const active = e.querySelector("[aria-selected=true]")!.getBoundingClientRect();
        const box = e.getBoundingClientRect();
        return {
          overflowX: getComputedStyle(e).overflowX,
          scrollable: e.scrollWidth > e.clientWidth,
          scrollLeft: e.scrollLeft,
          activeInView: active.left >= box.left - 1 && active.right <= box.right + 1,
        };
      });
    // The tab of the page just opened is drawn after the hash changes (a loaded machine shows the gap).
    await page.waitForSelector(`${bar} [aria-selected=true]`);
    const atEnd = await state();
    expect(atEnd).toMatchObject({ overflowX: "auto", scrollable: true, activeInView: true });
    expect(atEnd.scrollLeft).toBeGreaterThan(0);
    await shot(page, "13-tab-bar-overflow");
    // The mouse wheel scrolls it sideways; choosing the first tab brings it into view.
    const box = (await (await page.$(bar))!.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel({ deltaY: -300 });
    await page.waitForFunction((sel, before) => document.querySelector(sel)!.scrollLeft < before, {}, bar, atEnd.scrollLeft);
    await page.click(`[data-menu-path='${paths[0]}']`);
    await waitForHash(page, paths[0]!);
    // The bar follows once the new tab is drawn.
    await page.waitForFunction(
      (sel) => {
        const e = document.querySelector(sel)!;
        const active = e.querySelector("[aria-selected=true]")!.getBoundingClientRect();
        const box = e.getBoundingClientRect();
        return active.left >= box.left - 1 && active.right <= box.right + 1;
      },
      { timeout: 5000 },
      bar,
    );
    await page.browserContext().close();
  });

  it("an 800px wide window shows the menu in a drawer", async () => {
    const page = await newPage(800, 900);
    await login(page, demo.tenant, demo.user, demo.password);
    await page.waitForSelector("[data-layout=mobile]");
    expect(await page.$("aside [data-testid=side-menu]")).toBeNull();
    await shot(page, "09-mobile-closed");
    await page.click("[data-testid=open-menu]");
    await page.waitForSelector("[role=dialog] [data-testid=side-menu]");
    await shot(page, "10-mobile-drawer");
    await page.click("[role=dialog] [data-menu-path='/faq/list']");
    await waitForHash(page, "/faq/list");
    await page.waitForFunction(() => !document.querySelector("[role=dialog] [data-testid=side-menu]"));
    await page.browserContext().close();
  });

  it("a reload with a token restores the session; logout clears the stores and the category cache", async () => {
    const page = await newPage();
    await login(page, demo.tenant, demo.user, demo.password);
    // Something in the platform store and a category tree in the local database, as the product screens leave them.
    await page.evaluate(async () => {
      const raw = JSON.parse(localStorage.getItem("platform") ?? "{}");
      raw.state = { ...raw.state, defaultBrandName: "Acme", tempProductIds: ["p1"] };
      localStorage.setItem("platform", JSON.stringify(raw));
      await new Promise<void>((resolve, reject) => {
        const req = indexedDB.open("erp-category-cache", 1);
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const tx = req.result.transaction("categories", "readwrite");
          tx.objectStore("categories").put([{ id: "MLM1", name: "Ropa" }], 1);
          tx.oncomplete = () => {
            req.result.close();
            resolve();
          };
        };
      });
    });
    await page.reload();
    await page.waitForSelector("[data-testid=side-menu] [data-menu-path]");
    expect(hashPath(page)).toBe("/dashboard/wrokbench");
    expect(await storage(page, "user")).toMatchObject({ tenantName: demo.tenant, isMainAccount: true });
    expect(await storage(page, "platform")).toMatchObject({ defaultBrandName: "Acme", tempProductIds: ["p1"] });
    // A fresh page load on /login with a token goes to the dashboard too.
    await page.goto(`${app.url}/#/login`);
    await page.reload();
    await waitForHash(page, "/dashboard/wrokbench");
    await page.waitForSelector("[data-testid=side-menu] [data-menu-path]");

    await page.click("[data-testid=user-menu]");
    await page.click("[data-testid=menu-logout]");
    await page.waitForSelector("[data-slot=confirm-dialog] [data-slot=confirm-icon]");
    await shot(page, "11-logout-confirm");
    const [confirmButton] = await page.$$("xpath/.//button[contains(., '退出登录')][ancestor::*[@data-slot='confirm-dialog']]");
    await confirmButton.click();
    await waitForHash(page, "/login");
    expect(await storage(page, "user")).toMatchObject({ access_token: null, userInfo: null });
    expect(await storage(page, "platform")).toMatchObject({ defaultBrandName: "", tempProductIds: [], defaultSite: [1, 2, 3, 4] });
    expect(await storage(page, "permission")).toEqual({ allowedPaths: [] });
    const cached = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const req = indexedDB.open("erp-category-cache", 1);
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const count = req.result.transaction("categories").objectStore("categories").count();
            count.onsuccess = () => {
              req.result.close();
              resolve(count.result);
            };
          };
        }),
    );
    expect(cached).toBe(0);
    // The server session is over too: a protected deep link goes back to /login.
    await page.goto(`${app.url}/#/dashboard/wrokbench`);
    await waitForHash(page, "/login");
    await page.browserContext().close();
  });

  it("a main account adds infringement words (duplicates ignored); a sub-account only reads them", async () => {
    const page = await newPage();
    await login(page, demo.tenant, demo.user, demo.password);
    await page.click("[data-menu-path='/proudcts/sensitives']");
    await page.waitForSelector("[data-testid=sensitives-add]");
    await page.click("[data-testid=sensitives-add]");
    await page.type("[data-testid=sensitives-add-input]", "Nike\nadidas\n迪士尼\nnike");
    await page.click("[data-testid=sensitives-add-submit]");
    await page.waitForFunction(() => document.body.innerText.includes("成功添加 3 个侵权词"));
    await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 3);
    await shot(page, "12-sensitives");
    await page.browserContext().close();

    const sub = await newPage();
    await login(sub, demo.tenant, SUB.userName, SUB.password);
    await sub.click("[data-menu-path='/proudcts/sensitives']");
    await sub.waitForSelector("[data-testid=sensitives-readonly]");
    expect(await sub.$("[data-testid=sensitives-add]")).toBeNull();
    await sub.waitForFunction(() => document.querySelectorAll("tbody tr").length === 3);
    await sub.browserContext().close();
  });

  it("the host's new-version allowlist shows the new-version route to the listed tenant only", async () => {
    const hostToken = await accessToken(app.url, "admin", ADMIN_PASSWORD);
    await callApi(app.url, hostToken, "POST", "/api/SystemConfigSetting/CreateOrUpdate", {
      name: "新版本租户",
      key: "Console.NewVersionTenants",
      value: `alpha, ${demo.tenant}`,
    });
    const page = await newPage();
    await login(page, demo.tenant, demo.user, demo.password);
    expect(await menuPaths(page)).toContain("/proudcts/publish-records/v2");
    await page.browserContext().close();
  });
});
