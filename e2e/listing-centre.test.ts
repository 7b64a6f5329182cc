// The listing centre in real Chromium against the real server (`npm start` on a fresh DATA_DIR, a fresh database on
// PostgreSQL) with the demo content (a sandbox shop on Mexico): 55 products are published through the API (50 mugs,
// 5 plates). In /proudcts/publish-records/v2 the seller filters the list by title (the filter goes into the URL and the
// count and the tab say 50), chooses every matching listing, re-prices them in the batch dialog (it says 50 and shows
// the result for a sample), watches the task's progress end, and sees the new price on every row, from the server's
// re-read of Mercado Libre; edits one price in place; and opens a listing's log with the PUT that changed it. Each step
// is checked against the server's data; then the 利润率 column and 重新定价 by the formula, applied and undone.
// Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListingStatus, PublishBatchStatus, TaskStatus } from "#shared/contract/enums.ts";
import { launchChromium, openConsolePage } from "./browser.ts";
import { type AppProcess, repoRoot, until } from "./app-process.ts";
import {
  DEMO_CATEGORY,
  requiredValues,
  startDemoPublishing,
  type Attribute,
  type DemoProduct,
  type DemoPublishing,
} from "./demo-publishing.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const MUGS = 50;
const PLATES = 5;
const NEW_PRICE = 199;

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
const cleanups: (() => unknown)[] = [];

type Batch = { id: string; status: number; total: number; success: number };
type Row = { id: string; itemId: string | null; title: string; price: number | null; status: number };

