// The host's 沙箱 page in real Chromium against the real server on its built-in sandbox (`npm start`, MELI_API_URL
// unset): the first start prints the demo seller's sandbox password; a seller signs up on the sandbox's consent page
// and connects a shop to the demo tenant, and lists an item. The host opens 管理员 › 沙箱, picks the item and creates
// an order: the order shows paid and ready to ship in the page's table, and its notification brings it into the demo
// tenant's orders where its label prints. The host refuses the next calls (429) and sees them pending; a tenant has
// no such menu entry and its calls are refused. Screenshots go to e2e/artifacts/sandbox-*.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../server/sandbox/sandbox.ts";
import { DEFAULT_CLIENT_SECRET } from "../server/sandbox/store.ts";
import { itemBody, plainLeaf } from "../server/testing/sandbox-kit.ts";
import { accessToken, callApi, repoRoot, startFreshApp, until, type AppProcess } from "./app-process.ts";
import { launchChromium, openConsolePage, toastSays } from "./browser.ts";
import { connectSeller, sellerToken } from "./publish-rig.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const ADMIN_PASSWORD = "Admin-e2e-2026";
const NICKNAME = "TIENDA_SANDBOX_E2E";

let app: AppProcess;
let browser: Browser;
let demoToken: string;
let itemId: string;
let seller: { api: string; token: string };
const cleanups: (() => unknown)[] = [];

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png`, fullPage: true });

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // The test reads the seller's items with a token of its own, so it knows the app's secret (a real installation's
  // is generated into DATA_DIR).
  const started = await startFreshApp("sandbox-page", { ADMIN_PASSWORD, DEMO_DATA: "0", MELI_CLIENT_SECRET: DEFAULT_CLIENT_SECRET });
  app = started.app;
  cleanups.unshift(started.stop);
  const demo = app.firstStart.demo!;
  demoToken = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  await connectSeller(app.url, demoToken, { nickname: NICKNAME, site: "MLM" });
  seller = await sellerToken(app.url, demoToken, { nickname: NICKNAME, site: "MLM" });
  const res = await fetch(`${seller.api}/items`, {
    method: "POST",
    headers: { authorization: `Bearer ${seller.token}`, "content-type": "application/json" },
    body: JSON.stringify(itemBody(plainLeaf(createSandbox(), "MLM"), { title: "Lámpara de escritorio LED", available_quantity: 30 })),
  });
  const item = (await res.json()) as { id?: string };
  if (res.status !== 201 || !item.id) throw new Error(`item: ${res.status} ${JSON.stringify(item)}`);
  itemId = item.id;
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

describe("the host's sandbox page", () => {
  it("prints the demo seller's sandbox password at the first start", () => {
    expect(app.stdout()).toMatch(
      /\[first start\] sandbox demo seller \(Mercado Libre consent page\): nickname DEMO_SHOP, password \S{10,}/,
    );
  });

  it("creates an order ready to ship that reaches the seller's orders with a label, and refuses the next calls", async () => {
    const page = await openConsolePage(browser, app.url, { tenant: "", user: "admin", password: ADMIN_PASSWORD }, "/admin/sandbox");
    await page.waitForSelector("[data-testid=sandbox-page]");
    await page.waitForFunction(() => document.querySelector("[data-testid=sandbox-now]")?.textContent?.match(/\d{4}/));
    await shot(page, "sandbox-01-page");

    await page.click("[data-testid=sandbox-item]");
    await page.waitForSelector(`[data-testid=sandbox-item-${itemId}]`);
    await page.click(`[data-testid=sandbox-item-${itemId}]`);
    await page.click("[data-testid=sandbox-create-order]");
    await toastSays(page, "（已付款，待发货）");
    await page.waitForFunction(
      (id) => [...document.querySelectorAll("table tr")].some((r) => r.textContent?.includes(id) && r.textContent.includes("可打单发货")),
      {},
      itemId,
    );
    await shot(page, "sandbox-02-order-created");

    // The notification brought it into the demo tenant's orders, ready to print.
    type Row = { id: string; labelReady: boolean; items: { meliId: string }[] };
    const row = await until(
      "the order in the seller's list",
      async () =>
        (await callApi<{ items: Row[] }>(app.url, demoToken, "GET", "/api/Order/GetOrders")).items.find(
          (o) => o.items[0]?.meliId === itemId,
        ),
      (o) => !!o?.labelReady,
      60_000,
    );
    const label = await fetch(`${app.url}/api/Order/GetOrderLabel?orderId=${row!.id}`, {
      headers: { authorization: `Bearer ${demoToken}` },
    });
    expect(label.status).toBe(200);
    expect(label.headers.get("content-type")).toBe("application/pdf");

    // The app's own calls (the order's other notifications, its scheduled syncs) take refusals too, at any time: so
    // five, of which the badge shows what is left, and the seller's next call is one of them.
    await page.$eval("#sandbox-refusals", (e) => ((e as HTMLInputElement).value = ""));
    await page.type("#sandbox-refusals", "5");
    await page.click("[data-testid=sandbox-refuse]");
    await toastSays(page, "接下来的 5 次调用将返回 429");
    await page.waitForFunction(() => /待拒绝 [1-5] 次/.test(document.querySelector("[data-testid=sandbox-refusals]")?.textContent ?? ""));
    await shot(page, "sandbox-03-refusals");
    const refused = await fetch(`${seller.api}/items/${itemId}`, { headers: { authorization: `Bearer ${seller.token}` } });
    expect(refused.status).toBe(429);
    await page.close();
  });

  it("is the host's only: a tenant has no menu entry and its calls are refused", async () => {
    const res = await fetch(`${app.url}/api/MeliSandbox/GetSandbox`, { headers: { authorization: `Bearer ${demoToken}` } });
    expect(res.status).toBe(403);
    const demo = app.firstStart.demo!;
    const page = await openConsolePage(browser, app.url, { tenant: demo.tenant, user: demo.user, password: demo.password }, "/shops/list");
    expect(await page.$("[data-menu-path='/admin/sandbox']")).toBeNull();
    await page.close();
  });
});
