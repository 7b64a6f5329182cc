// The product list in real Chromium against the real server (`npm start` on a fresh DATA_DIR, and a fresh database
// when the suite runs on PostgreSQL): filter by title, select everything the filter matches, change the price of all
// of them in the bulk dialog, undo it, and edit one variant's price in the editor. Each step is checked against the
// server's data, not only the screen. Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, callApi, repoRoot, startFreshApp, type AppProcess } from "./app-process.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let token: string;
const cleanups: (() => unknown)[] = [];

type Product = { id: string; price: string | null; titleText: string; variantModel: { items: { sku: string; price: string | null }[] } };

const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);
const products = async (filter: Record<string, unknown> = {}) =>
  (await call<{ items: Product[] }>("POST", "/api/Product/GetProductsByPage", { maxResultCount: 1000, ...filter })).items;

const cases: string[] = [];
let coats: string[] = [];
let variantProduct: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startFreshApp("products");
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  // 12 phone cases and 8 coats, with prices the test can recognise; one coat has variants.
  for (let i = 0; i < 12; i++) {
    const p = await call<Product>("POST", "/api/Product/CreateOrUpdateProduct", {
      title: { zh: `透明手机壳 ${i}`, es: `Funda transparente ${i}` },
      price: 10 + i,
      currency: "CNY",
      weight: 40,
      images: [],
    });
    cases.push(p.id);
  }
  for (let i = 0; i < 8; i++) {
    const p = await call<Product>("POST", "/api/Product/CreateOrUpdateProduct", {
      title: { zh: `冬季外套 ${i}` },
      price: 200 + i,
      currency: "CNY",
      ...(i === 0
        ? {
            variantModel: {
              headers: [{ vairantKey: "颜色", vairantValues: ["黑", "白"] }],
              items: [
                { values: ["黑"], price: 199, stock: 3, sku: "COAT-B" },
                { values: ["白"], price: 209, stock: 2, sku: "COAT-W" },
              ],
            },
          }
        : {}),
    });
    coats.push(p.id);
  }
  variantProduct = coats[0];
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png` });

async function openList(): Promise<Page> {
  const page = await openConsolePage(browser, app.url, demo, "/proudcts/list");
  await page.waitForSelector("[data-testid=products-list-page]");
  await page.waitForFunction(() => document.querySelectorAll("[data-testid^=products-row-]").length > 0, { timeout: 15_000 });
  return page;
}

const rowIds = (page: Page) =>
  page.$$eval("[data-testid^=products-row-]", (els) =>
    els
      .map((e) => e.getAttribute("data-testid")!)
      .filter((t) => /^products-row-[0-9a-f-]{36}$/.test(t))
      .map((t) => t.slice("products-row-".length)),
  );

async function confirmDialog(page: Page) {
  await page.waitForSelector("[data-slot=confirm-dialog]");
  const buttons = await page.$$("[data-slot=confirm-dialog] button");
  for (const b of buttons) {
    const text = await b.evaluate((e) => e.textContent ?? "");
    if (text.includes("撤销") || text.includes("确定") || text.includes("确认")) {
      await b.click();
      return;
    }
  }
  throw new Error("no confirm button");
}

describe("product list", () => {
  it("filters by title, changes the price of everything matching, and undoes it", async () => {
    const page = await openList();
    expect((await rowIds(page)).length).toBe(20);
    await page.type("[data-testid=products-search]", "手机壳");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => location.hash.includes("q="), { timeout: 10_000 });
    await page.waitForFunction(() => document.querySelectorAll("[data-testid^=products-row-]").length > 0);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll("[data-testid^=products-row-]")].filter((e) =>
          /products-row-[0-9a-f-]{36}$/.test(e.getAttribute("data-testid")!),
        ).length === 12,
      { timeout: 10_000 },
    );
    expect((await rowIds(page)).sort()).toEqual([...cases].sort());
    await shot(page, "products-01-filtered");

    // One row by hand, then everything the filter matches (the edit then carries the filter, not ids).
    await page.click("[data-row-key] [role=checkbox]");
    await page.waitForSelector("[data-testid=products-select-all-matching]");
    await page.click("[data-testid=products-select-all-matching]");
    await page.click("[data-testid=products-bulk-same-price]");
    await page.waitForSelector("[data-testid=products-same-price-dialog]");
    await page.waitForFunction(
      () => document.querySelector("[data-testid=products-same-price-dialog-count]")?.getAttribute("data-count") === "12",
      { timeout: 10_000 },
    );
    await page.type("[data-testid=products-same-price-value]", "25");
    await shot(page, "products-02-same-price-dialog");
    await page.click("[data-testid=products-same-price-dialog-submit]");
    await page.waitForSelector("[data-testid=products-undo]", { timeout: 10_000 });
    await page.waitForFunction(() => document.querySelector("[data-testid=products-undo]")!.textContent!.includes("12"));
    await shot(page, "products-03-after-price");

    const after = await products();
    for (const p of after)
      expect(p.price, p.titleText).toBe(cases.includes(p.id) ? "25.00" : String((200 + coats.indexOf(p.id)).toFixed(2)));

    await page.click("[data-testid=products-undo]");
    await confirmDialog(page);
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-undo]"), { timeout: 10_000 });
    const restored = new Map((await products()).map((p) => [p.id, p.price]));
    cases.forEach((id, i) => expect(restored.get(id)).toBe((10 + i).toFixed(2)));
    await shot(page, "products-04-after-undo");
    await page.browserContext().close();
  });

  it("edits one variant's price in the editor", async () => {
    const page = await openList();
    await page.waitForSelector(`[data-testid=products-row-edit-${variantProduct}]`);
    await page.click(`[data-testid=products-row-edit-${variantProduct}]`);
    await page.waitForSelector("[data-testid=products-editor-form]");
    await page.waitForSelector("[data-testid=variant-row-1]");
    expect(await page.$eval("[data-testid=variant-row-1]", (e) => e.getAttribute("data-values"))).toBe("白");
    await page.click("[data-testid=variant-price-1]", { count: 3 });
    await page.keyboard.press("Backspace");
    await page.type("[data-testid=variant-price-1]", "188.5");
    await shot(page, "products-05-editor");
    await page.click("[data-testid=products-editor-save]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-form]"), { timeout: 10_000 });
    const saved = await call<Product>("GET", `/api/Product/GetProductById?id=${variantProduct}`);
    expect(saved.variantModel.items.map((i) => [i.sku, i.price])).toEqual([
      ["COAT-B", "199.00"],
      ["COAT-W", "188.50"],
    ]);
    await page.browserContext().close();
  });

  it("shows a heavy seller compact rows with a two-line title, remembers the view, and keeps row actions reachable at 800px", async () => {
    const longTitle =
      "Funda de silicona transparente a prueba de golpes para teléfono móvil con protección de cámara y esquinas reforzadas";
    const long = await call<Product>("POST", "/api/Product/CreateOrUpdateProduct", {
      title: { zh: "透明防摔硅胶手机壳带镜头保护和加厚四角气囊适用于多种机型", es: longTitle },
      price: 12,
      currency: "CNY",
      images: [],
    });
    const page = await openList();
    await page.waitForSelector(`[data-testid=products-row-${long.id}] [data-slot=title-text]`);
    expect(await page.$eval("[data-slot=data-table]", (e) => e.getAttribute("data-density"))).toBe("compact");
    const heights = await page.$$eval("tbody tr[data-row-key]", (rows) => rows.map((r) => r.getBoundingClientRect().height));
    expect(heights.length).toBe(21);
    expect(Math.max(...heights)).toBeLessThanOrEqual(48);
    // The characters of the title that are on screen: two lines of the free width, far more than 20.
    const shown = await page.$eval(`[data-testid=products-row-${long.id}] [data-slot=title-text]`, (button) => {
      const box = button.getBoundingClientRect();
      const text = button.firstChild!;
      const range = document.createRange();
      let count = 0;
      for (let i = 0; i < text.textContent!.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width > 0 && r.bottom <= box.bottom + 1 && r.right <= box.right + 1) count++;
      }
      return { count, lines: Math.round(box.height / parseFloat(getComputedStyle(button).lineHeight)) };
    });
    expect(shown.count).toBeGreaterThan(40);
    expect(shown.lines).toBe(2);
    await shot(page, "products-06-compact");

    // Comfortable rows, the weight column hidden and the price moved before the image: kept after a reload.
    await page.click("[data-testid=products-view]");
    await page.waitForSelector("[data-testid=products-view-panel]");
    await page.click("[data-testid=products-view-density-comfortable]");
    await page.click("[data-testid=products-view-column-weight]");
    await page.click("[data-testid=products-view-up-price]");
    await page.click("[data-testid=products-view-up-price]");
    await page.click("[data-testid=products-view-up-price]");
    await shot(page, "products-07-view-options");
    await page.keyboard.press("Escape");
    const headers = () => page.$$eval("thead th[data-column-id]", (ths) => ths.map((th) => th.getAttribute("data-column-id")));
    const expected = ["price", "image", "title", "label", "status", "infringement", "owner", "created", "actions"];
    expect(await headers()).toEqual(expected);
    await page.reload();
    await page.waitForSelector(`[data-testid=products-row-${long.id}]`, { timeout: 15_000 });
    expect(await page.$eval("[data-slot=data-table]", (e) => e.getAttribute("data-density"))).toBe("comfortable");
    expect(await headers()).toEqual(expected);
    const comfortable = await page.$$eval("tbody tr[data-row-key]", (rows) => rows.map((r) => r.getBoundingClientRect().height));
    expect(Math.min(...comfortable)).toBeGreaterThan(48);

    // The page-size select shows its whole text.
    const trigger = await page.$("[data-slot=data-table-pagination] [aria-label=每页条数]");
    await trigger!.click();
    const [option] = await page.$$("xpath/.//*[@role='option'][contains(., '1000 条/页')]");
    await option.click();
    await page.waitForFunction(() => document.querySelector("[aria-label=每页条数]")?.textContent?.includes("1000 条/页"));
    const fits = await page.$eval("[aria-label=每页条数] span", (e) => e.scrollWidth <= e.clientWidth);
    expect(fits).toBe(true);
    await shot(page, "products-08-page-size");

    // Date filters read yyyy-mm-dd whatever the locale: a day picked in the calendar.
    await page.click("[data-testid=products-date-start-calendar]");
    await page.waitForSelector("[data-testid=products-date-start-calendar-panel]");
    await shot(page, "products-09-calendar");
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    });
    await page.click(`[data-testid=products-date-start-calendar-panel] [data-day='${today}']`);
    await page.waitForFunction((d) => location.hash.includes(`from=${d}`), {}, today);
    await page.waitForFunction(
      (d) => (document.querySelector("[data-testid=products-date-start]") as HTMLInputElement).value === d,
      {},
      today,
    );
    expect(await page.$eval("[data-testid=products-date-start]", (e) => (e as HTMLInputElement).type)).toBe("text");
    await shot(page, "products-09b-date-picked");
    await page.browserContext().close();

    // 800px wide: the table scrolls sideways, the actions column stays at the window's edge and its buttons answer.
    const narrow = await openList();
    await narrow.setViewport({ width: 800, height: 900 });
    await narrow.waitForSelector("[data-layout=mobile]");
    await narrow.waitForSelector("[data-slot=data-table][data-overflowing]");
    const reach = await narrow.$eval(`[data-testid=products-row-edit-${long.id}]`, (button) => {
      const r = button.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { right: r.right, hit: hit === button || button.contains(hit) };
    });
    expect(reach.right).toBeLessThanOrEqual(800);
    expect(reach.hit).toBe(true);
    await shot(narrow, "products-10-mobile-actions");
    await narrow.browserContext().close();
  });
});
