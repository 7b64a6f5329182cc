// The product as several processes behind a real pooler (issue 29, README "Several processes behind PgBouncer"): PgBouncer
// in transaction pooling mode (e2e/pgbouncer.ts) in front of one fresh, empty PostgreSQL database, and 2 ROLE=api + 2
// ROLE=worker processes started at the same moment, each with DATABASE_URL through the pooler and DATABASE_DIRECT_URL
// beside it, one DATA_DIR and one signing key. It proves:
//   - the four starts together migrate the empty database once and create one administrator and one demo tenant;
//   - requests spread over both API processes (a token of one is taken by the other, a write on one is read on the
//     other, many concurrent calls on both through the pooler);
//   - jobs run on both workers and none runs twice: a crawl (each page fetched once), an export (one job, one file,
//     downloaded from the other API process) and a publish against the sandbox (each worker reaches the sandbox through
//     its own recording tap: both created items, 0 duplicates);
//   - a worker SIGKILLed mid-publish loses nothing: the other finishes the batch, every listing Active, 0 duplicates;
//   - the event stream reaches a user whose stream is on the other API process than the one that started the work.
// PostgreSQL only: the suite's PGlite run (no DATABASE_URL, one owner process) leaves it out (vitest.config.ts); run
// alone without DATABASE_URL it fails, saying so.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListingStatus, PublishBatchStatus, TaskStatus } from "#shared/contract/enums.ts";
import type { ProgressEvent } from "#shared/contract/events.ts";
import { openEventStream, type EventStream, type Frame } from "../server/testing/event-stream.ts";
import { accessToken, callApi, createFreshPostgresDatabase, parseFirstStart, until } from "./app-process.ts";
import { startPgBouncer, type PgBouncer } from "./pgbouncer.ts";
import {
  ADMIN_PASSWORD,
  appEnv,
  listingsOf,
  prepareSeller,
  publishTagged,
  sellerCalls,
  sleep,
  startSandboxProcess,
  startServer,
  startTap,
  waitForBatch,
  type Proc,
  type SandboxProcess,
  type Seller,
  type Tap,
} from "./publish-rig.ts";

const databaseUrl = process.env.DATABASE_URL;
const SPREAD = 20;
const CRASH = 30;
const PAGES = 8;

let sandbox: SandboxProcess;
let bouncer: PgBouncer;
let direct: pg.Client;
let site: Server;
let siteUrl: string;
const pageHits = new Map<string, number>();
let dataDir: string;
let apis: Proc[];
/** The workers, each with its own tap to the sandbox (the tap tells which worker made a Mercado Libre call). */
let workers: { proc: Proc; tap: Tap }[];
let seller: Seller;
let firstStarts: string[];
const cleanups: (() => Promise<unknown> | unknown)[] = [];
const figures: string[] = [];

const productPage = (n: string) => `<!doctype html><html lang="en"><head><title>Pooled Mug ${n}</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Pooled mug ${n}","sku":"POOL-${n}",
"image":["https://cdn.shop.test/mug-${n}.jpg"],"offers":{"@type":"Offer","price":"9.90","priceCurrency":"USD"}}</script></head>
<body><h1>Pooled mug ${n}</h1></body></html>`;

/** The demo seller's event stream on the API process at `url`, once it is live. */
async function openStream(url: string): Promise<EventStream> {
  const stream = await openEventStream(url, seller.token);
  expect(stream.status).toBe(200);
  await stream.waitFor((f) => f.event === "ready", 30_000);
  return stream;
}

const progressOf = (id: string, done: (e: ProgressEvent) => boolean) => (f: Frame) =>
  f.event === "progress" && (f.data as ProgressEvent).id === id && done(f.data as ProgressEvent);

/** Item creations (POST /items) that reached the sandbox through a worker's tap since `from`. */
const creationsVia = (tap: Tap, from = 0) => sellerCalls(tap.calls.slice(from), true).filter((c) => c.status < 300).length;

/** The queue's record of a job name: how many jobs, and how many were attempted more than once or are not completed. */
async function jobRecord(name: string) {
  const r = await direct.query<{ jobs: number; retried: number; unfinished: number }>(
    `select count(*)::int as jobs, count(*) filter (where retry_count > 0)::int as retried,
            count(*) filter (where state <> 'completed')::int as unfinished
       from pgboss.job where name = $1`,
    [name],
  );
  return r.rows[0];
}

