// Categories benchmark (issue 6): the category sync, GetAllCategory, and the tree-select in the browser.
//
//   npm run bench:categories                          # both databases (~6 min on 2 cores)
//   npm run bench:categories -- --db=pglite --requests=50 --big=31040
//
// Per database: a fresh database (PostgreSQL: a new database on --pg-url, dropped after; PGlite: a fresh DATA_DIR) and
// the real server process (`node scripts/start.mjs`, what `npm start` runs) with the in-process sandbox.
// (1) Sync: the host's UpdateAllCategory for all 5 sites with attributes and fees (5 tree dumps, then attributes and
//     listing_prices for every leaf through the adapter: its rate bucket, retries and the sandbox's HTTP handling),
//     from the request to the task's end as GetTaskInfoByPage shows it; then the same sync again (nothing changes);
//     the server's CPU seconds over each.
// (2) GetAllCategory per site, --requests one at a time after 3 warm-ups: latency p50/p95, the answer's bytes and
//     gzip bytes (level 6, what a compressing proxy would send); the same with the current version (notModified) and
//     with If-None-Match (304).
// (3) A full-size site: the sandbox's trees are small (311 categories), so a synthetic tree of --big categories
//     (40 roots × 25 × 30 by default, names with accents) is written into site 4 directly (server stopped for PGlite,
//     which one process owns), the site's tree rebuilt through UpdateAllCategoryStatus, and measured as in (2).
// (4) Browser (Debian's Chromium, as e2e launches it): the product editor's category tree-select on the sandbox site
//     (mx) and on the full-size site (co): opening (first: fetch + index + render; again: from memory), and searching a
//     common word (thousands of matches) and a rare one (one match), from the input event to the list's DOM update.
//
// Prints the machine and markdown tables; writes the raw figures as JSON into bench/.data/.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import type { Page } from "puppeteer-core";
import { sql } from "drizzle-orm";
import { launchChromium } from "../e2e/browser.ts";
import { accessToken, createFreshPostgresDatabase, freePort, repoRoot, startApp, type AppProcess } from "../e2e/app-process.ts";
import { openDatabase } from "../server/db/client.ts";
import { loadAvg, processCpuSeconds } from "./measure.ts";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test" },
    requests: { type: "string", default: "50" },
    big: { type: "string", default: "31040" },
    "browser-runs": { type: "string", default: "5" },
  },
});

const ADMIN_PASSWORD = "Admin-bench-2026";
const SITE_CODES = ["mx", "bl", "cl", "co", "cbt"];
const out = join(repoRoot, "bench/.data");
mkdirSync(out, { recursive: true });

