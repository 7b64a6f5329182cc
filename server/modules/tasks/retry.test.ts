// RetryTask end to end: a crawl whose page was missing fails, the page appears, the task centre's retry crawls it again
// through the real queue and the record ends succeeded. Who may retry, and which task types can be.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { taskInfos } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { TaskInfo } from "#shared/contract/tasks.ts";
import { crawlTestHooks } from "../collects/crawler.ts";

const productPage = `<!doctype html><html lang="en"><head><title>Plain Mug</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Plain ceramic mug","sku":"MUG-7",
"image":["https://cdn.shop.test/mug.jpg"],"offers":{"@type":"Offer","price":"9.90","priceCurrency":"USD"}}</script></head>
<body><h1>Plain ceramic mug</h1></body></html>`;

let s: TestServer;
let site: Server;
let port: number;
let a: TestTenant;
let b: TestTenant;
let sub: { id: string; token: string };
/** Whether the shop page exists yet: a 404 fails the crawl at once (final, no queue retries). */
let pagePublished = false;

beforeAll(async () => {
  site = createServer((_req, res) => {
    if (!pagePublished) {
      res.writeHead(404, { "content-type": "text/html" });
      return res.end("<h1>not found</h1>");
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(productPage);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  port = (site.address() as AddressInfo).port;
  crawlTestHooks.resolveHost = (host) => (host === "localhost" ? undefined : "127.0.0.1");
  const crawl = loadConfig({ TOKEN_SIGNING_KEY: "x".repeat(40), DATA_DIR: "/tmp/erp-retry-config" }).crawl;
  s = await startTestServer({ crawl: { ...crawl, allowPrivate: true, timeoutMs: 5000 } });
  a = await s.createTenant();
  b = await s.createTenant();
  sub = await s.createSubUser(a);
});
afterAll(async () => {
  crawlTestHooks.resolveHost = undefined;
  await s?.close();
  await new Promise((r) => site.close(r));
});

const retry = (token: string, id: string) => s.api("POST", "/api/TaskInfo/RetryTask", { token, body: { id } });

async function collectRecord(token: string): Promise<TaskInfo> {
  const res = await s.api("GET", "/api/TaskInfo/GetTaskInfoByPage", { token, query: { TaskType: TaskType.Collect } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result.items[0];
}

async function waitForRecord(token: string, done: (t: TaskInfo) => boolean): Promise<TaskInfo> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const t = await collectRecord(token);
    if (t && done(t)) return t;
    if (Date.now() > deadline) throw new Error(`task not finished: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("RetryTask", () => {
  it("crawls a failed crawl's pages again; only the tenant's main account or the creator may", async () => {
    const url = `http://mugs.example.test:${port}/p/7`;
    const crawl = await s.api("POST", "/api/Collect/CrawlProductByTool", { token: a.token, body: { urls: [{ url }] } });
    expect(crawl.status, crawl.raw).toBe(200);
    const failed = await waitForRecord(a.token, (t) => t.taskStatus === TaskStatus.Failed);
    expect(failed).toMatchObject({ progress: 100, taskRemark: "成功 0，失败 1，共 1", creatorName: a.userName });

    // Another tenant and a sub-account that did not start it do not see it.
    expect((await retry(b.token, failed.id)).status).toBe(404);
    expect((await retry(sub.token, failed.id)).status).toBe(404);

    pagePublished = true;
    const res = await retry(a.token, failed.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toEqual({ count: 1 });
    const done = await waitForRecord(a.token, (t) => t.taskStatus === TaskStatus.Succeeded);
    expect(done).toMatchObject({ id: failed.id, progress: 100, taskRemark: "成功 1，失败 0，共 1" });
    const collected = await s.api("GET", "/api/Collect/GetCollectTasks", { token: a.token, query: {} });
    expect(collected.body.result.items[0]).toMatchObject({ taskStatus: TaskStatus.Succeeded, url });

    // Finished well, it is no longer retried.
    const again = await retry(a.token, failed.id);
    expect(again.status).toBe(403);
    expect(again.body.error.message).toBe("只有失败的任务可以重试");
  });

  it("refuses a failed task of a type whose input only its job kept, and an unknown id", async () => {
    const id = randomUUID();
    await inScope(s.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.insert(taskInfos).values({
        tenantId: a.tenantId,
        id,
        taskType: TaskType.ExportProducts,
        taskStatus: TaskStatus.Failed,
        content: "导出商品（按筛选条件）",
        creatorId: a.userId,
      }),
    );
    const res = await retry(a.token, id);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "Task.NotRetryable", message: "该类任务不能在任务中心重试，请在发起它的页面重新发起" });
    expect((await retry(a.token, randomUUID())).status).toBe(404);
    expect((await retry(a.token, "not-an-id")).status).toBe(400);
  });
});