let call: DemoPublishing["call"];
const listings = (filter: Record<string, unknown> = {}) =>
  call<{ items: Row[]; totalCount: number }>("POST", "/api/MeliStat/GetMeliStatsByPage", { maxResultCount: 100, ...filter });

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startDemoPublishing("listing-centre", { codes: MUGS + PLATES + 5, firstCode: 750300000001 });
  ({ app, demo, call } = started);
  cleanups.unshift(started.stop);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png`, fullPage: true });

/** The rows the table shows: listing id → the price cell's text. */
const shownPrices = (page: Page) =>
  page.$$eval("[data-testid^=listing-price-]:not([data-testid$=-edit]):not([data-testid$=-input])", (els) =>
    els.map((e) => [e.getAttribute("data-testid")!.slice("listing-price-".length), e.textContent?.trim() ?? ""]),
  );

describe("the listing centre", () => {
  it("filters the listings, re-prices 50 in one batch with live progress, edits one in place and shows its log", async () => {
    const demoProducts = (await call<{ items: DemoProduct[] }>("POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 })).items;
    const images = demoProducts.find((p) => p.images.length)!.images.slice(0, 2);
    const ids: string[] = [];
    for (let i = 0; i < MUGS + PLATES; i++) {
      const mug = i < MUGS;
      const created = await call<{ id: string }>("POST", "/api/Product/CreateOrUpdateProduct", {
        title: { es: mug ? `Taza de cerámica modelo ${i + 1}` : `Plato hondo modelo ${i + 1}` },
        price: 40 + i,
        currency: "CNY",
        weight: 300,
        size: "12x9x9",
        stock: 10,
        images,
      });
      ids.push(created.id);
    }
    const group = (await call<{ groups: { groupId: string }[] }>("GET", "/api/MeliAccount/GetMeliAccGroup")).groups[0];
    const category = await call<{ attributes: Attribute[] }>("GET", `/api/MeliCategory/GetAttributes?site=1&cateId=${DEMO_CATEGORY}`);
    const submitted = await call<Batch>("POST", "/api/MeliStatNew/Publish", {
      accountGroupId: group.groupId,
      sites: [1],
      productIds: ids,
      cateInfo: [{ site: 1, cateId: DEMO_CATEGORY, attrs: requiredValues(category.attributes) }],
    });
    const published = await until(
      "publish",
      async () =>
        (await call<{ items: Batch[] }>("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { maxResultCount: 20 })).items.find(
          (b) => b.id === submitted.id,
        )!,
      (b) => b.status >= PublishBatchStatus.Succeeded,
    );
    expect(published).toMatchObject({ total: MUGS + PLATES, success: MUGS + PLATES, status: PublishBatchStatus.Succeeded });
    const mugs = await listings({ title: "Taza" });
    expect(mugs.totalCount).toBe(MUGS);
    expect(mugs.items.every((r) => r.status === ListingStatus.Active && r.price !== NEW_PRICE)).toBe(true);

    // The listing centre opens on every listing of the local shops.
    const page = await openConsolePage(browser, app.url, demo, "/proudcts/publish-records/v2");
    await page.waitForSelector("[data-testid=listing-centre]");
    await page.waitForFunction(
      (n) => Number(document.querySelector("[data-testid=listings-total]")?.getAttribute("data-total")) === n,
      { timeout: 30_000 },
      MUGS + PLATES,
    );
    await shot(page, "listings-01-all");

    // Filter by title: the URL keeps it, the count and the 在售 tab say 50.
    await page.type("[data-testid=listings-search]", "Taza");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (n) => Number(document.querySelector("[data-testid=listings-total]")?.getAttribute("data-total")) === n,
      { timeout: 15_000 },
      MUGS,
    );
    expect(await page.evaluate(() => location.hash)).toContain("q=Taza");
    await page.waitForFunction(
      (n) => Number(document.querySelector(`[data-testid=listings-tab-${3}]`)?.getAttribute("data-count")) === n,
      { timeout: 15_000 },
      MUGS,
    );
    await shot(page, "listings-02-filtered");

    // Every matching listing, re-priced in the batch dialog.
    await page.click("[data-testid=listings-select-all-matching]");
    await page.click("[data-testid=listings-bulk-price]");
    await page.waitForSelector("[data-testid=listing-batch-price]");
    expect(await page.$eval("[data-testid=listing-batch-price-count]", (e) => e.getAttribute("data-count"))).toBe(String(MUGS));
    await page.type("[data-testid=listing-batch-price-value]", String(NEW_PRICE));
    // The result for a sample of the rows.
    const samples = await page.$$eval("[data-testid=listing-batch-price-sample-price]", (els) => els.map((e) => e.textContent?.trim()));
    expect(samples).toEqual(Array(3).fill(`${NEW_PRICE} MXN`));
    await shot(page, "listings-03-dialog");
    await page.click("[data-testid=listing-batch-price-submit]");

    // The task's progress shows and ends without a reload.
    await page.waitForSelector("[data-testid=listing-task]", { timeout: 15_000 });
    await shot(page, "listings-04-progress");
    await page.waitForFunction(
      (done) => Number(document.querySelector("[data-testid=listing-task]")?.getAttribute("data-status")) === done,
      { timeout: 120_000 },
      TaskStatus.Succeeded,
    );
    expect(await page.$eval("[data-testid=listing-task-remark]", (e) => e.textContent)).toContain(`成功 ${MUGS}`);

    // Every mug has the new price, as re-read from Mercado Libre; the plates kept theirs.
    const after = await listings({ title: "Taza" });
    expect(after.items.map((r) => r.price)).toEqual(Array(MUGS).fill(NEW_PRICE));
    const plates = await listings({ title: "Plato" });
    expect(plates.items.every((r) => r.price !== NEW_PRICE)).toBe(true);
    // The rows on screen follow.
    await page.waitForFunction(
      (price) => {
        const cells = [...document.querySelectorAll("[data-testid^=listing-price-]")].filter((e) =>
          /^listing-price-[^-]+(-[^-]+){4}$/.test(e.getAttribute("data-testid")!),
        );
        return cells.length > 0 && cells.every((e) => e.textContent?.startsWith(String(price)));
      },
      { timeout: 15_000 },
      NEW_PRICE,
    );
    const shown = await shownPrices(page);
    expect(shown.length).toBeGreaterThanOrEqual(20);
    for (const [, text] of shown) expect(text).toMatch(new RegExp(`^${NEW_PRICE} MXN$`));
    await shot(page, "listings-05-repriced");

    // One price edited in place.
    const one = after.items[0];
    await page.click(`[data-testid=listing-price-${one.id}-edit]`);
    await page.waitForSelector(`[data-testid=listing-price-${one.id}-input]`);
    await page.$eval(`[data-testid=listing-price-${one.id}-input]`, (e) => (e as HTMLInputElement).select());
    await page.type(`[data-testid=listing-price-${one.id}-input]`, "250");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid=listing-price-${id}]`)?.textContent?.startsWith("250"),
      { timeout: 15_000 },
      one.id,
    );
    expect((await listings({ itemIds: [one.itemId] })).items[0].price).toBe(250);
    // One change, said once: the input losing focus after Enter sends nothing more.
    await page.waitForFunction(() =>
      [...document.querySelectorAll("[data-toast-type]")].some((e) => e.textContent?.includes("已在美客多生效")),
    );
    await new Promise((r) => setTimeout(r, 500));
    const toasts = await page.$$eval("[data-toast-type]", (els) => els.map((e) => e.textContent ?? ""));
    expect(toasts.filter((t) => t.includes("改价"))).toEqual(["改价：已在美客多生效"]);

    // Re-pricing by the shop's rules shows the formula's result for a sample first (nothing changes until submitted).
    await page.click("[data-testid=listings-bulk-meliPrice]");
    await page.waitForSelector("[data-testid=listing-batch-meliPrice-sample-price]", { timeout: 15_000 });
    const formula = await page.$$eval("[data-testid=listing-batch-meliPrice-sample-price]", (els) => els.map((e) => e.textContent?.trim()));
    expect(formula).toHaveLength(3);
    for (const f of formula) expect(f).toMatch(/^\d+(\.\d+)? MXN$/);
    await page.type("[data-testid=listing-batch-meliPrice-value]", "5000");
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll("[data-testid=listing-batch-meliPrice-sample-price]")].every(
          (e) => e.textContent?.trim() === "5000 MXN",
        ),
      { timeout: 15_000 },
    );
    await shot(page, "listings-06-formula");
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=listing-batch-meliPrice]", { hidden: true });
    expect((await listings({ title: "Taza" })).items.filter((r) => r.price === 5000)).toEqual([]);

    // Its log: the PUTs that changed the price, with the request sent.
    await page.click(`[data-testid=listing-logs-${one.id}]`);
    await page.waitForSelector("[data-testid=listing-logs-drawer] [data-testid=listing-log-call]");
    const calls = await page.$$eval("[data-testid=listing-logs-drawer] [data-testid=listing-log-call]", (els) =>
      els.map((e) => e.textContent),
    );
    expect(calls.filter((c) => c?.startsWith(`PUT /items/${one.itemId}`)).length).toBe(2);
    expect(calls.some((c) => c?.startsWith("POST /items"))).toBe(true);
    // The newest PUT (the in-place 250): the log also keeps the app's own reads (visits), which may come first.
    const newestPut = calls.findIndex((c) => c?.startsWith(`PUT /items/${one.itemId}`));
    await (await page.$$("[data-testid=listing-logs-drawer] [data-testid=listing-log-call]"))[newestPut].click();
    await page.waitForSelector("[data-testid=listing-log-detail]");
    expect(await page.$eval("[data-testid=listing-log-detail]", (e) => e.textContent)).toContain("250");
    await shot(page, "listings-07-logs");
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=listing-logs-drawer]", { hidden: true });

    // 利润率 (issue 32): each mug's row shows its margin now and when priced. 重新定价 previews the formula's price for
    // the 50 chosen mugs (changed by hand to 199 and 250), applies it as a task, and 撤销 puts back the replaced prices.
    await page.waitForSelector(`[data-testid=listing-margin-${one.id}]`, { timeout: 30_000 });
    expect(await page.$eval(`[data-testid=listing-margin-${one.id}]`, (e) => e.textContent)).toMatch(/^-?\d+(\.\d+)?%/);
    await page.click("[data-testid=listings-bulk-reprice]");
    await page.waitForSelector("[data-testid=reprice-summary]", { timeout: 60_000 });
    const changed = Number(await page.$eval("[data-testid=reprice-summary]", (e) => e.getAttribute("data-changed")));
    expect(changed).toBe(MUGS);
    const previewed = await page.$eval(`[data-testid=reprice-row-${one.id}] td:nth-child(3)`, (e) => e.textContent?.trim());
    await shot(page, "listings-08-reprice-preview");
    await page.click("[data-testid=reprice-submit]");
    await page.waitForSelector("[data-testid=reprice-started]", { timeout: 15_000 });
    const repriced = await until(
      "the mugs at the formula's prices",
      () => listings({ title: "Taza" }),
      (r) => r.items.every((x) => x.price !== NEW_PRICE && x.price !== 250),
    );
    expect(repriced.items.find((x) => x.id === one.id)!.price).toBe(Number(previewed?.replace(/[^\d.]/g, "")));
    await page.waitForFunction(
      (done) => Number(document.querySelector("[data-testid=listing-task]")?.getAttribute("data-status")) === done,
      { timeout: 120_000 },
      TaskStatus.Succeeded,
    );
    await shot(page, "listings-09-repriced-by-margin");
    await page.click("[data-testid=reprice-undo]");
    await page.waitForSelector("[data-testid=reprice-dialog]", { hidden: true, timeout: 15_000 });
    const undone = await until(
      "the replaced prices back",
      () => listings({ title: "Taza" }),
      (r) => r.items.every((x) => x.price === (x.id === one.id ? 250 : NEW_PRICE)),
    );
    expect(undone.items).toHaveLength(MUGS);
    await page.browserContext().close();
  }, 300_000);
});
