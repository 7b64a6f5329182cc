// The side panel's back end in Node: WXT's fakeBrowser for storage, the real server over real HTTP behind a fetch the
// test can cut (an unreachable server), the real router, session, collector, panel and edit queue.
import { fakeBrowser } from "../../testing/fake-browser.ts";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, type TestTenant } from "../../../server/testing/harness.ts";
import { connectShop } from "../../../server/testing/shop-kit.ts";
import { randomUUID } from "node:crypto";
import { insertPublishBatch } from "../../../server/testing/publish-kit.ts";
import { PublishBatchStatus } from "#shared/contract/enums.ts";
import type { ProductDetail } from "#shared/contract/product.ts";
import { CHANNEL, type BatchView, type Reply, type SaveOutcome, type TabView } from "../../lib/protocol.ts";
import { createRouter } from "../../lib/router.ts";
import { defineStorageItems, type RecentProduct } from "../../lib/storage.ts";
import { createCollector } from "./collector.ts";
import { createEdits } from "./edits.ts";
import { createHandlers } from "./messages.ts";
import { createPanel } from "./panel.ts";
import { createProgressWatch } from "./progress.ts";
import { createSession } from "./session.ts";

const fixture = JSON.parse(readFileSync(new URL("../../../shared/extract/fixtures/1688/context/expected.json", import.meta.url), "utf8"));
const product = fixture.product as { platform: "1688"; itemId: string; sourceUrl: string };

let s: TestServer;
let a: TestTenant;
let serverUrl: string;
let route: ReturnType<typeof createRouter>;
const items = defineStorageItems();
/** The server as the worker reaches it: `down` makes every call fail as a network error. */
let down = false;
/** CreateOrUpdateProduct calls that reached the server. */
let saves = 0;
/** The paths of the calls that reached the server. */
const called: string[] = [];
const flaky: typeof fetch = (input, init) => {
  if (down) return Promise.reject(new TypeError("fetch failed"));
  called.push(new URL(String(input)).pathname);
  if (String(input).includes("/api/Product/CreateOrUpdateProduct")) saves++;
  if (String(input).includes("/api/MeliAccount/GetMeliAccGroup")) groupReads++;
  return fetch(input, init);
};
/** GetMeliAccGroup calls that reached the server. */
let groupReads = 0;
/** The tabs the worker was asked to open the panel on. */
const panelsOpened: { id: number; windowId?: number }[] = [];
const pushed: [number, number][] = [];
let edits: ReturnType<typeof createEdits>;

const panelPage = { id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL("/sidepanel.html") };
const tab = (id: number) => ({ id: fakeBrowser.runtime.id, url: product.sourceUrl, tab: { id, windowId: 1 } });

beforeAll(async () => {
  fakeBrowser.reset();
  s = await startTestServer();
  await s.app.listen({ port: 0, host: "127.0.0.1" });
  a = await s.createTenant();
  const session = createSession({ items, fetch: flaky });
  edits = createEdits({ session, items, onChange: (sent, _pending, refused) => pushed.push([sent, refused]) });
  const collector = createCollector({ session, items });
  const panel = createPanel({ session, items });
  const openSidePanel = async (t: { id: number; windowId?: number }) => {
    panelsOpened.push(t);
    return true;
  };
  const progress = createProgressWatch({ session, push: () => undefined });
  route = createRouter(createHandlers({ session, collector, panel, edits, progress, openSidePanel }), {
    extensionId: fakeBrowser.runtime.id,
    extensionOrigin: fakeBrowser.runtime.getURL("/"),
  });
  serverUrl = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  expect(await send("login", { serverUrl, tenant: a.tenantName, userName: "boss", password: a.password })).toMatchObject({ ok: true });
});
afterAll(() => s?.close());

async function send<T>(type: string, data?: unknown, sender: object = panelPage): Promise<Reply<T>> {
  return (await route({ channel: CHANNEL, type, data }, sender)) as Reply<T>;
}
async function data<T>(type: string, input?: unknown, sender?: object): Promise<T> {
  const r = await send<T>(type, input, sender);
  if (!r.ok) throw new Error(`${type}: ${r.error.message}`);
  return r.data;
}

