// The crawler end to end: CrawlProductByTool creates tasks, the real job queue runs them against pages served on
// loopback under their platforms' real host names (CRAWL_ALLOW_PRIVATE on for this server only, host names mapped to
// 127.0.0.1 as Chromium's --host-resolver-rules would), the shared extractor reads them and the product is stored.
// Blocked pages are a final state after one attempt, 5xx is retried with back-off, 404 is final. A second server with
// the production guard refuses loopback URLs with 0 connections made.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { platformTypeOf } from "#shared/contract/collect.ts";
import { PlatformType, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { extract } from "#shared/extract/extract.ts";
import { crawlTestHooks } from "./crawler.ts";

const fixturesDir = fileURLToPath(new URL("../../../shared/extract/fixtures", import.meta.url));

type Fixture = { name: string; url: string; html: string };

/** Every fixture with a page.html and the URL it was captured at (snapshot.json). */
function fixtures(): Fixture[] {
  if (!existsSync(fixturesDir)) return [];
  const out: Fixture[] = [];
  for (const platform of readdirSync(fixturesDir)) {
    const dir = `${fixturesDir}/${platform}`;
    if (!statSync(dir).isDirectory()) continue;
    for (const shape of readdirSync(dir)) {
      const base = `${dir}/${shape}`;
      if (!statSync(base).isDirectory() || !existsSync(`${base}/page.html`) || !existsSync(`${base}/snapshot.json`)) continue;
      const snap = JSON.parse(readFileSync(`${base}/snapshot.json`, "utf8")) as { url: string };
      out.push({ name: `${platform}/${shape}`, url: snap.url, html: readFileSync(`${base}/page.html`, "utf8") });
    }
  }
  return out;
}

const genericPage = `<!doctype html><html lang="en"><head><title>Plain Mug</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Plain ceramic mug","sku":"MUG-1",
"image":["https://cdn.shop.test/mug.jpg"],"offers":{"@type":"Offer","price":"9.90","priceCurrency":"USD"}}</script></head>
<body><h1>Plain ceramic mug</h1></body></html>`;
const loginPage = `<!doctype html><html><head><title>Sign in</title></head><body><form action="/login">
<input name="user"><input type="password" name="pw"></form></body></html>`;

let s: TestServer;
let guarded: TestServer;
let t: TestTenant;
let site: Server;
let port: number;
const hits = new Map<string, number>();
const pages = new Map<string, { status: number; body: string; failTimes?: number }>();

beforeAll(async () => {
  site = createServer((req, res) => {
    const key = `${String(req.headers.host).split(":")[0]}${req.url}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const page = pages.get(key);
    if (!page) {
      res.writeHead(404, { "content-type": "text/html" });
      return res.end("<h1>not found</h1>");
    }
    if (page.failTimes && hits.get(key)! <= page.failTimes) {
      res.writeHead(503, { "content-type": "text/html" });
      return res.end("busy");
    }
    res.writeHead(page.status, { "content-type": "text/html; charset=utf-8" });
    res.end(page.body);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  port = (site.address() as AddressInfo).port;
  crawlTestHooks.resolveHost = (host) => (host === "localhost" ? undefined : "127.0.0.1");
  const crawl = { ...loadConfig({ TOKEN_SIGNING_KEY: "x".repeat(40), DATA_DIR: "/tmp/erp-crawl-config" }).crawl };
  s = await startTestServer({ crawl: { ...crawl, allowPrivate: true, retryBaseSeconds: 1, maxAttempts: 3, timeoutMs: 5000 } });
  guarded = await startTestServer({ crawl: { ...crawl, allowPrivate: false } });
  t = await s.createTenant();
});
afterAll(async () => {
  crawlTestHooks.resolveHost = undefined;
  await s?.close();
  await guarded?.close();
  await new Promise((r) => site.close(r));
});

/** The URL on the loopback site for a page's real address (same host and path, plain http on the test port). */
function serve(realUrl: string, body: string, status = 200, failTimes = 0): string {
  const u = new URL(realUrl);
  pages.set(`${u.hostname}${u.pathname}${u.search}`, { status, body, failTimes });
  return `http://${u.hostname}:${port}${u.pathname}${u.search}`;
}

async function crawl(server: TestServer, token: string, urls: { url: string; weight?: number }[], extra: Record<string, unknown> = {}) {
  const res = await server.api("POST", "/api/Collect/CrawlProductByTool", { token, body: { urls, ...extra } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { taskIds: string[]; successCount: number; ignoreCount: number };
}

async function waitForTasks(server: TestServer, token: string, ids: string[], timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.api("GET", "/api/Collect/GetCollectTasks", { token, query: { MaxResultCount: 1000 } });
    expect(res.status, res.raw).toBe(200);
    const mine = res.body.result.items.filter((x: { id: string }) => ids.includes(x.id));
    const done = mine.filter((x: { taskStatus: number }) => x.taskStatus >= TaskStatus.Succeeded);
    if (done.length === ids.length) return ids.map((id) => mine.find((x: { id: string }) => x.id === id));
    if (Date.now() > deadline) throw new Error(`tasks not finished: ${JSON.stringify(mine)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("CrawlProductByTool on fixtures", () => {
  const all = fixtures();

  it("has fixtures to crawl", () => {
    expect(all.length).toBeGreaterThan(0);
  });

  it("crawls every page fixture: products are stored as the extractor reads them, blocked pages end as blocked", async () => {
    const summary: string[] = [];
    // One at a time: two shapes of a platform may share a URL (a product page and its captcha page).
    for (const f of all) {
      const expected = extract({ url: f.url, capturedAt: new Date().toISOString(), html: f.html });
      const c = { f, expected, url: serve(f.url, f.html) };
      const { taskIds } = await crawl(s, t.token, [{ url: c.url }]);
      const [task] = await waitForTasks(s, t.token, taskIds);
      summary.push(`${c.f.name}: ${c.expected.status} → ${task.taskStatus} ${task.message}`);
      if ((c.expected.status === "ok" || c.expected.status === "partial") && c.expected.product) {
        expect(task, c.f.name).toMatchObject({ taskStatus: TaskStatus.Succeeded, sku: c.expected.product.itemId, attempts: 1 });
        const detail = await s.api("GET", "/api/Collect/GetCollectById", { token: t.token, query: { id: task.collectionId } });
        expect(detail.body.result, c.f.name).toMatchObject({
          itemId: c.expected.product.itemId,
          platformType: platformTypeOf(c.expected.product.platform),
          title: c.expected.product.title,
          incompleteFields: c.expected.incompleteFields ?? [],
        });
        if (c.expected.status === "partial") expect(task.message, c.f.name).toContain("部分字段未采集: 价格、规格");
      } else if (c.expected.status === "blocked") {
        expect(task, c.f.name).toMatchObject({ taskStatus: TaskStatus.Failed, message: `blocked: ${c.expected.block}`, attempts: 1 });
      } else {
        expect(task.taskStatus, c.f.name).toBe(TaskStatus.Failed);
      }
    }
    console.log("[crawler] fixtures\n  " + summary.join("\n  "));
  });

  it("detects the platform from the URL when the request leaves it out, and falls back to generic", async () => {
    const url = serve("https://shop.example.test/p/mug-1", genericPage);
    const { taskIds } = await crawl(s, t.token, [{ url, weight: 420 }, { url }]);
    expect(taskIds).toHaveLength(1); // the duplicate is ignored
    const [task] = await waitForTasks(s, t.token, taskIds);
    expect(task).toMatchObject({ taskStatus: TaskStatus.Succeeded, platformType: PlatformType.Generic, title: "Plain ceramic mug" });
    const detail = (await s.api("GET", "/api/Collect/GetCollectById", { token: t.token, query: { id: task.collectionId } })).body.result;
    expect(detail).toMatchObject({ price: "9.90", currency: "USD", weight: "420.00", platformType: PlatformType.Generic });
    // Crawling it again updates the same collection.
    const again = await crawl(s, t.token, [{ url }]);
    const [second] = await waitForTasks(s, t.token, again.taskIds);
    expect(second.collectionId).toBe(task.collectionId);
    expect(second.message).toContain("已更新");
    const pending = await s.api("POST", "/api/Collect/CrawlProductByTool", {
      token: t.token,
      body: { urls: [{ url: "https://detail.1688.com/offer/1.html" }], platformType: 99 },
    });
    expect(pending.status).toBe(400);
  });

  it("ends a login page as blocked after one attempt", async () => {
    const url = serve("https://members.example.test/item/5", loginPage);
    const [task] = await waitForTasks(s, t.token, (await crawl(s, t.token, [{ url }])).taskIds);
    expect(task).toMatchObject({ taskStatus: TaskStatus.Failed, message: "blocked: login", attempts: 1 });
  });

  it("retries 5xx with back-off until the page answers, and ends 404 at once", async () => {
    const flaky = serve("https://flaky.example.test/p/2", genericPage.replace("MUG-1", "MUG-2"), 200, 2);
    const missing = `http://gone.example.test:${port}/p/404`;
    const { taskIds } = await crawl(s, t.token, [{ url: flaky }, { url: missing }]);
    const [ok, gone] = await waitForTasks(s, t.token, taskIds, 45_000);
    expect(ok).toMatchObject({ taskStatus: TaskStatus.Succeeded, attempts: 3 });
    expect(hits.get("flaky.example.test/p/2")).toBe(3);
    expect(gone).toMatchObject({ taskStatus: TaskStatus.Failed, attempts: 1, message: "采集失败：HTTP 404" });
    // ReCrawlTasks runs a finished task again from a first attempt.
    const re = await s.api("POST", "/api/Collect/ReCrawlTasks", { token: t.token, body: { ids: [gone.id] } });
    expect(re.body.result).toEqual({ count: 1 });
    const [again] = await waitForTasks(s, t.token, [gone.id]);
    expect(again).toMatchObject({ taskStatus: TaskStatus.Failed, attempts: 1 });
  });

  it("records the request in the task centre with its progress", async () => {
    const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", {
      token: t.token,
      query: { TaskType: TaskType.Collect, MaxResultCount: 50 },
    });
    expect(res.body.result.totalCount).toBeGreaterThan(0);
    for (const info of res.body.result.items) {
      expect(info.taskStatus === TaskStatus.Succeeded || info.taskStatus === TaskStatus.Failed, JSON.stringify(info)).toBe(true);
      expect(info.progress).toBe(100);
    }
  });

  it("lists tasks with the spec's filters, a sub-account only its own, another tenant nothing", async () => {
    const sub = await s.createSubUser(t);
    const url = serve("https://shop.example.test/p/sub-1", genericPage.replace("MUG-1", "SUB-1"));
    const [task] = await waitForTasks(s, sub.token, (await crawl(s, sub.token, [{ url }])).taskIds);
    const mine = await s.api("GET", "/api/Collect/GetCollectTasks", { token: sub.token });
    expect(mine.body.result.items.map((x: { id: string }) => x.id)).toEqual([task.id]);
    const main = await s.api("GET", "/api/Collect/GetCollectTasks", { token: t.token, query: { UserId: sub.id } });
    expect(main.body.result.items.map((x: { id: string }) => x.id)).toEqual([task.id]);
    expect(
      (await s.api("GET", "/api/Collect/GetCollectTasks", { token: t.token, query: { Search: "sub-1" } })).body.result.totalCount,
    ).toBe(1);
    expect(
      (await s.api("GET", "/api/Collect/GetCollectTasks", { token: t.token, query: { TaskStatus: TaskStatus.Running } })).body.result
        .totalCount,
    ).toBe(0);
    expect(
      (await s.api("GET", "/api/Collect/GetCollectTasks", { token: t.token, query: { Sku: task.sku } })).body.result.totalCount,
    ).toBeGreaterThan(0);
    const other = await s.createTenant();
    expect((await s.api("GET", "/api/Collect/GetCollectTasks", { token: other.token })).body.result).toEqual({ items: [], totalCount: 0 });
    expect((await s.api("POST", "/api/Collect/ReCrawlTasks", { token: other.token, body: { ids: [task.id] } })).body.result).toEqual({
      count: 0,
    });
    const bad: Record<string, string | number>[] = [{ TaskStatus: 5 }, { StartDate: "x" }, { Sorting: "url" }, { UserId: "nope" }];
    for (const q of bad) {
      expect((await s.api("GET", "/api/Collect/GetCollectTasks", { token: t.token, query: q })).status, JSON.stringify(q)).toBe(400);
    }
  });
});

describe("the production guard through the whole stack", () => {
  it("refuses loopback and metadata URLs as a final task state, with 0 connections to the target", async () => {
    const g = await guarded.createTenant();
    const before = [...hits.values()].reduce((a, b) => a + b, 0);
    const { taskIds } = await crawl(guarded, g.token, [
      { url: `http://127.0.0.1:${port}/p/1` },
      { url: `http://localhost:${port}/p/1` },
      { url: "http://169.254.169.254/latest/meta-data/" },
      { url: `http://[::ffff:127.0.0.1]:${port}/p/1` },
    ]);
    const tasks = await waitForTasks(guarded, g.token, taskIds);
    for (const task of tasks) {
      expect(task.taskStatus).toBe(TaskStatus.Failed);
      expect(task.message).toContain("refused");
      expect(task.attempts).toBe(1);
    }
    expect([...hits.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });
});
