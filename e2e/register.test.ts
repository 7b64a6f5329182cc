// Self-registration in real Chromium against the real server (`npm start` on a fresh DATA_DIR, and a fresh database
// when the suite runs on PostgreSQL): while the host's 开放注册 is on, 登录 links to 注册, a new company signs itself up
// through the form and lands signed in as its main account, and a taken company name is refused on its field; once
// the host switches it off, 登录 shows no link, /register says registration is closed and the server refuses a
// sign-up. Screenshots go to e2e/artifacts/register-*.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SettingKeys } from "#shared/contract/setting-registry.ts";
import { launchChromium } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin123456";
const COMPANY = { tenantName: "星河贸易", userName: "xinghe", emailAddress: "owner@xinghe.example.com", password: "Xinghe2026" };

let app: AppProcess;
let browser: Browser;
let hostToken: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("register", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  hostToken = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

/** The host switches 开放注册 (the embedded demo starts with it on, a PostgreSQL start with it off). */
const setSelfRegistration = (on: boolean) =>
  callApi(app.url, hostToken, "POST", "/api/SystemConfigSetting/SetValueByKey", {
    key: SettingKeys.selfRegistrationEnabled,
    value: String(on),
  });

async function newPage(): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  page.on("pageerror", (e) => console.error("[pageerror]", e instanceof Error ? e.message : e));
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `register-${name}.png`) as `${string}.png` });

/** Opens /login and waits until the screen has its answer on whether sign-up is open. */
async function openLogin(page: Page) {
  const answered = page.waitForResponse((r) => r.url().includes("/api/SystemConfigSetting/GetPublicSettings") && r.ok());
  await page.goto(`${app.url}/#/login`);
  await answered;
  await page.waitForSelector("[data-testid=login-form]");
}

async function fillRegister(page: Page, values: Record<string, string>) {
  await page.waitForSelector("[data-testid=register-form]");
  for (const [name, value] of Object.entries(values)) {
    await page.click(`input[name=${name}]`, { count: 3 });
    await page.keyboard.press("Backspace");
    await page.type(`input[name=${name}]`, value);
  }
}

const formMessage = (page: Page, name: string) =>
  page.$eval(
    `input[name=${name}]`,
    (e) => e.closest("[data-slot=form-item]")?.querySelector("[data-slot=form-message]")?.textContent ?? null,
  );

const register = (body: Record<string, string>) =>
  fetch(`${app.url}/api/account/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { message: string; code: string } } }));

const lookupTenant = (name: string) =>
  fetch(`${app.url}/api/abp/multi-tenancy/tenants/by-name/${encodeURIComponent(name)}`)
    .then((r) => r.json())
    .then((b: { result: { success: boolean; tenantId: string | null } }) => b.result);

describe("注册", () => {
  it("while open: 登录 links to 注册, the form refuses what the contract refuses, and a new company lands signed in", async () => {
    await setSelfRegistration(true);
    const page = await newPage();
    await openLogin(page);
    await page.waitForSelector("[data-testid=register-link]");
    await shot(page, "01-login-with-link");
    await page.click("[data-testid=register-link]");
    await page.waitForFunction(() => location.hash === "#/register");

    // Checked in the browser before anything is sent.
    await fillRegister(page, { ...COMPANY, password: "onlyletters", confirmPassword: "onlyletters" });
    await page.click("[data-testid=register-submit]");
    await page.waitForFunction(() => document.body.innerText.includes("密码需包含数字"));
    await fillRegister(page, { password: COMPANY.password, confirmPassword: `${COMPANY.password}x` });
    await page.click("[data-testid=register-submit]");
    await page.waitForFunction(() => document.body.innerText.includes("两次输入的密码不一致"));
    await shot(page, "02-form-checks");

    await fillRegister(page, { confirmPassword: COMPANY.password });
    await page.click("[data-testid=register-submit]");
    await page.waitForFunction(() => location.hash === "#/dashboard/wrokbench", { timeout: 30_000 });
    await page.waitForSelector("[data-layout]");
    await page.waitForFunction(() => document.body.innerText.includes("用户信息加载成功"));
    const user = await page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null")?.state);
    expect(user).toMatchObject({ tenantName: COMPANY.tenantName, isMainAccount: true, isHost: false });
    expect(user.userInfo.userName).toBe(COMPANY.userName);
    // The main account's own sections are there (sub-accounts do not get 个人中心 / 订购中心).
    const sections = await page.$$eval("[data-menu-section]", (els) => els.map((e) => e.getAttribute("data-menu-section")));
    expect(sections).toEqual(expect.arrayContaining(["/dashboard", "/proudcts", "/user", "/payment"]));
    expect(sections).not.toContain("/admin");
    await shot(page, "03-signed-in");
    await page.browserContext().close();

    // The company is there for the next login too (its id in the header, as the console sends it: a Chinese name
    // cannot travel in an HTTP header).
    const tenantId = (await lookupTenant(COMPANY.tenantName)).tenantId!;
    const token = await accessToken(app.url, COMPANY.userName, COMPANY.password, tenantId);
    const info = await callApi<{ tenantName: string; isMainAccount: boolean; email: string }>(
      app.url,
      token,
      "GET",
      "/api/User/GetUserInfo",
    );
    expect(info).toMatchObject({ tenantName: COMPANY.tenantName, isMainAccount: true });
  });

  it("a company name already taken is refused by the server and shown on its field", async () => {
    const page = await newPage();
    await page.goto(`${app.url}/#/register`);
    await fillRegister(page, { ...COMPANY, userName: "another", confirmPassword: COMPANY.password });
    await page.click("[data-testid=register-submit]");
    await page.waitForSelector("[data-testid=register-error]");
    const message = `公司名 ${COMPANY.tenantName} 已存在`;
    expect(await page.$eval("[data-testid=register-error]", (e) => e.textContent)).toBe(message);
    expect(await formMessage(page, "tenantName")).toBe(message);
    expect(new URL(page.url()).hash).toBe("#/register");
    await shot(page, "04-name-taken");
    await page.browserContext().close();
  });

  it("while closed: 登录 shows no link, /register says it is closed, and the server refuses a sign-up", async () => {
    await setSelfRegistration(false);
    const page = await newPage();
    await openLogin(page);
    // The answer has arrived and rendered (the forgot-password link sits in the same row) with no 注册.
    await page.waitForFunction(() => document.body.innerText.includes("忘记密码"));
    expect(await page.$("[data-testid=register-link]")).toBeNull();
    expect(await page.evaluate(() => document.body.innerText.includes("注册"))).toBe(false);
    await shot(page, "05-login-closed");

    await page.goto(`${app.url}/#/register`);
    await page.waitForSelector("[data-testid=register-closed]");
    expect(await page.$("[data-testid=register-form]")).toBeNull();
    expect(await page.$eval("[data-testid=register-closed]", (e) => e.textContent)).toContain("系统未开放注册，请联系平台管理员开通账号");
    await shot(page, "06-register-closed");
    await page.browserContext().close();

    const refused = await register({ ...COMPANY, tenantName: "关闭后注册", userName: "late" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "SelfRegistrationDisabled", message: "系统未开放注册，请联系平台管理员开通账号" });
    expect((await lookupTenant("关闭后注册")).success).toBe(false);
  });
});