describe("side panel back end", () => {
  let opened: ProductDetail;

  it("a press on a tab opens the panel there, and the collected item becomes one product, once", async () => {
    expect(await data("openSidePanel", undefined, tab(7))).toEqual({ opened: true });
    expect(panelsOpened).toEqual([{ id: 7, windowId: 1 }]);
    // Only a content script's press names a tab: the panel page itself opens nothing this way.
    expect(await data("openSidePanel")).toEqual({ opened: false });
    expect(panelsOpened).toHaveLength(1);
    expect(await data("isCollected", { platform: "1688", itemId: product.itemId }, tab(7))).toBe(false);
    expect(await data<TabView>("panelTab", { tabId: 7 })).toMatchObject({ tabId: 7, phase: "seen", item: { itemId: product.itemId } });

    const outcome = await data<{ collectionId: string }>("collect", fixture.product, tab(7));
    expect(await data<TabView>("panelTab", { tabId: 7 })).toMatchObject({ phase: "collected", collectionId: outcome.collectionId });
    // Another tab knows nothing of it.
    expect(await data("panelTab", { tabId: 8 })).toBeNull();

    const first = await data<{ product: ProductDetail; tab: TabView }>("openProduct", { tabId: 7 });
    opened = first.product;
    expect(first.product).toMatchObject({ title: { zh: "2024夏季新款纯棉短袖T恤女宽松百搭上衣" }, currency: "CNY" });
    expect(first.product.variantModel.items.length).toBeGreaterThan(1);
    expect(first.tab).toMatchObject({ productId: first.product.id });
    // The collection was moved to the products, as the console's collection box does.
    const collection = await s.api("GET", `/api/Collect/GetCollectById?id=${outcome.collectionId}`, { token: a.token });
    expect(collection.body.result.status).toBe(2);

    // The same item on another tab (or the worker forgetting the tab) finds the same product: no second one.
    await data("isCollected", { platform: "1688", itemId: product.itemId }, tab(9));
    const again = await data<{ product: ProductDetail }>("openProduct", { tabId: 9 });
    expect(again.product.id).toBe(first.product.id);
    const listed = await s.api("POST", "/api/Product/GetProductsByPage", { token: a.token, body: { sourceIds: [product.itemId] } });
    expect(listed.body.result.items).toHaveLength(1);

    const recent = await data<RecentProduct[]>("getRecent");
    expect(recent).toEqual([expect.objectContaining({ id: first.product.id, title: "2024夏季新款纯棉短袖T恤女宽松百搭上衣" })]);
  });

  it("a tab without a product page answers with what is missing", async () => {
    const r = await send("openProduct", { tabId: 42 });
    expect(r).toMatchObject({ ok: false, error: { message: "当前页面不是可采集的商品页" } });
  });

  it("a press's collection becomes the product while the panel page loads; the panel's open answers that product", async () => {
    const other = (itemId: string) => ({ ...fixture.product, itemId, sourceUrl: product.sourceUrl.replace(product.itemId, itemId) });
    const productsOf = async (itemId: string) =>
      (await s.api("POST", "/api/Product/GetProductsByPage", { token: a.token, body: { sourceIds: [itemId] } })).body.result.items as {
        id: string;
      }[];
    // Pressed: the panel opens, and the collection is moved to the products before the panel asks.
    expect(await data("openSidePanel", undefined, tab(21))).toEqual({ opened: true });
    const outcome = await data<{ collectionId: string }>("collect", other("712345600021"), tab(21));
    let made: { id: string }[] = [];
    for (let i = 0; i < 100 && made.length === 0; i++) {
      made = await productsOf("712345600021");
      if (!made.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(made).toHaveLength(1);
    const collection = await s.api("GET", `/api/Collect/GetCollectById?id=${outcome.collectionId}`, { token: a.token });
    expect(collection.body.result.status).toBe(2);
    const opened21 = await data<{ product: ProductDetail; tab: TabView }>("openProduct", { tabId: 21 });
    expect(opened21.product.id).toBe(made[0].id);
    expect(opened21.tab).toMatchObject({ productId: made[0].id });
    expect(await productsOf("712345600021")).toHaveLength(1);

    // Collected without a press (no panel opened for it): it stays in the collection box.
    await data("collect", other("712345600022"), tab(22));
    await new Promise((r) => setTimeout(r, 500));
    expect(await productsOf("712345600022")).toHaveLength(0);
  });

  it("the tab carries the collected page's editable core from the collect message on, until its product is opened", async () => {
    const itemId = "712345600031";
    const page = { ...fixture.product, itemId, sourceUrl: product.sourceUrl.replace(product.itemId, itemId) };
    await data("isCollected", { platform: "1688", itemId }, tab(31));
    expect((await data<TabView>("panelTab", { tabId: 31 })).core).toBeUndefined();
    // Asked while the collection is still on its way to the server: the page's images, titles and price are there.
    const collecting = send("collect", page, tab(31));
    const during = await data<TabView>("panelTab", { tabId: 31 });
    expect(during.phase).not.toBe("collected");
    expect(during.core).toEqual({
      platform: "1688",
      itemId,
      title: fixture.product.title,
      images: fixture.product.images,
      price: fixture.product.price,
      currency: "CNY",
      stock: fixture.product.stock ?? null,
    });
    expect(await collecting).toMatchObject({ ok: true });
    const opened31 = await data<{ product: ProductDetail; tab: TabView }>("openProduct", { tabId: 31 });
    // The stored product shows the same core the panel showed first.
    expect(opened31.product).toMatchObject({ title: { zh: fixture.product.title.zh }, currency: "CNY" });
    expect(opened31.product.images).toEqual(expect.arrayContaining(fixture.product.images.slice(0, 1)));
    // Once the product is opened the core is of no more use.
    expect(opened31.tab.core).toBeUndefined();
    expect((await data<TabView>("panelTab", { tabId: 31 })).core).toBeUndefined();
    // Another tab's page is not this one's.
    expect((await data<TabView | null>("panelTab", { tabId: 32 }))?.core).toBeUndefined();
  });

  it("a press reads the shop groups beside the collection; the panel's publish section then takes them without a call", async () => {
    // What an earlier press read is taken first (a press reads them only when none fresh are waiting).
    await data("getShopGroups");
    const before = groupReads;
    expect(await data("openSidePanel", undefined, tab(41))).toEqual({ opened: true });
    for (let i = 0; i < 100 && groupReads === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(groupReads).toBe(before + 1);
    expect(await data("getShopGroups")).toEqual([]);
    expect(groupReads).toBe(before + 1);
    // Used once: asked again, they are read again.
    expect(await data("getShopGroups")).toEqual([]);
    expect(groupReads).toBe(before + 2);
  });

  it("saves through CreateOrUpdateProduct with the stamp read; a stale stamp is refused with the server's message", async () => {
    const saved = await data<SaveOutcome>("saveProduct", {
      id: opened.id,
      concurrencyStamp: opened.concurrencyStamp,
      price: 31.5,
      title: { ...opened.title, es: "Camiseta de algodón" },
    });
    expect(saved).toMatchObject({ outcome: "saved", product: { price: "31.50", title: { es: "Camiseta de algodón" } } });
    const stale = await send("saveProduct", { id: opened.id, concurrencyStamp: opened.concurrencyStamp, price: 40 });
    expect(stale).toMatchObject({ ok: false, error: { status: 409 } });
    opened = (saved as { product: ProductDetail }).product;
  });

  it("while the server is unreachable an edit waits in the queue (the newest per product) and is delivered once", async () => {
    down = true;
    const body = { id: opened.id, concurrencyStamp: opened.concurrencyStamp, price: 45, stock: 9 };
    expect(await data("saveProduct", { ...body, price: 44 })).toMatchObject({ outcome: "queued", pending: 1 });
    expect(await data("saveProduct", body)).toMatchObject({ outcome: "queued", pending: 1 });
    expect(await data("getEdits")).toEqual({ pending: 1 });
    // Still down: nothing leaves the queue.
    expect(await data("flushEdits")).toEqual({ sent: 0, pending: 1 });

    down = false;
    const before = saves;
    expect(await data("flushEdits")).toEqual({ sent: 1, pending: 0 });
    expect(saves - before).toBe(1);
    // Open panels were told of each queued edit and of the delivery.
    expect(pushed).toEqual([
      [0, 0],
      [0, 0],
      [1, 0],
    ]);
    const now = await s.api("GET", `/api/Product/GetProductById?id=${opened.id}`, { token: a.token });
    expect(now.body.result).toMatchObject({ price: "45.00", stock: 9 });
    // Asked again (the alarm, a login): nothing is sent twice.
    expect(await data("flushEdits")).toEqual({ sent: 0, pending: 0 });
    await edits.flush();
    expect(saves - before).toBe(1);

    // An edit queued against a version someone has saved over since is refused when it arrives (409), dropped, and
    // the panel is told it was refused.
    down = true;
    expect(await data("saveProduct", { ...body, price: 99 })).toMatchObject({ outcome: "queued" });
    down = false;
    expect(await data("flushEdits")).toEqual({ sent: 1, pending: 0 });
    expect(pushed.at(-1)).toEqual([1, 1]);
    expect((await s.api("GET", `/api/Product/GetProductById?id=${opened.id}`, { token: a.token })).body.result.price).toBe("45.00");
  });

  it("the shop groups, the pre-flight and the category calls go through with the user's token", async () => {
    expect(await data("getShopGroups")).toEqual([]);
    const tree = await data<{ tree: unknown[] }>("getCategoryTree", { site: 1 });
    expect(Array.isArray(tree.tree)).toBe(true);
    const weight = await data<{ hasBasis: boolean }>("predictWeight", { title: "纯棉短袖T恤", productId: opened.id });
    expect(typeof weight.hasBasis).toBe("boolean");
  });

  it("follows a publish batch by its id (GetPublishBatch), however many batches are newer; another tenant's is not found", async () => {
    await data("login", { serverUrl, tenant: a.tenantName, userName: "boss", password: a.password });
    const batch = (tenantId: string) =>
      insertPublishBatch(s, tenantId, { sites: [1], status: PublishBatchStatus.Running, total: 3, success: 1 });
    const mine = await batch(a.tenantId);
    // The panel's batch is not among the 20 newest (what the panel searched before).
    for (let i = 0; i < 21; i++) await batch(a.tenantId);
    called.length = 0;
    const view = await data<BatchView>("getBatch", { batchId: mine });
    expect(view.batch).toMatchObject({ id: mine, status: PublishBatchStatus.Running, total: 3, success: 1, sites: [1] });
    expect(view.listings).toEqual([]);
    expect(called.sort()).toEqual(["/api/MeliStatNew/GetPublishBatch", "/api/MeliStatNew/GetPublishBatchListings"]);

    const b = await s.createTenant();
    const theirs = await send("getBatch", { batchId: await batch(b.tenantId) });
    // A 404 (the client shows spec §8's text for it; the server's 刊登批次不存在 stays with the error).
    expect(theirs).toMatchObject({ ok: false, error: { status: 404 } });
    // The request names the batch only: the shop group it was searched in before is refused.
    expect((await send("getBatch", { batchId: mine, accountGroupId: randomUUID() })).ok).toBe(false);
  });

  it("a sub-account publishes only to its own shops (the server scopes the shop groups)", async () => {
    const sub = await s.createSubUser(a);
    expect((await connectShop(s, a.token, { nickname: "MAIN_SHOP" })).ok).toBe(true);
    expect((await connectShop(s, sub.token, { nickname: "SUB_SHOP" })).ok).toBe(true);
    const mine = await data<{ name: string }[]>("getShopGroups");
    expect(mine.map((g) => g.name).sort()).toEqual(["MAIN_SHOP", "SUB_SHOP"]);
    await data("login", { serverUrl, tenant: a.tenantName, userName: sub.userName, password: sub.password });
    const theirs = await data<{ name: string; sites: number[] }[]>("getShopGroups");
    expect(theirs).toEqual([expect.objectContaining({ name: "SUB_SHOP", sites: [1] })]);
  });
});
