// The margin warning in real Chromium (issue 28 "The default price sells at a loss"): on a fresh `npm start` with the
// demo content (a sandbox shop on Mexico), two products are created in a category with its required attributes and
// the demo shop's minimum margin is set to 60 % (UpdateAccount, what 编辑定价规则 saves; a new shop's default markup
// earns about 30 %); the products are sent from the product list to the publish screen and checked in their own
// category, and each pair shows the margin warning in red while staying 可刊登. The screenshot goes to
// e2e/artifacts/margin-warning.png (and SHOTS_DIR when given).
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openConsolePage } from "./browser.ts";
import { repoRoot, until } from "./app-process.ts";
import { DEMO_CATEGORY, requiredValues, startDemoPublishing, type Attribute, type DemoPublishing } from "./demo-publishing.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
let rig: DemoPublishing;
let browser: Browser;

type Shop = { id: string; site: number; adjustRate: number | null; minMargin: number | null };

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  rig = await startDemoPublishing("margin-warning", { codes: 10, firstCode: 750300000000 });
  browser = await launchChromium();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await rig?.stop();
});

describe("the pre-flight's margin warning", () => {
  it("warns in red under the shop's minimum margin, without refusing", async () => {
    const shops = (await rig.call<{ items: Shop[] }>("GET", "/api/MeliAccount/GetAccounts?MaxResultCount=10")).items;
    expect(shops.length).toBeGreaterThan(0);
    // A new shop sets nothing: the default markup and minimum apply.
    expect(shops[0]).toMatchObject({ adjustRate: null, minMargin: null });

    const saved = await rig.call<Shop>("POST", "/api/MeliAccount/UpdateAccount", { id: shops[0].id, info: { minMargin: 60 } });
    expect(saved.minMargin).toBe(60);

    // Two products a seller would publish (Spanish title, weight, size, the demo's images) in the demo category with
    // its required attributes, created before the product list opens.
    const category = await until(
      "the demo category's attributes",
      () => rig.call<{ attributes: Attribute[] }>("GET", `/api/MeliCategory/GetAttributes?site=1&cateId=${DEMO_CATEGORY}`),
      (c) => c.attributes.length > 0,
    );
    const attrs = requiredValues(category.attributes).map((a) => ({ nameId: a.id, valueId: a.valueId, value: a.valueName }));
    const demoProducts = (
      await rig.call<{ items: { images: string[] }[] }>("POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 })
    ).items;
    const images = demoProducts.find((p) => p.images.length)!.images.slice(0, 2);
    const ids: string[] = [];
    for (const n of [1, 2]) {
      const created = await rig.call<{ id: string }>("POST", "/api/Product/CreateOrUpdateProduct", {
        title: { es: `Batería externa portátil modelo ${n}` },
        price: 80 + n * 20,
        currency: "CNY",
        weight: 300,
        size: "12x9x3",
        stock: 10,
        images,
        cateInfo: { site: 1, cateId: DEMO_CATEGORY, attrs },
      });
      ids.push(created.id);
    }

    const page = await openConsolePage(browser, rig.app.url, rig.demo, "/proudcts/list");
    for (const id of ids) await page.waitForSelector(`[data-row-key="${id}"]`);
    for (const id of ids) await page.click(`[data-row-key="${id}"] [aria-label=选择此行]`);
    await page.click("[data-testid=products-bulk-publish]");
    await page.waitForSelector("[data-testid=publish-page]");
    await page.waitForFunction(() => document.querySelector("[data-testid=publish-shop]")?.textContent?.trim());
    await page.waitForSelector("[data-testid=publish-site-check-1][data-state=checked]");
    await page.click("[data-testid=publish-preflight]");
    await page.waitForSelector("[data-testid=publish-preview-summary]", { timeout: 30_000 });

    await page.$eval("[data-testid=publish-preview-summary]", (e) => e.scrollIntoView({ block: "start" }));
    const file = join(artifacts, "margin-warning.png");
    await page.screenshot({ path: file as `${string}.png` });
    if (process.env.SHOTS_DIR) copyFileSync(file, join(process.env.SHOTS_DIR, "margin-warning.png"));
    const warned = await page.$$eval("[data-code='price.marginLow']", (els) => els.map((e) => e.textContent ?? ""));
    const codes = await page.$$eval("[data-code]", (els) => els.map((e) => e.getAttribute("data-code")));
    expect(warned.length, codes.join(",")).toBe(ids.length);
    expect(warned[0]).toMatch(/利润率\d+\.\d{2}%低于店铺最低利润率60%/);
    const margins = await page.$$eval("[data-testid=publish-preview-margin][data-warn=true]", (els) =>
      els.map((e) => e.classList.contains("text-destructive")),
    );
    expect(margins).toEqual(warned.map(() => true));
    expect(await page.$$eval("[data-testid=publish-preview-status]", (els) => els.map((e) => e.getAttribute("data-ok")))).toEqual(
      ids.map(() => "true"),
    );
  });
});
