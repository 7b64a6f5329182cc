// The collect button end to end: the built extension in Debian's Chromium, a product page served from a loopback
// fixture server under the platform's real host name (Chromium's --host-resolver-rules), the real server behind a TCP
// relay that the test can take down to play an unreachable server.
import { mkdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer as createHttpServer } from "node:http";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, type TestTenant } from "../server/testing/harness.ts";
import { launchChromium } from "./browser.ts";
import { createRelay, extensionDir, extensionIdOf, type Relay } from "./extension-kit.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixture = readFileSync(`${root}shared/extract/fixtures/1688/context/page.html`, "utf8");
const ITEM_ID = "712345678901";

let s: TestServer;
let a: TestTenant;
let serverPort: number;
let browser: Browser;
let extensionId: string;
let pagesPort: number;
const pages = createHttpServer((req, res) => {
  if (req.url?.startsWith(`/offer/${ITEM_ID}.html`)) {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(fixture);
  } else {
    res.writeHead(404).end();
  }
});

let relay: Relay;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  serverPort = (s.app.server.address() as AddressInfo).port;
  relay = createRelay(serverPort);
  await relay.up();
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  pagesPort = (pages.address() as AddressInfo).port;
  browser = await launchChromium({ enableExtensions: [extensionDir] }, [
    // The product page's host resolves to the fixture server; every other host fails at once (no network here).
    "--host-resolver-rules=MAP detail.1688.com 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
  ]);
  extensionId = await extensionIdOf(browser);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await relay?.down();
  pages.close();
  await s?.close();
});

const productUrl = () => `http://detail.1688.com:${pagesPort}/offer/${ITEM_ID}.html`;

async function popup(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`chrome-extension://${extensionId}/popup.html`, { waitUntil: "networkidle0" });
  return page;
}

/** The collections of the tenant's main account for the fixture's item, through the API. */
async function collectionsOfItem(): Promise<{ id: string; sourceUrl: string; title: Record<string, string> }[]> {
  const res = await s.api("POST", "/api/Collect/GetCollect", { token: a.token, body: { SkipCount: 0, MaxResultCount: 100 } });
  expect(res.status).toBe(200);
  return res.body.result.items.filter((c: { sourceUrl: string }) => c.sourceUrl.includes(ITEM_ID));
}

async function openProduct(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(productUrl(), { waitUntil: "domcontentloaded" });
  await page.waitForSelector("mercado-erp-collect[data-state=ready]", { timeout: 20_000 });
  return page;
}

async function press(page: Page) {
  await page.evaluate(() => document.querySelector("mercado-erp-collect")!.removeAttribute("data-outcome"));
  await page.click("mercado-erp-collect >>> button");
  await page.waitForSelector("mercado-erp-collect[data-outcome]", { timeout: 20_000 });
  return page.$eval("mercado-erp-collect", (e) => ({
    outcome: e.getAttribute("data-outcome"),
    note: e.shadowRoot?.querySelector(".note")?.textContent ?? "",
  }));
}

describe("collect button", () => {
  it("asks to log in first, then collects the product once and marks it on sight", async () => {
    let page = await openProduct();
    expect(await press(page)).toMatchObject({ outcome: "not-logged-in" });
    await page.close();

    const p = await popup();
    await p.waitForSelector("form input");
    const inputs = await p.$$("form input");
    for (const [i, v] of [`http://127.0.0.1:${relay.port}`, a.tenantName, a.userName, a.password].entries()) {
      await inputs[i].click({ count: 3 });
      await inputs[i].type(v);
    }
    await p.click("button[type=submit]");
    await p.waitForSelector(".who");
    await p.close();

    page = await openProduct();
    expect(await page.$eval("mercado-erp-collect", (e) => e.getAttribute("data-collected"))).toBe("false");
    expect(await press(page)).toMatchObject({ outcome: "collected" });
    mkdirSync(`${root}e2e/artifacts`, { recursive: true });
    await page.setViewport({ width: 1280, height: 800 });
    await page.screenshot({ path: `${root}e2e/artifacts/20-collect-button.png` });
    const stored = await collectionsOfItem();
    expect(stored).toHaveLength(1);
    expect(stored[0].title).toMatchObject({ zh: "2024夏季新款纯棉短袖T恤女宽松百搭上衣" });
    // A second press updates the same collection.
    expect(await press(page)).toMatchObject({ outcome: "already" });
    expect(await collectionsOfItem()).toHaveLength(1);
    await page.close();

    page = await openProduct();
    expect(await page.$eval("mercado-erp-collect", (e) => e.getAttribute("data-collected"))).toBe("true");
    await page.close();

    // The seller sees it in the console's collection list.
    const consolePage = await browser.newPage();
    await consolePage.setViewport({ width: 1280, height: 800 });
    await consolePage.goto(`http://127.0.0.1:${serverPort}/#/login`);
    await consolePage.waitForSelector("input[name=userName]");
    await consolePage.type("input[name=tenantName]", a.tenantName);
    await consolePage.type("input[name=userName]", a.userName);
    await consolePage.type("input[name=password]", a.password);
    await consolePage.click("[data-testid=login-submit]");
    await consolePage.waitForFunction(() => location.hash === "#/dashboard/wrokbench");
    await consolePage.goto(`http://127.0.0.1:${serverPort}/#/collects/list`);
    await consolePage.waitForSelector(`[data-testid=collects-row-${stored[0].id}]`, { timeout: 20_000 });
    expect(await consolePage.$eval(`[data-testid=collects-row-${stored[0].id}]`, (e) => e.textContent)).toContain(
      "2024夏季新款纯棉短袖T恤女",
    );
    await consolePage.screenshot({ path: `${root}e2e/artifacts/21-collect-list.png` });
    await consolePage.close();
  });

  it("queues the product while the server is unreachable and sends it once when it is back", async () => {
    const [existing] = await collectionsOfItem();
    expect((await s.api("POST", "/api/Collect/DeleteCollect", { token: a.token, body: { id: existing.id } })).status).toBeLessThan(300);
    expect(await collectionsOfItem()).toHaveLength(0);

    await relay.down();
    const page = await openProduct();
    const queued = await press(page);
    expect(queued.outcome).toBe("queued");
    expect(queued.note).toContain("待发送队列");
    // Pressed again while down: still one entry in the queue.
    expect((await press(page)).outcome).toBe("queued");
    await page.close();

    let p = await popup();
    await p.waitForSelector(".queue");
    expect(await p.$eval(".queue b", (e) => e.textContent)).toBe("1");
    await p.close();

    await relay.up();
    p = await popup();
    await p.waitForSelector(".queue button");
    await p.click(".queue button");
    await p.waitForFunction(() => !document.querySelector(".queue"));
    await p.close();
    expect(await collectionsOfItem()).toHaveLength(1);

    // Nothing is left to send: another flush adds nothing.
    p = await popup();
    const again = await p.evaluate(
      (channel) =>
        (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({
          channel,
          type: "flushQueue",
        }),
      "mercado-erp",
    );
    expect(again).toEqual({ ok: true, data: { sent: 0, pending: 0 } });
    await p.close();
    expect(await collectionsOfItem()).toHaveLength(1);
  });
});
