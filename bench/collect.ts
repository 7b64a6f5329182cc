// Collection benchmark (issue 4): the server crawler and the URL import, end to end through the real server process
// (`node scripts/start.mjs`, what `npm start` runs) with CRAWL_ALLOW_PRIVATE=1 so it may fetch a loopback site.
//
//   npx tsx bench/collect.ts                                  # PGlite (fresh DATA_DIR)
//   npx tsx bench/collect.ts --db=postgres                    # a fresh database on --pg-url, dropped after
//   npx tsx bench/collect.ts --db=both --pages=200 --concurrency=1,2,4,8 --urls=10000 --import-workers=1,8 --import-minutes=6
//   npx tsx bench/collect.ts --skip=crawl,import --core-concurrency=1,4,16   # the in-process crawler core only
//
// The product pages come from a loopback HTTP server in this process: the generic JSON-LD fixtures
// (shared/extract/fixtures/generic/json-ld-*) at http://127.0.0.1:PORT/p/<run>-<n>.html, each with a distinct product
// id. The platform fixtures cannot be used here: they must be fetched under their real host names, and the server
// process has no way to map those names to loopback (only the in-process test hook crawlTestHooks.resolveHost does).
//
// Phases, per database:
//  (a) crawler throughput: CrawlProductByTool with --pages URLs (in requests of ≤ 500), timed until every task has
//      finished. "Concurrency" is the number of processes running the job workers: the API process (ROLE=all) plus
//      concurrency−1 `ROLE=worker` processes on the same database (PostgreSQL only; PGlite has one owner process).
//      Each process runs one crawl job at a time (the queue's worker takes one job per fetch).
//  (b) import: POST /api/AquiredUrl/ImportUrls with a txt file of --urls product URLs, the call's latency, then the
//      dispatcher turns them into crawl tasks until none is waiting or running (GetStatics polled every 2 s), bounded
//      by --import-minutes: when the bound is reached the figures are the URLs finished so far, their rate, and the
//      time the rest would take at that rate (marked as an extrapolation).
//  (c) the crawler core in this process, without the queue or the database: crawlFetch (the SSRF-guarded fetch) and
//      the shared extractor on the same pages, --core-concurrency pages at a time. The ceiling the crawler itself has.
//
// Prints the machine and markdown tables; writes the raw figures as JSON into bench/.data/.
import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { accessToken, cleanEnv, createFreshPostgresDatabase, freePort, repoRoot, startApp, type AppProcess } from "../e2e/app-process.ts";
import { crawlFetch, createHostQueues } from "../server/modules/collects/fetch.ts";
import { extract } from "#shared/extract/extract.ts";
import { loadAvg, processCpuSeconds } from "./measure.ts";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "pglite" },
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
    pages: { type: "string", default: "200" },
    concurrency: { type: "string", default: "1" },
    urls: { type: "string", default: "10000" },
    "import-minutes": { type: "string", default: "10" },
    "import-workers": { type: "string", default: "1" },
    "core-concurrency": { type: "string", default: "1,4,16" },
    "core-pages": { type: "string", default: "2000" },
    "log-level": { type: "string", default: "warn" },
    skip: { type: "string", default: "" },
    keep: { type: "boolean", default: false },
  },
});

if (!["pglite", "postgres", "both"].includes(args.db!)) throw new Error(`--db must be pglite, postgres or both, not ${args.db}`);
const dbs =
  args.db === "both" ? (["pglite", "postgres"] as const) : args.db === "postgres" ? (["postgres"] as const) : (["pglite"] as const);
const list = (s: string) =>
  s
    .split(",")
    .map((x) => Number(x.trim()))
    .filter((x) => Number.isInteger(x) && x > 0);
const pagesPerRun = Number(args.pages);
const concurrencies = list(args.concurrency!);
const urlCount = Number(args.urls);
const importMinutes = Number(args["import-minutes"]);
const importWorkers = list(args["import-workers"]!);
const coreConcurrencies = list(args["core-concurrency"]!);
const corePages = Number(args["core-pages"]);
const skip = new Set(args.skip!.split(",").map((s) => s.trim()));
const ADMIN_PASSWORD = "Bench-Admin-1";
const outDir = join(repoRoot, "bench", ".data");
const MAX_URLS_PER_REQUEST = 500;
const TaskStatus = { Pending: 1, Running: 2, Succeeded: 3, Failed: 4 } as const;

// ---------------------------------------------------------------------------------------------------------------
// The machine and CPU accounting (as bench/run.ts).

