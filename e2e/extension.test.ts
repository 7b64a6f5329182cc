// The built extension in real Chromium (Debian's package) against the real server: the popup logs in through the
// background worker and the shared client, shows who is logged in, and logs out (the server session ends).
import { fileURLToPath } from "node:url";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userSessions } from "../server/db/schema.ts";
import { inScope } from "../server/db/scope.ts";
import { launchChromium } from "./browser.ts";
import { startTestServer, type TestServer, type TestTenant } from "../server/testing/harness.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const extensionDir = `${root}.output/chrome-mv3`;

let s: TestServer;
let a: TestTenant;
let serverUrl: string;
let browser: Browser;
let extensionId: string;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  serverUrl = await s.app.listen({ port: 0, host: "127.0.0.1" });
  browser = await launchChromium({ enableExtensions: [extensionDir] });
  const worker = await browser.waitForTarget((t) => t.type() === "service_worker" && t.url().startsWith("chrome-extension://"));
  extensionId = new URL(worker.url()).host;
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

async function openPopup(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`chrome-extension://${extensionId}/popup.html`, { waitUntil: "networkidle0" });
  return page;
}

async function fillLogin(page: Page, values: [string, string, string, string]) {
  await page.waitForSelector("form input");
  const inputs = await page.$$("form input");
  for (let i = 0; i < 4; i++) {
    await inputs[i].click({ count: 3 });
    await inputs[i].type(values[i]);
  }
  await page.click("button[type=submit]");
}

const activeSessions = () =>
  inScope(s.database.db, { tenantId: a.tenantId }, async (tx) =>
    Number(
      (
        await tx
          .select({ n: count() })
          .from(userSessions)
          .where(and(eq(userSessions.userId, a.userId), isNull(userSessions.revokedAt)))
      )[0].n,
    ),
  );

describe("extension popup", () => {
  it("refuses a wrong password with the server's message and keeps the form", async () => {
    const page = await openPopup();
    await fillLogin(page, [serverUrl, a.tenantName, a.userName, "wrong-password1"]);
    await page.waitForSelector("[role=alert]");
    expect(await page.$eval("[role=alert]", (el) => el.textContent)).toContain("用户名或密码错误");
    expect(await page.$("form")).not.toBeNull();
    await page.close();
  });

  it("logs in, shows the user and company, survives reopening, and logs out ending the server session", async () => {
    const before = await activeSessions();
    const page = await openPopup();
    await fillLogin(page, [serverUrl, a.tenantName, a.userName, a.password]);
    await page.waitForSelector(".who");
    await page.waitForFunction(() => document.querySelector(".who .tag")?.textContent === "主账号");
    const text = await page.$eval(".who", (el) => el.textContent ?? "");
    expect(text).toContain(a.userName);
    expect(text).toContain(a.tenantName);
    expect(text).toContain(serverUrl);
    expect(await activeSessions()).toBe(before + 1);
    await page.close();

    // The token lives in extension storage: a new popup is still logged in.
    const again = await openPopup();
    await again.waitForSelector(".who");
    await again.click(".who button");
    await again.waitForSelector("form input");
    await again.close();
    await expect.poll(activeSessions, { timeout: 5000 }).toBe(before);
  });
});
