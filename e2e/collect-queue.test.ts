// /collects/collect in real Chromium against the real server: pasted links and an imported file of links go to the
// one URL queue below the forms, where each row shows its state until the crawl ends (there is no outside network
// here, so each ends as a failure: what matters is that no pasted link goes missing). The server is `npm start` on a
// fresh DATA_DIR (and a fresh database when the suite runs on PostgreSQL). Screenshots go to e2e/artifacts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openConsolePage } from "./browser.ts";
import { repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const PASTED = ["https://detail.1688.com/offer/880001.html", "https://item.jd.com/880002.html"];
const IMPORTED = "https://detail.1688.com/offer/880003.html";

let app: AppProcess;
let stopApp: (() => Promise<void>) | undefined;
let browser: Browser;
let workDir: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  workDir = mkdtempSync(join(tmpdir(), "erp-collect-queue-"));
  ({ app, stop: stopApp } = await startFreshApp("collect-queue"));
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stopApp?.();
  rmSync(workDir, { recursive: true, force: true });
});

/** The queue's rows as the screen shows them: the link's title text and the state badge. */
const queueRows = (page: Page) =>
  page.$$eval("[data-testid=collect-url-queue] tbody tr", (rows) =>
    rows
      .filter((r) => r.querySelector("[data-testid=collect-url-status]"))
      .map((r) => ({
        url: r.querySelector("a[title]")?.getAttribute("title") ?? "",
        status: r.querySelector("[data-testid=collect-url-status]")?.getAttribute("data-status") ?? "",
      })),
  );

describe("collect page", () => {
  it("shows pasted links and an imported file's links in one queue with their progress", async () => {
    const page = await openConsolePage(browser, app.url, app.firstStart.demo!, "/collects/collect");
    await page.waitForSelector("[data-testid=collect-url-queue]");
    await page.type("[data-testid=collect-urls-input]", PASTED.join("\n"));
    await page.click("[data-testid=collect-urls-submit]");
    await page.waitForSelector("[data-testid=collect-urls-result][data-success='2']");
    // The pasted links are in the queue at once, without a reload.
    await page.waitForFunction(
      (urls) => urls.every((u) => document.querySelector(`[data-testid=collect-url-queue] a[title="${u}"]`)),
      { timeout: 15_000 },
      PASTED,
    );
    await page.screenshot({ path: join(artifacts, "30-collect-pasted-in-queue.png") });
    // The extension is installed from a download, not from npm commands: the link answers the built extension's zip.
    const hint = await page.$eval("[data-testid=collect-extension-hint]", (e) => e.textContent ?? "");
    expect(hint).toContain("下载插件安装包");
    expect(hint).not.toContain("npm");
    const download = await page.$eval("[data-testid=collect-extension-download]", async (a) => {
      const res = await fetch((a as HTMLAnchorElement).href);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, type: res.headers.get("content-type"), magic: String.fromCharCode(bytes[0], bytes[1]) };
    });
    expect(download).toEqual({ status: 200, type: "application/zip", magic: "PK" });
    await page.$eval("[data-testid=collect-extension-hint]", (e) => e.scrollIntoView());
    await page.screenshot({ path: join(artifacts, "32-collect-extension-download.png") });

    const file = join(workDir, "urls.txt");
    writeFileSync(file, `${IMPORTED}\n${PASTED[0]}\n`);
    await page.click("[data-testid=collect-tab-file]");
    const input = (await page.$("[data-testid=collect-import-file]")) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(file);
    await page.click("[data-testid=collect-import-submit]");
    // The link already pasted is the same queue row: one added, one left out.
    await page.waitForSelector("[data-testid=collect-import-result][data-success='1'][data-ignore='1']");

    // Every row reaches a final state on its own (the list follows itself while any is waiting or running).
    await page.waitForFunction(
      () => {
        const badges = [...document.querySelectorAll("[data-testid=collect-url-queue] [data-testid=collect-url-status]")];
        return badges.length === 3 && badges.every((b) => !["pending", "running"].includes(b.getAttribute("data-status") ?? ""));
      },
      { timeout: 60_000 },
    );
    const rows = await queueRows(page);
    expect(rows.map((r) => r.url).sort()).toEqual([...PASTED, IMPORTED].sort());
    expect(rows.every((r) => r.status === "failed")).toBe(true);
    const stats = await page.$eval("[data-testid=collect-url-stats]", (e) => e.textContent ?? "");
    expect(stats).toMatch(/全部链接\s*3/);
    // The layout scrolls inside its main area, so bring the rows into the viewport for the screenshot.
    await page.$eval("[data-testid=collect-url-queue] table", (e) => e.scrollIntoView({ block: "end" }));
    await page.screenshot({ path: join(artifacts, "31-collect-queue-pasted-and-imported.png") });
    await page.browserContext().close();
  }, 120_000);
});