function machine() {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model;
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync("nproc", { encoding: "utf8" }).trim();
  } catch {
    // os.cpus() then
  }
  return {
    nproc,
    cpuModel: model,
    memGiB: (totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    loadavg: loadAvg(),
  };
}

function machineTicks(): { busy: number; total: number } {
  const v = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] ?? 0);
  return { busy: v.reduce((a, b) => a + b, 0) - idle, total: v.reduce((a, b) => a + b, 0) };
}

/** CPU of the given processes, of this one, and the machine's busy share over a phase. */
function cpuMeter(pids: () => number[]) {
  const p0 = new Map(pids().map((p) => [p, processCpuSeconds(p)]));
  const self0 = process.cpuUsage();
  const m0 = machineTicks();
  const t0 = performance.now();
  return () => {
    const wall = (performance.now() - t0) / 1000;
    let servers = 0;
    for (const p of pids()) servers += processCpuSeconds(p) - (p0.get(p) ?? 0);
    const self = process.cpuUsage(self0);
    const m1 = machineTicks();
    return {
      wall,
      serverCpuPct: (servers / wall) * 100,
      benchCpuPct: ((self.user + self.system) / 1e6 / wall) * 100,
      machineBusyPct: ((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total)) * 100,
    };
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);

// ---------------------------------------------------------------------------------------------------------------
// The loopback product site: generic JSON-LD pages, each with its own product id.

const fixturesDir = join(repoRoot, "shared", "extract", "fixtures", "generic");
const templates = [
  {
    name: "json-ld-aggregate-offer",
    html: readFileSync(join(fixturesDir, "json-ld-aggregate-offer", "page.html"), "utf8"),
    id: '"sku": "DRL-18V-2B"',
    withId: (n: string) => `"sku": "DRL-18V-2B-${n}"`,
  },
  {
    name: "json-ld-product-group",
    html: readFileSync(join(fixturesDir, "json-ld-product-group", "page.html"), "utf8"),
    id: '"productGroupID": "7712345"',
    withId: (n: string) => `"productGroupID": "7712345-${n}"`,
  },
];
for (const t of templates) if (!t.html.includes(t.id)) throw new Error(`fixture ${t.name} no longer has ${t.id}`);

/** The page of product `key` (`<run>-<n>`): the two fixtures in turn, the id made unique. */
function pageFor(key: string): string {
  const n = Number(key.split("-").pop());
  const t = templates[n % templates.length];
  return t.html.replace(t.id, t.withId(key));
}

let siteHits = 0;
async function startSite(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    siteHits++;
    const m = /^\/p\/([a-z0-9]+-\d+)\.html$/.exec(req.url ?? "");
    if (!m) {
      res.writeHead(404, { "content-type": "text/html" });
      return res.end("<h1>not found</h1>");
    }
    const body = pageFor(m[1]);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The pages are products the extractor reads, each with its own id. */
function checkPages(base: string) {
  const ids = new Set<string>();
  for (const key of ["check-0", "check-1", "check-2", "check-3"]) {
    const r = extract({ url: `${base}/p/${key}.html`, capturedAt: new Date().toISOString(), html: pageFor(key) });
    if (r.status !== "ok" || !r.product) throw new Error(`page ${key} is not a product: ${JSON.stringify(r).slice(0, 400)}`);
    ids.add(r.product.itemId);
  }
  if (ids.size !== 4) throw new Error(`pages do not have distinct product ids: ${[...ids].join(", ")}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The API.

type Api = { url: string; token: string };

async function call(api: Api, method: string, path: string, body?: unknown) {
  const res = await fetch(api.url + path, {
    method,
    headers: { authorization: `Bearer ${api.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as { result: any };
}

/** Tasks whose URL contains `marker`, by status. */
async function taskCounts(api: Api, marker: string) {
  const n = async (status: number) =>
    (await call(api, "GET", `/api/Collect/GetCollectTasks?MaxResultCount=1&TaskStatus=${status}&Search=${encodeURIComponent(marker)}`))
      .result.totalCount as number;
  const [succeeded, failed] = await Promise.all([n(TaskStatus.Succeeded), n(TaskStatus.Failed)]);
  return { succeeded, failed };
}

// ---------------------------------------------------------------------------------------------------------------
// Worker processes (ROLE=worker, PostgreSQL only).

type Worker = { child: ChildProcess; stop(): Promise<void> };

async function startWorker(env: Record<string, string | undefined>, logFile: string): Promise<Worker> {
  const { openSync, closeSync, statSync } = await import("node:fs");
  const from = statSync(logFile).size;
  const fd = openSync(logFile, "a");
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: repoRoot,
    env: cleanEnv({ ...env, ROLE: "worker" }),
    stdio: ["ignore", fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const out = readFileSync(logFile).subarray(from).toString("utf8");
    if (out.includes("[ready] worker")) break;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`worker exited before ready:\n${out}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`worker not ready:\n${out}`);
    }
    await sleep(100);
  }
  return {
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(t);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// (a) crawler throughput.

type CrawlRow = {
  db: string;
  processes: number;
  pages: number;
  succeeded: number;
  failed: number;
  seconds: number;
  pagesPerSec: number;
  firstDoneMs: number;
  serverCpuPct: number;
  benchCpuPct: number;
  machineBusyPct: number;
  loadStart: string;
};

let runNo = 0;

async function crawlRun(
  db: string,
  api: Api,
  base: string,
  processes: number,
  pids: () => number[],
  pages = pagesPerRun,
): Promise<CrawlRow> {
  const run = `c${++runNo}x${Date.now().toString(36)}`;
  const urls = Array.from({ length: pages }, (_, i) => `${base}/p/${run}-${i}.html`);
  const marker = `/p/${run}-`;
  const loadStart = loadAvg();
  const meter = cpuMeter(pids);
  const t0 = performance.now();
  for (let i = 0; i < urls.length; i += MAX_URLS_PER_REQUEST) {
    const r = await call(api, "POST", "/api/Collect/CrawlProductByTool", {
      urls: urls.slice(i, i + MAX_URLS_PER_REQUEST).map((url, j) => ({ id: i + j, url })),
    });
    if (r.result.successCount !== Math.min(MAX_URLS_PER_REQUEST, urls.length - i))
      throw new Error(`tasks not created: ${JSON.stringify(r.result)}`);
  }
  let firstDoneMs = 0;
  let c = { succeeded: 0, failed: 0 };
  const deadline = Date.now() + Math.max(120_000, pages * 2000);
  for (;;) {
    c = await taskCounts(api, marker);
    if (!firstDoneMs && c.succeeded + c.failed > 0) firstDoneMs = performance.now() - t0;
    if (c.succeeded + c.failed >= pages) break;
    if (Date.now() > deadline) throw new Error(`crawl run ${run} not finished: ${JSON.stringify(c)}`);
    await sleep(250);
  }
  const m = meter();
  const row: CrawlRow = {
    db,
    processes,
    pages,
    ...c,
    seconds: m.wall,
    pagesPerSec: pages / m.wall,
    firstDoneMs,
    serverCpuPct: m.serverCpuPct,
    benchCpuPct: m.benchCpuPct,
    machineBusyPct: m.machineBusyPct,
    loadStart,
  };
  console.error(
    `[collect ${db}] crawl ${pages} pages, ${processes} process(es): ${row.seconds.toFixed(1)} s, ${row.pagesPerSec.toFixed(2)} pages/s, ok ${c.succeeded} failed ${c.failed}, server CPU ${row.serverCpuPct.toFixed(0)}%, machine ${row.machineBusyPct.toFixed(0)}%`,
  );
  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// (b) import.

type ImportRow = {
  db: string;
  processes: number;
  urls: number;
  fileBytes: number;
  importMs: number;
  successCount: number;
  ignoreCount: number;
  isDelayImport: boolean;
  finished: number;
  succeeded: number;
  failed: number;
  complete: boolean;
  seconds: number;
  tasksPerSec: number;
  /** Rate over the last 60 s of the run (the steady state). */
  steadyPerSec: number;
  /** complete: the measured total; else the time all would take at the steady rate. */
  totalSeconds: number;
  serverCpuPct: number;
  machineBusyPct: number;
  loadStart: string;
  samples: { t: number; pending: number; running: number; succeeded: number; failed: number }[];
};

async function importRun(db: string, api: Api, base: string, processes: number, pids: () => number[]): Promise<ImportRow> {
  const run = `i${++runNo}x${Date.now().toString(36)}`;
  const file = Buffer.from(Array.from({ length: urlCount }, (_, i) => `${base}/p/${run}-${i}.html`).join("\n") + "\n");
  const form = new FormData();
  form.append("file", new Blob([file], { type: "text/plain" }), "urls.txt");
  const loadStart = loadAvg();
  const meter = cpuMeter(pids);
  const t0 = performance.now();
  const res = await fetch(`${api.url}/api/AquiredUrl/ImportUrls`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.token}` },
    body: form,
  });
  const importMs = performance.now() - t0;
  const text = await res.text();
  if (res.status !== 200) throw new Error(`ImportUrls: ${res.status} ${text.slice(0, 500)}`);
  const result = (JSON.parse(text) as { result: { successCount: number; ignoreCount: number; isDelayImport: boolean } }).result;
  console.error(
    `[collect ${db}] ImportUrls ${urlCount} URLs (${file.length} bytes): ${importMs.toFixed(0)} ms → ${JSON.stringify(result)}`,
  );
  const samples: ImportRow["samples"] = [];
  const deadline = t0 + importMinutes * 60_000;
  let lastLog = 0;
  let complete = false;
  for (;;) {
    const st = (await call(api, "POST", "/api/AquiredUrl/GetStatics", { search: `/p/${run}-` })).result as {
      pending: number;
      running: number;
      succeeded: number;
      failed: number;
    };
    const t = (performance.now() - t0) / 1000;
    samples.push({ t, pending: st.pending, running: st.running, succeeded: st.succeeded, failed: st.failed });
    if (st.pending === 0 && st.running === 0) {
      complete = true;
      break;
    }
    if (t - lastLog >= 30) {
      lastLog = t;
      console.error(
        `[collect ${db}]   ${t.toFixed(0)} s: finished ${st.succeeded + st.failed} (failed ${st.failed}), running ${st.running}, waiting ${st.pending}`,
      );
    }
    if (performance.now() > deadline) break;
    await sleep(2000);
  }
  const m = meter();
  if (!complete) await drainImport(db, api, `/p/${run}-`);
  const last = samples[samples.length - 1];
  const finished = last.succeeded + last.failed;
  const windowStart = samples.find((s) => s.t >= last.t - 60) ?? samples[0];
  const steadyPerSec = last.t > windowStart.t ? (finished - windowStart.succeeded - windowStart.failed) / (last.t - windowStart.t) : 0;
  const seconds = last.t;
  const row: ImportRow = {
    db,
    processes,
    urls: urlCount,
    fileBytes: file.length,
    importMs,
    ...result,
    finished,
    succeeded: last.succeeded,
    failed: last.failed,
    complete,
    seconds,
    tasksPerSec: finished / seconds,
    steadyPerSec,
    totalSeconds: complete ? seconds : seconds + (urlCount - finished) / Math.max(1e-9, steadyPerSec),
    serverCpuPct: m.serverCpuPct,
    machineBusyPct: m.machineBusyPct,
    loadStart,
    samples,
  };
  console.error(
    `[collect ${db}] import: ${complete ? "all finished" : `stopped after ${importMinutes} min`} — ${finished}/${urlCount} in ${seconds.toFixed(0)} s, ${row.tasksPerSec.toFixed(2)} tasks/s (last 60 s: ${steadyPerSec.toFixed(2)}/s)${complete ? "" : `, all ${urlCount} at that rate: ~${(row.totalSeconds / 60).toFixed(0)} min`}`,
  );
  return row;
}

/** After a bounded import: deletes the URLs still waiting and waits for the running ones, so the next run is alone. */
async function drainImport(db: string, api: Api, marker: string) {
  let deleted = 0;
  for (;;) {
    const page = (await call(api, "POST", "/api/AquiredUrl/GetList", { status: TaskStatus.Pending, search: marker, maxResultCount: 1000 }))
      .result as { items: { id: string }[] };
    if (!page.items.length) break;
    const r = await call(api, "DELETE", "/api/AquiredUrl/Delete", { ids: page.items.map((x) => x.id) });
    deleted += r.result.count as number;
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    const st = (await call(api, "POST", "/api/AquiredUrl/GetStatics", { search: marker })).result as { pending: number; running: number };
    if (st.pending === 0 && st.running === 0) break;
    if (Date.now() > deadline) throw new Error(`import not drained: ${JSON.stringify(st)}`);
    await sleep(1000);
  }
  console.error(`[collect ${db}]   bounded import: ${deleted} waiting URLs deleted, running ones finished`);
}

// ---------------------------------------------------------------------------------------------------------------
// (c) the crawler core in this process.

type CoreRow = {
  concurrency: number;
  pages: number;
  ok: number;
  seconds: number;
  pagesPerSec: number;
  p50: number;
  p95: number;
  fetchMsMedian: number;
  extractMsMedian: number;
  benchCpuPct: number;
  machineBusyPct: number;
  loadStart: string;
};

async function coreRun(base: string, concurrency: number): Promise<CoreRow> {
  const run = `k${++runNo}x${Date.now().toString(36)}`;
  const opts = { allowPrivate: true, timeoutMs: 20_000, maxBodyBytes: 5 * 1024 * 1024, maxRedirects: 5, perHostConcurrency: concurrency };
  const hosts = createHostQueues();
  const lat: number[] = [];
  const fetchMs: number[] = [];
  const extractMs: number[] = [];
  let ok = 0;
  let next = 0;
  const loadStart = loadAvg();
  const meter = cpuMeter(() => []);
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= corePages) return;
      const t0 = performance.now();
      const page = await crawlFetch(`${base}/p/${run}-${i}.html`, opts, hosts);
      const t1 = performance.now();
      const r = extract({ url: page.url, capturedAt: new Date().toISOString(), html: page.html });
      const t2 = performance.now();
      if (r.status === "ok") ok++;
      lat.push(t2 - t0);
      fetchMs.push(t1 - t0);
      extractMs.push(t2 - t1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const m = meter();
  const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
  const s = sorted(lat);
  const row: CoreRow = {
    concurrency,
    pages: corePages,
    ok,
    seconds: m.wall,
    pagesPerSec: corePages / m.wall,
    p50: quantile(s, 0.5),
    p95: quantile(s, 0.95),
    fetchMsMedian: quantile(sorted(fetchMs), 0.5),
    extractMsMedian: quantile(sorted(extractMs), 0.5),
    benchCpuPct: m.benchCpuPct,
    machineBusyPct: m.machineBusyPct,
    loadStart,
  };
  console.error(
    `[collect core] concurrency ${concurrency}: ${row.pagesPerSec.toFixed(0)} pages/s, p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms, ok ${ok}/${corePages}`,
  );
  return row;
}

// ---------------------------------------------------------------------------------------------------------------

async function benchOne(db: "pglite" | "postgres", base: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-collect-"));
  const logFile = join(outDir, `collect-server-${db}.log`);
  writeFileSync(logFile, "");
  const pgDatabase = db === "postgres" ? await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench") : undefined;
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    DATABASE_URL: pgDatabase?.url,
    HOST: "127.0.0.1",
    ADMIN_PASSWORD,
    LOG_LEVEL: args["log-level"],
    CRAWL_ALLOW_PRIVATE: "1",
  };
  const crawlRows: CrawlRow[] = [];
  const importRows: ImportRow[] = [];
  const workers: Worker[] = [];
  let app: AppProcess | undefined;
  try {
    let t = Date.now();
    app = await startApp({ ...env, PORT: String(await freePort()) }, { logFile });
    console.error(`[collect ${db}] server started: ${Date.now() - t} ms (${app.url})`);
    const demo = app.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${app.stdout()}`);
    const api: Api = { url: app.url, token: await accessToken(app.url, demo.user, demo.password, demo.tenant) };
    const pids = () => [app!.child.pid!, ...workers.map((w) => w.child.pid!)];
    const setProcesses = async (n: number) => {
      while (1 + workers.length < n) {
        t = Date.now();
        workers.push(await startWorker(env, logFile));
        console.error(`[collect ${db}] worker process ${workers.length} started: ${Date.now() - t} ms`);
      }
      while (1 + workers.length > n) await workers.pop()!.stop();
    };

    if (!skip.has("crawl")) {
      // Warm-up: the first crawl loads the extractor and fills the pools.
      await crawlRun(db, api, base, 1, pids, Math.min(10, pagesPerRun));
      for (const c of concurrencies) {
        if (c > 1 && db === "pglite") {
          console.error(`[collect ${db}] concurrency ${c} skipped: PGlite has one owner process`);
          continue;
        }
        await setProcesses(c);
        crawlRows.push(await crawlRun(db, api, base, c, pids));
      }
    }
    if (!skip.has("import")) {
      for (const n of db === "pglite" ? [1] : importWorkers) {
        await setProcesses(n);
        importRows.push(await importRun(db, api, base, n, pids));
      }
    }
    await setProcesses(1);
  } finally {
    for (const w of workers) await w.stop();
    if (app) {
      const code = await app.stop();
      if (code !== 0) console.error(`[collect ${db}] server exited ${code}; log: ${logFile}`);
    }
    if (!args.keep) {
      await pgDatabase?.drop().catch((e) => console.error(`[collect ${db}] drop failed:`, e));
      rmSync(dataDir, { recursive: true, force: true });
    } else {
      console.error(`[collect ${db}] kept: DATA_DIR ${dataDir}${pgDatabase ? `, database ${pgDatabase.url}` : ""}`);
    }
  }
  return { crawlRows, importRows };
}

const f = (n: number, d = 0) => n.toFixed(d);

function crawlTable(rows: CrawlRow[]) {
  return [
    "| db | processes running workers | pages | ok / failed | total s | pages/s | first page done | server CPU | bench CPU | machine busy | load avg at start |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.db} | ${r.processes} | ${r.pages} | ${r.succeeded} / ${r.failed} | ${f(r.seconds, 1)} | ${f(r.pagesPerSec, 2)} | ${f(r.firstDoneMs)} ms | ${f(r.serverCpuPct)}% | ${f(r.benchCpuPct)}% | ${f(r.machineBusyPct)}% | ${r.loadStart} |`,
    ),
  ].join("\n");
}