/** The job record once no job of that name is still queued or running (a failed or retried one stays counted). */
async function settledJobRecord(name: string) {
  await until(
    `${name} jobs settled`,
    async () =>
      (
        await direct.query<{ running: number }>(
          `select count(*)::int as running from pgboss.job where name = $1 and state in ('created', 'active')`,
          [name],
        )
      ).rows[0].running,
    (running) => running === 0,
    30_000,
  );
  return jobRecord(name);
}

beforeAll(async () => {
  if (!databaseUrl) throw new Error("e2e/pooler.test.ts runs on PostgreSQL: set DATABASE_URL");
  sandbox = await startSandboxProcess();
  cleanups.push(() => sandbox.proc.kill());
  const taps = [await startTap(sandbox.url), await startTap(sandbox.url)];
  for (const t of taps) cleanups.push(() => t.close());
  // An empty database: the four processes starting together migrate it (one of them; the others wait and find it done).
  const database = await createFreshPostgresDatabase(databaseUrl, "erp_pooler");
  cleanups.unshift(() => database.drop());
  bouncer = await startPgBouncer(database.url, { poolSize: 20 });
  cleanups.unshift(() => bouncer.stop());
  direct = new pg.Client({ connectionString: database.url });
  await direct.connect();
  cleanups.unshift(() => direct.end());

  site = createServer((req, res) => {
    pageHits.set(req.url ?? "", (pageHits.get(req.url ?? "") ?? 0) + 1);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(productPage((req.url ?? "").split("/").pop() ?? "0"));
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  cleanups.push(() => new Promise((r) => site.close(r)));

  dataDir = mkdtempSync(join(tmpdir(), "erp-pooler-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // What every process shares (README): the database, DATA_DIR, the signing key, the Mercado Libre settings.
  const env = {
    ...appEnv({ dataDir, databaseUrl: bouncer.url, apiUrl: sandbox.url, sandboxUrl: sandbox.url }),
    DATABASE_DIRECT_URL: database.url,
    DB_POOL_SIZE: "8",
    CRAWL_ALLOW_PRIVATE: "1",
  };
  const started = await Promise.allSettled([
    startServer(env, "api"),
    startServer(env, "api"),
    startServer({ ...env, MELI_API_URL: taps[0].url }, "worker"),
    startServer({ ...env, MELI_API_URL: taps[1].url }, "worker"),
  ]);
  for (const s of started) if (s.status === "fulfilled") cleanups.unshift(() => s.value.kill());
  const failed = started.find((s) => s.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const procs = started.map((s) => (s as PromiseFulfilledResult<Proc>).value);
  apis = procs.slice(0, 2);
  workers = procs.slice(2).map((proc, i) => ({ proc, tap: taps[i] }));
  firstStarts = procs.map((p) => p.output());

  // The seller's set-up on the first API process; the first start's output is that of whichever process created it.
  const withFirstStart = { ...apis[0], output: () => firstStarts.join("\n") };
  seller = await prepareSeller(withFirstStart, sandbox, {
    nickname: "POOLERSELLER",
    products: [
      { tag: "spread", count: SPREAD },
      { tag: "crash", count: CRASH },
    ],
  });
}, 240_000);

afterAll(async () => {
  const procs = [...(apis ?? []), ...(workers ?? []).map((w) => w.proc)];
  const errors = procs.flatMap((p) => p.output().split("\n")).filter((l) => /"level":(50|60)|\[fatal\]/.test(l));
  if (procs.length)
    figures.push(
      `error lines in the processes' output: ${errors.length}${errors.length ? `\n    ${errors.slice(0, 5).join("\n    ")}` : ""}`,
    );
  if (figures.length) console.log(`several processes behind PgBouncer:\n  ${figures.join("\n  ")}`);
  for (const c of cleanups) await c();
});

describe("2 API + 2 worker processes behind PgBouncer (transaction pooling)", () => {
  it("four processes starting at once on an empty database: one migration, one administrator, one demo tenant", async () => {
    expect(firstStarts.filter((o) => /\[first start\] host administrator/.test(o))).toHaveLength(1);
    expect(firstStarts.filter((o) => parseFirstStart(o).demo)).toHaveLength(1);
    const migrations = await direct.query<{ n: number }>(`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const hashes = await direct.query<{ n: number }>(`select count(distinct hash)::int as n from drizzle.__drizzle_migrations`);
    expect(migrations.rows[0].n).toBeGreaterThan(0);
    expect(migrations.rows[0].n).toBe(hashes.rows[0].n);
    const admins = await direct.query<{ n: number }>(`select count(*)::int as n from users where is_host`);
    expect(admins.rows[0].n).toBe(1);
  });

  it("requests spread over both API processes: a token of one is taken by the other, a write on one is read on the other", async () => {
    const [a, b] = apis.map((p) => p.url!);
    const host = await accessToken(b, "admin", ADMIN_PASSWORD);
    const me = await callApi<{ userName: string }>(a, host, "GET", "/api/User/GetUserInfo");
    expect(me.userName).toBe("admin");

    // 200 concurrent calls over both processes, every connection through the pooler: the session check of each call
    // (a statement that is a named prepared statement on a direct connection) and the product list.
    const calls = Array.from({ length: 200 }, (_, i) => i);
    let next = 0;
    const answered = [0, 0];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < calls.length) {
          const i = calls[next++];
          const url = apis[i % 2].url!;
          if (i % 4 < 2) await callApi(url, seller.token, "GET", "/api/User/GetMyInfo");
          else await callApi(url, seller.token, "POST", "/api/Product/GetProductsByPage", { maxResultCount: 20 });
          answered[i % 2]++;
        }
      }),
    );
    expect(answered).toEqual([100, 100]);

    // A product written through one process is read through the other.
    const created = await callApi<{ id: string }>(b, seller.token, "POST", "/api/Product/CreateOrUpdateProduct", {
      title: { es: "Taza agrupada", zh: "杯子" },
      description: { es: "<p>Taza</p>" },
      price: 10,
      currency: "CNY",
      sku: "POOLED-1",
      stock: 1,
      weight: 300,
      size: "10x10x10",
      images: ["https://img.example.com/pooled-1.jpg"],
    });
    const read = await callApi<{ items: { id: string; sku: string }[] }>(a, seller.token, "POST", "/api/Product/GetProductsByPage", {
      maxResultCount: 5,
      sku: "POOLED-1",
    });
    expect(read.items.map((p) => p.id)).toContain(created.id);
  }, 120_000);

  it("a crawl and an export run on the workers once each; the file is downloaded from the other API process", async () => {
    const [a, b] = apis.map((p) => p.url!);
    const stream = await openStream(b);
    const urls = Array.from({ length: PAGES }, (_, i) => `${siteUrl}/p/${i + 1}`);
    await callApi(a, seller.token, "POST", "/api/Collect/CrawlProductByTool", { urls: urls.map((url) => ({ url })) });
    const tasks = await until(
      "crawl",
      () =>
        callApi<{ items: { url: string; taskStatus: number }[] }>(
          b,
          seller.token,
          "GET",
          "/api/Collect/GetCollectTasks?MaxResultCount=100",
        ),
      (page) => page.items.filter((t) => urls.includes(t.url) && t.taskStatus === TaskStatus.Succeeded).length === PAGES,
      60_000,
    );
    expect(tasks.items.filter((t) => urls.includes(t.url))).toHaveLength(PAGES);
    // Each page was fetched exactly once: no crawl job ran twice.
    expect(urls.map((u) => pageHits.get(new URL(u).pathname))).toEqual(urls.map(() => 1));

    const { taskId } = await callApi<{ taskId: string }>(a, seller.token, "POST", "/api/Product/ExportProduct", {
      filter: {},
      columns: ["id", "sku"],
    });
    // Started on the first API process, heard on the second: a worker's NOTIFY through the pooler, the second's LISTEN
    // on its direct connection.
    await stream.waitFor(
      progressOf(taskId, (e) => e.status === TaskStatus.Succeeded),
      60_000,
    );
    stream.close();
    const file = await fetch(`${b}/api/Product/DownloadExport?taskId=${taskId}`, { headers: { authorization: `Bearer ${seller.token}` } });
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    const exportsDir = join(dataDir, "exports");
    expect(readdirSync(exportsDir).flatMap((t) => readdirSync(join(exportsDir, t)))).toEqual([`${taskId}.xlsx`]);
    // The task reports success from inside the job; pg-boss records the job completed just after the handler returns.
    expect(await settledJobRecord("export-products")).toEqual({ jobs: 1, retried: 0, unfinished: 0 });
    expect(await settledJobRecord("collect-crawl")).toMatchObject({ retried: 0, unfinished: 0 });
  }, 120_000);

  it(`a publish of ${SPREAD} runs on both workers, each item created once`, async () => {
    const before = (await sandbox.creations()).creations.length;
    const from = workers.map((w) => w.tap.calls.length);
    const batch = await publishTagged(seller, "spread", SPREAD);
    const done = await waitForBatch(seller, batch.id, 60_000, 250);
    expect(done).toMatchObject({ total: SPREAD, success: SPREAD, fail: 0, status: PublishBatchStatus.Succeeded });
    const rows = await listingsOf(seller, batch.id);
    expect(new Set(rows.map((r) => r.itemId)).size).toBe(SPREAD);
    const perWorker = workers.map((w, i) => creationsVia(w.tap, from[i]));
    figures.push(`publish of ${SPREAD} with both workers: items created per worker ${perWorker.join(" + ")}`);
    expect(perWorker.every((n) => n > 0)).toBe(true);
    expect(perWorker[0] + perWorker[1]).toBe(SPREAD);
    const { creations, duplicates } = await sandbox.creations();
    expect(creations.length - before).toBe(SPREAD);
    expect(duplicates).toEqual([]);
  }, 120_000);

  it(`a worker SIGKILLed mid-publish of ${CRASH}: the other finishes it, nothing lost, nothing created twice, the stream on the other API process hears it end`, async () => {
    const [a, b] = apis.map((p) => p.url!);
    expect(seller.url).toBe(a);
    const stream = await openStream(b);
    const before = (await sandbox.creations()).creations.length;
    const from = workers.map((w) => w.tap.calls.length);
    const batch = await publishTagged(seller, "crash", CRASH);
    // Killed once some items exist and before all do: the worker that has created the most of them so far.
    let created = 0;
    for (let i = 0; i < 3000 && created < 4; i++) {
      created = (await sandbox.creations()).creations.length - before;
      if (created < 4) await sleep(10);
    }
    const perWorker = workers.map((w, i) => creationsVia(w.tap, from[i]));
    const victim = perWorker[0] >= perWorker[1] ? 0 : 1;
    await workers[victim].proc.kill("SIGKILL");
    const killedAt = performance.now();
    const atKill = (await sandbox.creations()).creations.length - before;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(CRASH);

    const done = await waitForBatch(seller, batch.id, 90_000, 250);
    const recovered = performance.now();
    const rows = await listingsOf(seller, batch.id);
    const { creations, duplicates } = await sandbox.creations();
    figures.push(
      `worker ${victim + 1} SIGKILLed with ${atKill}/${CRASH} items created; all ${rows.filter((r) => r.status === ListingStatus.Active).length}/${CRASH} Active ` +
        `${((recovered - killedAt) / 1000).toFixed(1)} s after the kill; creations ${creations.length - before}, duplicates ${duplicates.length}`,
    );
    expect(done).toMatchObject({ total: CRASH, success: CRASH, fail: 0, status: PublishBatchStatus.Succeeded });
    expect(rows.every((r) => r.status === ListingStatus.Active && r.itemId)).toBe(true);
    expect(new Set(rows.map((r) => r.itemId)).size).toBe(CRASH);
    expect(duplicates).toEqual([]);
    expect(creations.length - before).toBe(CRASH);
    // The survivor created the rest.
    expect(creationsVia(workers[1 - victim].tap, from[1 - victim])).toBeGreaterThan(0);

    // The batch was started on the first API process; the stream on the second heard it finish.
    await stream.waitFor(
      progressOf(batch.id, (e) => e.kind === "publishBatch" && e.success === CRASH),
      30_000,
    );
    stream.close();
  }, 150_000);
});
