// The host's category sync screen in real Chromium against the real server (`npm start` on a fresh DATA_DIR without
// the first start's sync): every site shows 未同步; the host syncs Mexico with its row's button and watches the task's
// progress end, the row's counts fill in; the category table shows the glossary's Chinese names beside the Spanish
// ones, a loopback LibreTranslate-shaped service's 补充中文名 leaves them as they are, a Chinese search finds them; a
// category's reference name is edited from its row.
// Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin-e2e-2026";
let app: AppProcess;
let browser: Browser;
let host: string;
let translator: Server;
const cleanups: (() => unknown)[] = [];

const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, host, method, path, body);

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // Answers like LibreTranslate (its language list, and each text prefixed with 中).
  translator = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.method === "GET" && req.url === "/languages") {
        res.end(JSON.stringify(["en", "es", "pt", "zh"].map((code) => ({ code, name: code, targets: ["en", "es", "pt", "zh"] }))));
        return;
      }
      const body = JSON.parse(raw) as { q: string[] };
      res.end(JSON.stringify({ translatedText: body.q.map((t) => `中${t}`) }));
    });
  });
  await new Promise<void>((resolve) => translator.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => translator.close(resolve)));
  const started = await startFreshApp("category-sync", { ADMIN_PASSWORD });
  app = started.app;
  cleanups.unshift(started.stop);
  host = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });
const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? "");

/** Waits until the newest category task shown has finished, and answers its status text. */
async function taskEnds(page: Page): Promise<string> {
  await page.waitForFunction(
    () => {
      const s = document.querySelector("[data-testid=category-task]")?.getAttribute("data-status");
      return s === "3" || s === "4";
    },
    { timeout: 120_000 },
  );
  return text(page, "[data-testid=category-task-status]");
}

describe("category sync screen", () => {
  it("syncs a site with live progress, then shows Chinese names beside the Spanish ones", async () => {
    const page = await openConsolePage(browser, app.url, { tenant: "", user: "admin", password: ADMIN_PASSWORD }, "/admin/category_sync");
    await page.waitForSelector("[data-testid=category-sync-page]");
    await page.waitForSelector("[data-testid=sync-site-1]");
    expect((await page.$$("[data-testid=site-unsynced]")).length).toBe(5);
    await shot(page, "category-sync-01-unsynced");

    // Mexico's row: the task appears, runs and ends; the row's counts fill in.
    await page.click("[data-testid=sync-site-1]");
    await page.waitForSelector("[data-testid=category-task]");
    expect(await text(page, "[data-testid=category-task]")).toContain("墨西哥");
    expect(await taskEnds(page)).toBe("已完成");
    expect(await page.$eval("[data-testid=category-task-progress]", (e) => e.getAttribute("aria-valuenow"))).toBe("100");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=site-unsynced]").length === 4);
    const [status] = await call<{ leafCount: number; categoryCount: number; attributeCount: number }[]>(
      "GET",
      "/api/MeliCategory/GetCategorySyncStatus",
    );
    expect(status.categoryCount).toBeGreaterThan(0);
    expect(await text(page, "[data-testid=site-category-count]")).toBe(`${status.leafCount} / ${status.categoryCount}`);
    expect(await text(page, "[data-testid=site-attribute-count]")).toBe(`${status.attributeCount} / ${status.leafCount}`);
    // The category table fills with Mexico's categories, already named in Chinese by the glossary (no translation
    // service yet).
    await page.waitForSelector("[data-testid=category-name]");
    await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector("[data-testid=category-zh] span")?.textContent ?? ""));
    const chinese = await page.$eval("[data-testid=category-zh] span", (e) => e.textContent ?? "");
    const spanish = await page.$eval("[data-testid=category-name] span", (e) => e.textContent ?? "");
    await shot(page, "category-sync-02-synced");

    // 补充中文名 through the configured translation service fills only the names still missing: the glossary's stay.
    for (const [key, value] of [
      ["Translate.Provider", "libretranslate"],
      ["Translate.Url", `http://127.0.0.1:${(translator.address() as AddressInfo).port}`],
    ]) {
      await call("POST", "/api/SystemConfigSetting/CreateOrUpdate", { name: key, key, value });
    }
    await page.click("[data-testid=category-ack]");
    await page.waitForFunction(() => document.querySelector("[data-testid=category-task]")?.textContent?.includes("中文名"));
    expect(await taskEnds(page)).toBe("已完成");
    // The names rebuilt the other sites' empty trees: they still show as never synced.
    expect((await page.$$("[data-testid=site-unsynced]")).length).toBe(4);
    expect(await page.$eval("[data-testid=category-zh] span", (e) => e.textContent)).toBe(chinese);

    // Searching by the Chinese name finds the category, shown with both names in its row.
    await page.type("[data-testid=category-search]", chinese);
    await page.waitForFunction((hash) => location.hash.includes(hash), {}, "q=");
    await page.waitForFunction(
      (name) => [...document.querySelectorAll("[data-testid=category-zh] span:first-child")].every((e) => e.textContent?.includes(name)),
      {},
      chinese,
    );
    const row = await page.$eval("[data-testid=category-zh]", (e) => e.closest("tr")?.textContent ?? "");
    expect(row).toContain(chinese);
    expect(row).toContain(spanish);
    await shot(page, "category-sync-03-chinese");

    // The reference name for sellers (UpdateRefer), edited from the row.
    await page.click("[data-testid=category-edit-refer]");
    await page.waitForSelector("[data-testid=category-refer-input]");
    await page.type("[data-testid=category-refer-input]", "背包");
    await page.click("[data-testid=category-refer-submit]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=category-refer-dialog]"));
    await page.waitForFunction(() => document.querySelector("[data-testid=category-zh]")?.closest("tr")?.textContent?.includes("背包"));
  }, 300_000);
});
