// Publishing in real Chromium against the real server (`npm start` on a fresh DATA_DIR, a fresh database when the
// suite runs on PostgreSQL) with the demo content (a connected sandbox shop on Mexico, synced categories, products):
// GTIN codes are added through the API, products are chosen in /proudcts/list and sent with 刊登 to
// /proudcts/publish; there the demo shop and its site, a leaf category and its required attributes are chosen, the
// pre-flight shows the refused pairs with their reasons and the profit preview, the request is submitted and its batch
// followed to its end; /proudcts/publish-records/v2 then lists the batch and its listings, and /proudcts/publish-logs
// the marketplace calls. Each step is checked against the server's data. Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListingStatus, PublishBatchStatus } from "../shared/contract/enums.ts";
import { launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const CATEGORY = "MLM188064"; // Celulares y Teléfonos > Accesorios > Baterías Externas: its items take COLOR variations

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let token: string;
const cleanups: (() => unknown)[] = [];

type Product = { id: string; title: Record<string, string>; titleText: string };
type Batch = { id: string; status: number; total: number; success: number; fail: number; skipped: number };
type Listing = { id: string; status: number; itemId: string | null; reason: string | null; productId: string };

const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

/** An EAN-13 with its GS1 check digit. */
const ean13 = (first12: string) =>
  first12 + String((10 - ([...first12].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0) % 10)) % 10);

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("publish", { DEMO_DATA: "1", ADMIN_PASSWORD: "Admin-e2e-2026" });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  // The demo content is in place (its products, its shop) before the browser starts.
  await until(
    "demo products",
    () => call<{ items: Product[] }>("POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 }),
    (p) => p.items.length >= 16,
  );
  const codes = ["7501031311309", "7501055300075", "7501000111206", "4006381333931", "9780201379624"];
  for (let i = 1; i <= 10; i++) codes.push(ean13(`750100000${String(i).padStart(3, "0")}`));
  expect(await call("POST", "/api/MeliCode/SetCodes", { codes })).toMatchObject({ added: codes.length });
  // The publish records are a new-version screen (spec §2): the host lists the demo tenant for it.
  const host = await accessToken(app.url, "admin", "Admin-e2e-2026");
  await callApi(app.url, host, "POST", "/api/SystemConfigSetting/CreateOrUpdate", {
    name: "新版本租户",
    key: "Console.NewVersionTenants",
    value: demo.tenant,
  });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png`, fullPage: true });

describe("publishing", () => {
  it("selects products, checks and previews, publishes, and follows the batch to the records and logs", async () => {
    const products = (await call<{ items: Product[] }>("POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 })).items;
    // The products with a Spanish title can go to Mexico; one without shows a refusal in the preview.
    const spanish = products.filter((p) => p.title.es);
    const other = products.find((p) => !p.title.es && !p.title.zh)!;
    expect(spanish.length).toBeGreaterThanOrEqual(1);
    const chosen = [...spanish.map((p) => p.id), other.id];

    const page = await openConsolePage(browser, app.url, demo, "/proudcts/list");
    await page.setViewport({ width: 1440, height: 900 });
    await page.waitForSelector("[data-testid=products-list-page] [data-row-key]");
    for (const id of chosen) await page.click(`[data-row-key="${id}"] [aria-label=选择此行]`);
    await page.waitForFunction(
      (n) => document.querySelector("[data-testid=products-bulk-bar]")?.getAttribute("data-count") === String(n),
      {},
      chosen.length,
    );
    await page.click("[data-testid=products-bulk-publish]");

    await page.waitForSelector("[data-testid=publish-page]");
    await page.waitForFunction(
      (n) => document.querySelector("[data-testid=publish-product-count]")?.getAttribute("data-count") === String(n),
      {},
      chosen.length,
    );
    // The demo shop (the only group) and its site are chosen by default.
    await page.waitForFunction(() => document.querySelector("[data-testid=publish-shop]")?.textContent?.includes("DEMO_SHOP"));
    await page.waitForSelector("[data-testid=publish-site-1]");

    // A leaf category through the tree-select's search.
    await page.waitForFunction(() => !document.querySelector("[data-testid=publish-category-1]")?.hasAttribute("disabled"));
    await page.click("[data-testid=publish-category-1]");
    await page.waitForSelector("[data-testid=publish-category-1-search]", { timeout: 15_000 });
    await page.type("[data-testid=publish-category-1-search]", "Baterías Externas");
    await page.waitForSelector(`[data-testid=publish-category-1-node-${CATEGORY}]`, { timeout: 15_000 });
    await page.click(`[data-testid=publish-category-1-node-${CATEGORY}]`);

    // Its required attributes, as the form built from GetAttributes asks them.
    await page.waitForSelector("[data-testid=publish-attributes-1]", { timeout: 15_000 });
    await page.click("[data-testid=publish-attr-1-BRAND]");
    await page.waitForSelector("[role=option][data-testid^=publish-attr-1-BRAND-]");
    await page.click("[role=option][data-testid^=publish-attr-1-BRAND-]");
    // Every other required attribute the form asks as text gets a value.
    for (const input of await page.$$("[data-testid=publish-attributes-1] input[data-testid^=publish-attr-1-]")) await input.type("X1");

    // Overrides: package and stock for every product.
    await page.type("[data-testid=publish-weight]", "500");
    await page.type("[data-testid=publish-size]", "20x15x10");
    await page.click("[data-testid=publish-force-size]");
    await page.type("[data-testid=publish-stock]", "10");
    await shot(page, "publish-01-form");

    await page.click("[data-testid=publish-preflight]");
    await page.waitForSelector("[data-testid=publish-preview-summary]", { timeout: 30_000 });
    const statuses = await page.$$eval("[data-testid=publish-preview-status]", (els) => els.map((e) => e.getAttribute("data-ok")));
    expect(statuses).toHaveLength(chosen.length);
    expect(statuses).toContain("false");
    expect(statuses).toContain("true");
    // The refused pair says why, in Chinese; the accepted ones carry a price and a margin.
    const problems = await page.$$eval("[data-testid=publish-preview-problems] li[data-severity=error]", (els) =>
      els.map((e) => e.textContent),
    );
    expect(problems.join(" ")).toMatch(/西班牙语标题|汇率/);
    const prices = await page.$$eval("[data-testid=publish-preview-price]", (els) => els.map((e) => e.textContent ?? ""));
    expect(prices.some((p) => /^\d+\.\d{2} MXN$/.test(p.trim()))).toBe(true);
    expect(await page.$$eval("[data-testid=publish-preview-margin]", (els) => els.length)).toBeGreaterThan(0);
    await shot(page, "publish-02-preview");

    await page.click("[data-testid=publish-submit]");
    await page.waitForSelector("[data-testid=publish-batch]", { timeout: 30_000 });
    const batchId = await page.$eval("[data-testid=publish-batch]", (e) => e.getAttribute("data-id")!);
    // The batch ends on the screen without a reload (live events, or polling while the stream is down).
    await page.waitForFunction(
      () => {
        const s = Number(document.querySelector("[data-testid=publish-batch]")?.getAttribute("data-status"));
        return s >= 3;
      },
      { timeout: 90_000 },
    );
    await shot(page, "publish-03-batch");

    const batch = (await call<{ items: Batch[] }>("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { maxResultCount: 10 })).items.find(
      (b) => b.id === batchId,
    )!;
    expect(batch.total).toBe(chosen.length);
    expect([PublishBatchStatus.Succeeded, PublishBatchStatus.PartlySucceeded, PublishBatchStatus.Failed]).toContain(batch.status);
    expect(await page.$eval("[data-testid=publish-batch-counts]", (e) => e.textContent)).toContain(`共 ${batch.total} 条`);
    const listings = (await call<{ items: Listing[] }>("POST", "/api/MeliStatNew/GetPublishBatchListings", { batchId, maxResultCount: 50 }))
      .items;
    expect(listings.find((l) => l.productId === other.id)?.status).toBe(ListingStatus.Skipped);
    // Something went live: the demo's products publish once their category and attributes are given.
    expect(batch.success).toBeGreaterThan(0);
    expect(listings.some((l) => l.itemId && l.status === ListingStatus.Active)).toBe(true);

    // The records: the batch, and its listings in the drawer (item ids with permalinks for those live, reasons).
    await page.click("[data-testid=publish-batch-records]");
    await page.waitForSelector("[data-testid=publish-records-page]");
    await page.waitForSelector("[data-testid=publish-batch-drawer]");
    await page.waitForFunction(
      (n) => document.querySelectorAll("[data-testid=publish-batch-drawer] [data-testid=publish-listing-status]").length === n,
      {},
      listings.length,
    );
    const live = listings.filter((l) => l.itemId);
    const itemIds = await page.$$eval("[data-testid=publish-listing-item]", (els) => els.map((e) => e.textContent?.trim()));
    expect(itemIds.sort()).toEqual(live.map((l) => l.itemId).sort());
    const reasons = await page.$$eval("[data-testid=publish-listing-reason]", (els) => els.map((e) => e.textContent ?? ""));
    expect(reasons.length).toBe(listings.filter((l) => l.reason).length);
    await shot(page, "publish-04-records");
    await page.keyboard.press("Escape");
    expect(await page.$eval(`[data-testid=publish-records-row-${batchId}]`, (e) => e.textContent)).toContain("DEMO_SHOP");

    // The marketplace calls of the batch, with the request and answer of one.
    await page.click("[data-menu-path='/proudcts/publish-logs']");
    await page.waitForSelector("[data-testid=publish-logs-page]");
    await page.waitForSelector("[data-testid=publish-logs-call]");
    await page.click("[data-testid^=publish-logs-open-]");
    await page.waitForSelector("[data-testid=publish-logs-request]");
    expect(await page.$eval("[data-testid=publish-logs-request]", (e) => e.textContent)).toContain('"category_id"');
    await shot(page, "publish-05-logs");
    await page.browserContext().close();
  }, 240_000);
});
