// Retrying a batch's failed listings in real Chromium against the real server (`npm start` on a fresh DATA_DIR, a fresh
// database on PostgreSQL) with the demo content (a sandbox shop on Mexico, synced categories): a batch of two products
// is published through the API, one of them without weight and size so the pre-flight skips it; the seller fixes the
// product through the API; in /proudcts/publish-records/v2 the drawer names the skipped listing by its product, 重试失败
// asks how many will be retried, the batch's progress shows live again and ends with both listings live, and the
// drawer shows the new item. Each step is checked against the server's data. Screenshots go to e2e/artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
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

let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
const cleanups: (() => unknown)[] = [];

type Batch = { id: string; status: number; total: number; success: number; fail: number; skipped: number };
type Listing = { id: string; status: number; itemId: string | null; reason: string | null; productId: string; productTitle: string };

let call: DemoPublishing["call"];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const started = await startDemoPublishing("publish-retry", { codes: 8, firstCode: 750200000001 });
  ({ app, demo, call } = started);
  cleanups.unshift(started.stop);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png`, fullPage: true });

describe("retrying a batch's failed listings", () => {
  it("fixes the skipped product, retries it from the publish records and sees it go live", async () => {
    const demoProducts = (await call<{ items: DemoProduct[] }>("POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 })).items;
    const images = demoProducts.find((p) => p.images.length)!.images.slice(0, 2);
    const good = await call<{ id: string }>("POST", "/api/Product/CreateOrUpdateProduct", {
      title: { es: "Batería externa 10000 mAh", zh: "充电宝 10000毫安" },
      price: 80,
      currency: "CNY",
      weight: 250,
      size: "14x7x2",
      stock: 5,
      images,
    });
    const broken = await call<{ id: string }>("POST", "/api/Product/CreateOrUpdateProduct", {
      title: { es: "Batería externa solar 20000 mAh", zh: "太阳能充电宝 20000毫安" },
      price: 120,
      currency: "CNY",
      stock: 5,
      images,
    });
    const group = (await call<{ groups: { groupId: string; name: string }[] }>("GET", "/api/MeliAccount/GetMeliAccGroup")).groups[0];
    const category = await call<{ attributes: Attribute[] }>("GET", `/api/MeliCategory/GetAttributes?site=1&cateId=${DEMO_CATEGORY}`);
    const request = {
      accountGroupId: group.groupId,
      sites: [1],
      productIds: [good.id, broken.id],
      cateInfo: [{ site: 1, cateId: DEMO_CATEGORY, attrs: requiredValues(category.attributes) }],
    };
    const preflight = await call<{ pairs: { productId: string; ok: boolean; problems: { message: string }[] }[] }>(
      "POST",
      "/api/MeliStatNew/PreflightPublish",
      request,
    );
    const pairOf = (id: string) => preflight.pairs.find((p) => p.productId === id)!;
    expect(pairOf(good.id).ok, JSON.stringify(pairOf(good.id).problems)).toBe(true);
    expect(pairOf(broken.id).ok).toBe(false);

    const submitted = await call<Batch>("POST", "/api/MeliStatNew/Publish", request);
    const batchOf = async () =>
      (await call<{ items: Batch[] }>("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { maxResultCount: 20 })).items.find(
        (b) => b.id === submitted.id,
      )!;
    const listingsOf = async () =>
      (await call<{ items: Listing[] }>("POST", "/api/MeliStatNew/GetPublishBatchListings", { batchId: submitted.id })).items;
    const first = await until("first publish", batchOf, (b) => b.status >= PublishBatchStatus.Succeeded);
    expect(first).toMatchObject({ total: 2, success: 1, skipped: 1, status: PublishBatchStatus.PartlySucceeded });
    const skipped = (await listingsOf()).find((l) => l.productId === broken.id)!;
    expect(skipped).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    expect(skipped.reason).toContain("缺少重量");

    // The records: the batch offers 重试失败; its drawer names the skipped listing and says why.
    const page = await openConsolePage(browser, app.url, demo, "/proudcts/publish-records/v2");
    // The screen opens on the listing centre; the batches are its second view.
    await page.waitForSelector("[data-testid=publish-records-view-batches]");
    await page.click("[data-testid=publish-records-view-batches]");
    await page.waitForSelector(`[data-testid=publish-records-retry-${submitted.id}]`, { timeout: 30_000 });
    await page.click(`[data-testid=publish-records-open-${submitted.id}]`);
    await page.waitForSelector("[data-testid=publish-batch-drawer] [data-testid=publish-listing-reason]");
    const titles = await page.$$eval("[data-testid=publish-batch-drawer] [data-testid=publish-listing-title]", (els) =>
      els.map((e) => e.textContent?.trim()),
    );
    expect(titles).not.toContain("-");
    expect(titles).toContain("Batería externa solar 20000 mAh");
    await shot(page, "publish-retry-01-drawer");
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=publish-batch-drawer]", { hidden: true });
    await shot(page, "publish-retry-02-records");

    // The seller fixes the product.
    await call("POST", "/api/Product/CreateOrUpdateProduct", { id: broken.id, weight: 300, size: "15x8x3" });

    await page.click(`[data-testid=publish-records-retry-${submitted.id}]`);
    await page.waitForSelector("[data-slot=confirm-dialog]");
    expect(await page.$eval("[data-slot=confirm-dialog]", (e) => e.textContent)).toContain("1 条刊登");
    await shot(page, "publish-retry-03-confirm");
    await page.click("[data-slot=confirm-dialog] button::-p-text(重试)");

    // The batch's progress shows again and ends without a reload, with both listings live.
    await page.waitForSelector("[data-testid=publish-records-retried] [data-testid=publish-batch]", { timeout: 30_000 });
    await page.waitForFunction(
      (id) => {
        const el = document.querySelector(`[data-testid=publish-records-retried] [data-testid=publish-batch][data-id="${id}"]`);
        return Number(el?.getAttribute("data-status")) === 3;
      },
      { timeout: 90_000 },
      submitted.id,
    );
    expect(await page.$eval("[data-testid=publish-records-retried] [data-testid=publish-batch-counts]", (e) => e.textContent)).toContain(
      "成功 2",
    );
    // The row offers no retry any more.
    expect(await page.$(`[data-testid=publish-records-retry-${submitted.id}]`)).toBeNull();
    await shot(page, "publish-retry-04-done");

    const done = await batchOf();
    expect(done).toMatchObject({ total: 2, success: 2, fail: 0, skipped: 0, status: PublishBatchStatus.Succeeded });
    const fixed = (await listingsOf()).find((l) => l.productId === broken.id)!;
    expect(fixed).toMatchObject({ id: skipped.id, status: ListingStatus.Active, reason: null });
    expect(fixed.itemId).toMatch(/^MLM/);

    await page.click(`[data-testid=publish-records-open-${submitted.id}]`);
    await page.waitForFunction(
      (itemId) =>
        [...document.querySelectorAll("[data-testid=publish-batch-drawer] [data-testid=publish-listing-item]")].some(
          (e) => e.textContent?.trim() === itemId,
        ),
      { timeout: 15_000 },
      fixed.itemId,
    );
    await shot(page, "publish-retry-05-drawer-after");
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=publish-batch-drawer]", { hidden: true });

    // In the drawer: two skipped listings, both fixed, only the one picked is retried.
    const more: string[] = [];
    for (const title of ["Cargador portátil 5000 mAh", "Cargador inalámbrico 15 W"]) {
      const created = await call<{ id: string }>("POST", "/api/Product/CreateOrUpdateProduct", {
        title: { es: title },
        price: 90,
        currency: "CNY",
        stock: 5,
        images,
      });
      more.push(created.id);
    }
    const second = await call<Batch>("POST", "/api/MeliStatNew/Publish", { ...request, productIds: more });
    const secondListings = async () =>
      (await call<{ items: Listing[] }>("POST", "/api/MeliStatNew/GetPublishBatchListings", { batchId: second.id })).items;
    const skippedBoth = await until(
      "second publish",
      secondListings,
      (ls) => ls.length === 2 && ls.every((l) => l.status === ListingStatus.Skipped),
    );
    for (const id of more) await call("POST", "/api/Product/CreateOrUpdateProduct", { id, weight: 200, size: "10x6x2" });
    const picked = skippedBoth.find((l) => l.productId === more[0])!;
    const left = skippedBoth.find((l) => l.productId === more[1])!;

    await page.waitForSelector(`[data-testid=publish-records-open-${second.id}]`, { timeout: 30_000 });
    await page.click(`[data-testid=publish-records-open-${second.id}]`);
    const box = `[data-testid=publish-batch-drawer] [data-row-key="${picked.id}"] [aria-label=选择此行]`;
    await page.waitForSelector(box);
    await page.click(box);
    await page.waitForFunction(() => document.querySelector("[data-testid=publish-batch-retry-selected]")?.textContent?.includes("(1)"));
    await page.click("[data-testid=publish-batch-retry-selected]");
    await page.waitForSelector("[data-slot=confirm-dialog]");
    expect(await page.$eval("[data-slot=confirm-dialog]", (e) => e.textContent)).toContain("重试所选的 1 条刊登");
    await page.click("[data-slot=confirm-dialog] button::-p-text(重试)");
    // The batch's progress shows in the drawer and ends; the picked listing gets its item, the other stays skipped.
    await page.waitForSelector("[data-testid=publish-batch-drawer] [data-testid=publish-batch]", { timeout: 30_000 });
    await page.waitForFunction(
      () => document.querySelectorAll("[data-testid=publish-batch-drawer] [data-testid=publish-listing-item]").length === 1,
      { timeout: 90_000 },
    );
    await page.waitForFunction(
      () =>
        Number(document.querySelector("[data-testid=publish-batch-drawer] [data-testid=publish-batch]")?.getAttribute("data-status")) >= 3,
      { timeout: 90_000 },
    );
    await shot(page, "publish-retry-06-drawer-selected");
    const after = await secondListings();
    expect(after.find((l) => l.id === picked.id)).toMatchObject({ status: ListingStatus.Active });
    expect(after.find((l) => l.id === left.id)).toMatchObject({ status: ListingStatus.Skipped, itemId: null });
    await page.browserContext().close();
  }, 240_000);
});