function importTable(rows: ImportRow[]) {
  return [
    "| db | processes | URLs | file | ImportUrls latency | answer | finished (ok / failed) | in s | tasks/s | last 60 s | all 10,000 done | server CPU | machine busy | load avg at start |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.db} | ${r.processes} | ${r.urls} | ${f(r.fileBytes / 1024)} KB | ${f(r.importMs)} ms | ${r.successCount} ok, ${r.ignoreCount} ignored, delay ${r.isDelayImport} | ${r.finished} (${r.succeeded} / ${r.failed}) | ${f(r.seconds)} | ${f(r.tasksPerSec, 2)} | ${f(r.steadyPerSec, 2)} | ${r.complete ? `${f(r.totalSeconds)} s (measured)` : `~${f(r.totalSeconds / 60)} min (extrapolated)`} | ${f(r.serverCpuPct)}% | ${f(r.machineBusyPct)}% | ${r.loadStart} |`,
    ),
  ].join("\n");
}

function coreTable(rows: CoreRow[]) {
  return [
    "| concurrency | pages | ok | pages/s | per page p50 ms | p95 ms | fetch median ms | extract median ms | bench CPU | machine busy | load avg at start |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.concurrency} | ${r.pages} | ${r.ok} | ${f(r.pagesPerSec)} | ${f(r.p50, 1)} | ${f(r.p95, 1)} | ${f(r.fetchMsMedian, 2)} | ${f(r.extractMsMedian, 2)} | ${f(r.benchCpuPct)}% | ${f(r.machineBusyPct)}% | ${r.loadStart} |`,
    ),
  ].join("\n");
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const m = machine();
  const startedAt = new Date().toISOString();
  const command = `npx tsx bench/collect.ts ${process.argv.slice(2).join(" ")}`.trim();
  console.log(`# collection bench ${startedAt}\n`);
  console.log(`command: ${command}`);
  console.log(`machine: ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}, load average at start ${m.loadavg}\n`);
  const site = await startSite();
  checkPages(site.base);
  const crawlRows: CrawlRow[] = [];
  const importRows: ImportRow[] = [];
  const coreRows: CoreRow[] = [];
  try {
    if (!skip.has("core")) for (const c of coreConcurrencies) coreRows.push(await coreRun(site.base, c));
    for (const db of skip.has("crawl") && skip.has("import") ? [] : dbs) {
      const r = await benchOne(db, site.base);
      crawlRows.push(...r.crawlRows);
      importRows.push(...r.importRows);
    }
  } finally {
    await new Promise((r) => site.server.close(r));
  }
  if (coreRows.length) console.log(`## Crawler core in-process (crawlFetch + extract, no queue, no database)\n\n${coreTable(coreRows)}\n`);
  if (crawlRows.length)
    console.log(`## Crawler end to end (CrawlProductByTool → job queue → fetch → extract → store)\n\n${crawlTable(crawlRows)}\n`);
  if (importRows.length) console.log(`## Import (ImportUrls → dispatcher → crawl tasks)\n\n${importTable(importRows)}\n`);
  const endLoad = loadAvg();
  console.log(`load average at end: ${endLoad}; loopback site requests served: ${siteHits}`);
  const file = join(outDir, `collect-${startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ startedAt, command, machine: m, endLoad, coreRows, crawlRows, importRows }, null, 2));
  console.log(`raw figures: ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