function machine() {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model;
  return { cpus: cpus().length, cpuModel: model, memGiB: (totalmem() / 2 ** 30).toFixed(1), node: process.version, loadavg: loadAvg() };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

type Ctx = { app: AppProcess; host: string; seller: string };

async function call<T>(c: Ctx, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${c.app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as { result: T }).result : (undefined as T);
}

async function waitTask(c: Ctx, taskId: string): Promise<{ taskStatus: number; taskRemark: string }> {
  for (;;) {
    const page = await call<{ items: { id: string; taskStatus: number; taskRemark: string }[] }>(
      c,
      c.host,
      "GET",
      "/api/TaskInfo/GetTaskInfoByPage?TaskType=9&MaxResultCount=20",
    );
    const t = page.items.find((x) => x.id === taskId);
    if (t && (t.taskStatus === 3 || t.taskStatus === 4)) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sync(c: Ctx) {
  const cpu0 = processCpuSeconds(c.app.child.pid!);
  const t0 = performance.now();
  const { taskId } = await call<{ taskId: string }>(c, c.host, "POST", "/api/MeliCategory/UpdateAllCategory", {});
  const task = await waitTask(c, taskId);
  const seconds = (performance.now() - t0) / 1000;
  if (task.taskStatus !== 3) throw new Error(`sync failed: ${task.taskRemark}`);
  return { seconds, cpuSeconds: processCpuSeconds(c.app.child.pid!) - cpu0, remark: task.taskRemark, loadavg: loadAvg() };
}

async function timedGet(c: Ctx, path: string, headers: Record<string, string> = {}) {
  const t0 = performance.now();
  const res = await fetch(`${c.app.url}${path}`, { headers: { authorization: `Bearer ${c.seller}`, ...headers } });
  const body = Buffer.from(await res.arrayBuffer());
  return { ms: performance.now() - t0, status: res.status, body };
}

async function treeFigures(c: Ctx, site: number, requests: number) {
  const path = `/api/MeliCategory/GetAllCategory?site=${site}`;
  for (let i = 0; i < 3; i++) await timedGet(c, path);
  const full: number[] = [];
  let body = Buffer.alloc(0);
  for (let i = 0; i < requests; i++) {
    const r = await timedGet(c, path);
    full.push(r.ms);
    body = r.body;
  }
  const answer = JSON.parse(body.toString("utf8")) as { result: { version: string; nodeCount: number } };
  const version = answer.result.version;
  const notModified: number[] = [];
  const etag: number[] = [];
  for (let i = 0; i < requests; i++) {
    notModified.push((await timedGet(c, `${path}&version=${version}`)).ms);
    const r = await timedGet(c, path, { "if-none-match": `"${version}"` });
    if (r.status !== 304) throw new Error(`expected 304, got ${r.status}`);
    etag.push(r.ms);
  }
  return {
    site,
    nodes: answer.result.nodeCount,
    bytes: body.length,
    gzipBytes: gzipSync(body, { level: 6 }).length,
    p50: pct(full, 50),
    p95: pct(full, 95),
    notModifiedP50: pct(notModified, 50),
    etag304P50: pct(etag, 50),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A full-size tree for site 4, written straight into the database.

const WORDS = ["Teléfonos", "Cámaras", "Música", "Decoración", "Jardín", "Juguetes", "Electrónica", "Baño", "Cocina", "Vehículos"];

async function writeBigTree(databaseOptions: Parameters<typeof openDatabase>[0], total: number) {
  const roots = 40;
  const mids = 25;
  const leaves = Math.max(1, Math.round((total - roots - roots * mids) / (roots * mids)));
  const db = await openDatabase(databaseOptions);
  try {
    // One statement: generate_series builds the rows (ids MCO9xxxxxxx, clear of the sandbox's).
    await db.db.execute(sql`
      insert into meli_categories (site, cate_id, level, name, p_id, is_leaf, full_name, path_name, sort, listing_allowed)
      select 4, 'MCO9' || lpad(r::text, 2, '0') || '0000', 1, 'Categoría ' || w.word || ' ' || r, null, false,
        'Categoría ' || w.word || ' ' || r, 'MCO9' || lpad(r::text, 2, '0') || '0000', 100 + r, false
      from generate_series(1, ${roots}) r cross join lateral (select (${JSON.stringify(WORDS)}::jsonb ->> (r % 10)) as word) w
      union all
      select 4, 'MCO9' || lpad(r::text, 2, '0') || lpad(m::text, 2, '0') || '00', 2, 'Sección ' || m, 'MCO9' || lpad(r::text, 2, '0') || '0000',
        false, 'Categoría ' || (${JSON.stringify(WORDS)}::jsonb ->> (r % 10)) || ' ' || r || ' > Sección ' || m,
        'MCO9' || lpad(r::text, 2, '0') || '0000/MCO9' || lpad(r::text, 2, '0') || lpad(m::text, 2, '0') || '00', m, false
      from generate_series(1, ${roots}) r, generate_series(1, ${mids}) m
      union all
      select 4, 'MCO9' || lpad(r::text, 2, '0') || lpad(m::text, 2, '0') || lpad(l::text, 2, '0'), 3,
        'Artículo ' || (${JSON.stringify(WORDS)}::jsonb ->> ((r + m + l) % 10)) || ' ' || l, 'MCO9' || lpad(r::text, 2, '0') || lpad(m::text, 2, '0') || '00',
        true, 'Categoría ' || (${JSON.stringify(WORDS)}::jsonb ->> (r % 10)) || ' ' || r || ' > Sección ' || m || ' > Artículo '
          || (${JSON.stringify(WORDS)}::jsonb ->> ((r + m + l) % 10)) || ' ' || l,
        'MCO9' || lpad(r::text, 2, '0') || '0000/MCO9' || lpad(r::text, 2, '0') || lpad(m::text, 2, '0') || '00/MCO9'
          || lpad(r::text, 2, '0') || lpad(m::text, 2, '0') || lpad(l::text, 2, '0'), l, true
      from generate_series(1, ${roots}) r, generate_series(1, ${mids}) m, generate_series(1, ${leaves}) l
      on conflict do nothing`);
  } finally {
    await db.close();
  }
  return roots + roots * mids + roots * mids * leaves;
}

// ---------------------------------------------------------------------------------------------------------------
// Browser.

async function login(page: Page, url: string, demo: { tenant: string; user: string; password: string }) {
  await page.goto(`${url}/#/login`);
  await page.waitForSelector("input[name=userName]");
  await page.type("input[name=tenantName]", demo.tenant);
  await page.type("input[name=userName]", demo.user);
  await page.type("input[name=password]", demo.password);
  await page.click("[data-testid=login-submit]");
  await page.waitForFunction(() => location.hash === "#/dashboard/wrokbench", { timeout: 20_000 });
}

/** Milliseconds from `act` (run in the page) until the selector's element exists and `done` holds for it. */
async function timeInPage(page: Page, act: string, selector: string, done: string): Promise<number> {
  // A script text, not a function: tsx names inner functions with a helper the page does not have.
  const script = `(async () => {
    const check = (el) => ${done};
    const t0 = performance.now();
    ${act}
    await new Promise((resolve) => {
      const ok = () => { const el = document.querySelector(${JSON.stringify(selector)}); return !!el && check(el); };
      if (ok()) return resolve();
      const obs = new MutationObserver(() => { if (ok()) { obs.disconnect(); resolve(); } });
      obs.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    return performance.now() - t0;
  })()`;
  return (await page.evaluate(script)) as number;
}

const typeSearch = (query: string) => `
  const input = document.querySelector("[data-testid=products-editor-category-search]");
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  set.call(input, ${JSON.stringify(query)});
  input.dispatchEvent(new Event("input", { bubbles: true }));`;

async function browserFigures(c: Ctx, demo: { tenant: string; user: string; password: string }, runs: number) {
  const product = await call<{ id: string }>(c, c.seller, "POST", "/api/Product/CreateOrUpdateProduct", {
    title: { es: "Producto de prueba" },
  });
  const browser = await launchChromium();
  const results: Record<string, unknown>[] = [];
  try {
    for (const site of [1, 4]) {
      const open: number[] = [];
      const reopen: number[] = [];
      const common: number[] = [];
      const rare: number[] = [];
      let commonCount = 0;
      let nodes = 0;
      for (let run = 0; run < runs; run++) {
        // A new context each run: nothing in memory or IndexedDB, so the first opening fetches the tree.
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.setViewport({ width: 1440, height: 900 });
        await login(page, c.app.url, demo);
        await page.waitForSelector("[data-menu-path='/proudcts/list']", { timeout: 20_000 });
        await page.click("[data-menu-path='/proudcts/list']");
        await page.waitForSelector(`[data-testid=products-row-edit-${product.id}]`, { timeout: 20_000 });
        await page.click(`[data-testid=products-row-edit-${product.id}]`);
        await page.waitForSelector("[data-testid=products-editor-site]");
        await page.click("[data-testid=products-editor-site]");
        await page.waitForSelector(`[data-testid=products-editor-site-${site}]`);
        // Choosing the site starts the tree's fetch; opening follows at once, as a user would.
        open.push(
          await timeInPage(
            page,
            `document.querySelector("[data-testid=products-editor-site-${site}]").click();
             setTimeout(() => document.querySelector("[data-testid=products-editor-category]").click(), 0);`,
            "[data-testid=products-editor-category-list]",
            "el.querySelectorAll('[role=treeitem]').length > 0",
          ),
        );
        nodes = await page.$eval("[data-testid=products-editor-category-list]", (e) => Number(e.getAttribute("data-count")));
        const query = site === 4 ? "articulo jardin" : "accesorios";
        common.push(
          await timeInPage(page, typeSearch(query), "[data-testid=products-editor-category-list]", "el.getAttribute('role') === 'listbox'"),
        );
        commonCount = await page.$eval("[data-testid=products-editor-category-list]", (e) => Number(e.getAttribute("data-count")));
        if (run === 0) await page.screenshot({ path: join(out, `categories-search-site${site}.png`) as `${string}.png` });
        const rareQuery = site === 4 ? "categoria musica 12" : "audifonos inalambricos";
        rare.push(
          await timeInPage(
            page,
            typeSearch(rareQuery),
            "[data-testid=products-editor-category-list]",
            `el.getAttribute("data-count") !== ${JSON.stringify(String(commonCount))}`,
          ),
        );
        await page.keyboard.press("Escape");
        await page.waitForFunction(() => !document.querySelector("[data-testid=products-editor-category-dropdown]"));
        reopen.push(
          await timeInPage(
            page,
            `document.querySelector("[data-testid=products-editor-category]").click();`,
            "[data-testid=products-editor-category-list]",
            "el.querySelectorAll('[role=treeitem]').length > 0",
          ),
        );
        await context.close();
      }
      results.push({
        site,
        rootRows: nodes,
        openFirstP50: pct(open, 50),
        reopenP50: pct(reopen, 50),
        commonSearchP50: pct(common, 50),
        commonMatches: commonCount,
        rareSearchP50: pct(rare, 50),
        runs,
      });
    }
  } finally {
    await browser.close();
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------

async function runFor(kind: "pglite" | "postgres") {
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-categories-"));
  const cleanups: (() => unknown)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  const port = String(await freePort());
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: "warn", PORT: port, ADMIN_PASSWORD };
  let databaseOptions: Parameters<typeof openDatabase>[0] = { kind: "pglite", dataDir: join(dataDir, "pglite") };
  if (kind === "postgres") {
    const database = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_cat");
    cleanups.push(() => database.drop());
    env.DATABASE_URL = database.url;
    databaseOptions = { kind: "postgres", url: database.url, poolSize: 2 };
  }
  let app = await startApp(env, { logFile: join(out, `categories-${kind}.log`) });
  try {
    const demo = app.firstStart.demo!;
    const ctx: Ctx = {
      app,
      host: await accessToken(app.url, "admin", ADMIN_PASSWORD),
      seller: await accessToken(app.url, demo.user, demo.password, demo.tenant),
    };
    console.log(`[${kind}] sync… (load ${loadAvg()})`);
    const first = await sync(ctx);
    const again = await sync(ctx);
    console.log(`[${kind}] GetAllCategory… (load ${loadAvg()})`);
    const requests = Number(args.requests);
    const trees = [];
    for (let site = 1; site <= 5; site++) trees.push(await treeFigures(ctx, site, requests));

    console.log(`[${kind}] full-size tree… (load ${loadAvg()})`);
    await app.stop();
    const big = await writeBigTree(databaseOptions, Number(args.big));
    app = await startApp(env, { logFile: join(out, `categories-${kind}.log`) });
    ctx.app = app;
    ctx.host = await accessToken(app.url, "admin", ADMIN_PASSWORD);
    ctx.seller = await accessToken(app.url, demo.user, demo.password, demo.tenant);
    await call(ctx, ctx.host, "POST", "/api/MeliCategory/UpdateAllCategoryStatus?site=4", { enable: true, all: true });
    const bigTree = await treeFigures(ctx, 4, requests);

    console.log(`[${kind}] browser… (load ${loadAvg()})`);
    const browser = await browserFigures(ctx, demo, Number(args["browser-runs"]));
    return { kind, first, again, trees, big, bigTree, browser, loadavgEnd: loadAvg() };
  } finally {
    await app.stop();
    for (const c of cleanups.reverse()) await c();
  }
}

const started = new Date();
const m = machine();
const runs = [];
for (const kind of args.db === "both" ? (["pglite", "postgres"] as const) : [args.db as "pglite" | "postgres"])
  runs.push(await runFor(kind));

console.log(`\n## Categories (issue 6) — ${started.toISOString()}`);
console.log(`machine: ${m.cpus} × ${m.cpuModel}, ${m.memGiB} GiB, Node ${m.node}; load average at start ${m.loadavg}\n`);
console.log("| db | sync, 5 sites + attributes + fees | server CPU | again (no change) | load after |");
console.log("|---|---|---|---|---|");
for (const r of runs)
  console.log(
    `| ${r.kind} | ${r.first.seconds.toFixed(1)} s | ${r.first.cpuSeconds.toFixed(1)} s | ${r.again.seconds.toFixed(1)} s (CPU ${r.again.cpuSeconds.toFixed(1)} s) | ${r.again.loadavg} |`,
  );
console.log("\n| db | site | nodes | answer | gzip | p50 | p95 | notModified p50 | 304 p50 |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of runs)
  for (const t of [...r.trees, { ...r.bigTree, site: `4 (${r.big} synthetic + 311)` }])
    console.log(
      `| ${r.kind} | ${typeof t.site === "number" ? SITE_CODES[t.site - 1] : t.site} | ${t.nodes} | ${kb(t.bytes)} | ${kb(t.gzipBytes)} | ${ms(t.p50)} ms | ${ms(t.p95)} ms | ${ms(t.notModifiedP50)} ms | ${ms(t.etag304P50)} ms |`,
    );
console.log("\n| db | site | first open (fetch + render) p50 | reopen p50 | common search p50 (matches) | rare search p50 |");
console.log("|---|---|---|---|---|---|");
for (const r of runs)
  for (const b of r.browser as {
    site: number;
    openFirstP50: number;
    reopenP50: number;
    commonSearchP50: number;
    commonMatches: number;
    rareSearchP50: number;
  }[])
    console.log(
      `| ${r.kind} | ${SITE_CODES[b.site - 1]} | ${ms(b.openFirstP50)} ms | ${ms(b.reopenP50)} ms | ${ms(b.commonSearchP50)} ms (${b.commonMatches}) | ${ms(b.rareSearchP50)} ms |`,
    );
writeFileSync(join(out, `categories-${started.toISOString().replace(/[:.]/g, "-")}.json`), JSON.stringify({ machine: m, runs }, null, 2));
