// Listing centre console benchmark (issue 16, "Console": it must work at 100,000 listings), in Debian's Chromium.
//
//   npm run bench:listing-console                              # 100,000 listings, 2 runs
//   npm run bench:listing-console -- --rows=100000 --runs=3 --pg-url=postgres://root@127.0.0.1:5432/test
//
// A fresh database on --pg-url (dropped after), the real server (`node scripts/start.mjs`) with the demo content (a
// sandbox shop on Mexico) and the demo tenant on the new-version screens; then --rows listings of the demo shop written
// directly by SQL (generate_series: statuses ~60 % 在售, 20 % 已暂停, 8 % 审核中, 5 % 被拒…, the shop's sites, prices,
// titles of 8 words, item ids; VACUUM ANALYZE). Per run, a new browser context logged in as the demo seller, in
// /proudcts/publish-records/v2 (在线刊登), each step timed in the page from the action to the DOM showing its result:
// (a) open from the menu until rows and the status tabs' counts show (includes the route's code);
// (c) the 已暂停 tab until its rows show; (b) a title search (Enter) until only matching rows show;
// (d) page size 500 (virtualized) until the grid has 500 rows; (e) scrolling that grid to the bottom, 120 px a frame,
//     with the gaps between animation frames; (f) 选择全部符合条件的刊登 then 改价 until the dialog's count shows;
// (g) submitting that 改价 (199) until a toast says what happened (the server refuses more than 10,000).
// The console's API calls during each step are recorded and replayed afterwards from Node with the same token and body
// (--replays times, median); the step's raw API time is the slowest of its calls (the console sends them in parallel),
// so the UI's overhead shows as the ratio. One screenshot at the end of the first run: e2e/artifacts/listings-100k.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import type { Browser, HTTPRequest, Page } from "puppeteer-core";
import { launchChromium } from "../e2e/browser.ts";
import { accessToken, callApi, createFreshPostgresDatabase, freePort, repoRoot, startApp, until } from "../e2e/app-process.ts";
import { loadAvg, machine, stats } from "./measure.ts";

const { values: args } = parseArgs({
  options: {
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
    rows: { type: "string", default: "100000" },
    runs: { type: "string", default: "2" },
    replays: { type: "string", default: "5" },
    search: { type: "string", default: "reloj" },
    /** The page's CPU profile over run 1's tab and search steps, into bench/.data/listing-console-*.cpuprofile. */
    profile: { type: "boolean", default: false },
  },
});

const ROWS = Number(args.rows);
const ADMIN_PASSWORD = "Admin-bench-2026";
const MENU = "/proudcts/publish-records/v2";
const PAUSED = 4;
const out = join(repoRoot, "bench/.data");
const artifacts = join(repoRoot, "e2e/artifacts");
mkdirSync(out, { recursive: true });
mkdirSync(artifacts, { recursive: true });
const log = (line: string) => console.error(line);
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : "–");

// ---------------------------------------------------------------------------------------------------------------
// Seed: the demo tenant's local shop accounts get ROWS listings.

async function seed(url: string, tenantName: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const tenant = (await c.query<{ id: string }>(`select id from tenants where name = $1`, [tenantName])).rows[0].id;
    const owner = (await c.query<{ id: string }>(`select id from users where tenant_id = $1 and is_main_account`, [tenant])).rows[0].id;
    const accounts = (
      await c.query<{ id: string; group_id: string; site: number; site_code: string; currency: string | null }>(
        `select a.id, a.group_id, a.site, a.site_code, a.currency from meli_accounts a
         join meli_account_groups g on g.tenant_id = a.tenant_id and g.id = a.group_id
         where a.tenant_id = $1 and not g.is_cbt order by a.site`,
        [tenant],
      )
    ).rows;
    if (!accounts.length) throw new Error("the demo tenant has no local shop account");
    const products = (await c.query<{ id: string }>(`select id from products where tenant_id = $1 order by id`, [tenant])).rows.map(
      (p) => p.id,
    );
    const t0 = Date.now();
    const acc = JSON.stringify(accounts);
    // g: the listing; a: its shop account; h: a hash for the spreads; st: its status (as bench/listings.ts mixes them).
    await c.query(
      `insert into listings (tenant_id, id, account_group_id, account_id, user_id, product_id, site, item_id, cate_id, title,
          status, price, currency, reason, warning_message, permalink, listing_type, stock, health, orders, views,
          creation_time, last_modification_time, sync_time)
        select $1::uuid, gen_random_uuid(), (a ->> 'group_id')::uuid, (a ->> 'id')::uuid, $2::uuid,
          ($4::uuid[])[1 + h % greatest(1, cardinality($4::uuid[]))],
          (a ->> 'site')::int,
          case when st between 3 and 6 then (a ->> 'site_code') || (900000000 + g) end,
          (a ->> 'site_code') || (1000 + h % 300),
          'Producto ' || (array['zapatos','camisa','bolsa','reloj','lampara','mesa','silla','nuevo'])[1 + h % 8] || ' modelo ' || g,
          st,
          (1 + (h % 50000) / 100.0)::numeric(18,2),
          coalesce(a ->> 'currency', 'MXN'),
          case when st = 7 then '类目属性缺失: 品牌 ' || (h % 10) when st = 9 then '缺少重量' end,
          case when h % 50 = 0 then '库存不足' end,
          case when st between 3 and 6 then 'https://articulo.example/' || g end,
          case when h % 3 = 0 then 'gold_pro' else 'gold_special' end,
          h % 200, (h % 100) / 100.0,
          case when h % 5 = 0 then h % 17 else 0 end,
          case when h % 3 = 0 then h % 500 else 0 end,
          now() - g * interval '30 seconds',
          case when h % 4 = 0 then null else now() - (g / 2) * interval '30 seconds' end,
          now() - (h % 1000) * interval '1 minute'
        from (
          select g, h, $3::jsonb -> (g % jsonb_array_length($3::jsonb)) as a,
            case when h % 100 < 60 then 3 when h % 100 < 80 then 4 when h % 100 < 88 then 5 when h % 100 < 93 then 7
                 when h % 100 < 96 then 9 when h % 100 < 98 then 6 when h % 100 < 99 then 1 else 8 end as st
          from (select g, abs(hashint4(g)) as h from generate_series(1, ${ROWS}) g) x
        ) y`,
      [tenant, owner, acc, products],
    );
    await c.query("vacuum analyze listings");
    const n = (await c.query<{ n: number }>(`select count(*)::int as n from listings where tenant_id = $1`, [tenant])).rows[0].n;
    log(`[seed] ${n} listings on ${accounts.length} account(s) in ${Date.now() - t0} ms`);
    return { listings: n, accounts: accounts.length, ms: Date.now() - t0 };
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Browser.

type Call = { method: string; url: string; body: string | undefined; auth: string };
/** ui: the step's time; sent, answered: when, in the step, the page sent its first API call and had its last answer. */
type Step = { ui: number; sent: number; answered: number; calls: Call[] };

/** Recording the console's API calls (puppeteer's request event). */
function recorder(page: Page) {
  let calls: Call[] = [];
  page.on("request", (r: HTTPRequest) => {
    if (!r.url().includes("/api/")) return;
    calls.push({ method: r.method(), url: r.url(), body: r.postData(), auth: r.headers().authorization ?? "" });
  });
  return () => {
    const c = calls;
    calls = [];
    return c;
  };
}

/**
 * Milliseconds from `act` until `cond` (a JS expression over the document) holds, checked every animation frame in the
 * page. Scripts are strings: tsx names inner functions with a helper the page does not have.
 */
async function timed(page: Page, take: () => Call[], act: () => Promise<unknown>, cond: string, timeout = 60_000): Promise<Step> {
  take();
  await page.evaluate("performance.clearResourceTimings(); window.__t0 = performance.now()");
  await act();
  await page.waitForFunction(`(${cond}) && (window.__t1 = performance.now(), true)`, { polling: "raf", timeout });
  const [ui, sent, answered] = (await page.evaluate(`(() => {
    const api = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/') && e.responseEnd <= window.__t1);
    return [window.__t1 - window.__t0, api.length ? Math.min(...api.map((e) => e.startTime - window.__t0)) : 0,
      Math.max(0, ...api.map((e) => e.responseEnd - window.__t0))];
  })()`)) as number[];
  return { ui, sent, answered, calls: take() };
}

const click = (page: Page, selector: string) => () => page.evaluate(`document.querySelector(${JSON.stringify(selector)}).click()`);

const NOT_LOADING = `!document.querySelector('[data-slot=data-table] [role=status]')`;
const ROWS_SHOWN = `document.querySelectorAll('[data-testid^=listing-row-]').length > 0`;

/** Scrolls the 500-row grid to the bottom, 120 px each animation frame; the gaps between frames, and rows painted. */
const SCROLL = `(async () => {
  const grid = document.querySelector('[role=grid]');
  grid.scrollTop = 0;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const gaps = [];
  let last = performance.now();
  const t0 = last;
  await new Promise((resolve) => {
    const frame = (now) => {
      gaps.push(now - last);
      last = now;
      if (grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1) return resolve();
      grid.scrollTop += 120;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const lastRow = Math.max(...[...grid.querySelectorAll('[role=row][data-index]')].map((e) => Number(e.getAttribute('data-index'))));
  return { ms: performance.now() - t0, gaps, lastRow };
})()`;

async function login(page: Page, url: string, demo: { tenant: string; user: string; password: string }) {
  await page.goto(`${url}/#/login`);
  await page.waitForSelector("input[name=userName]");
  await page.type("input[name=tenantName]", demo.tenant);
  await page.type("input[name=userName]", demo.user);
  await page.type("input[name=password]", demo.password);
  await page.click("[data-testid=login-submit]");
  await page.waitForFunction(() => location.hash === "#/dashboard/wrokbench", { timeout: 20_000 });
  await page.waitForSelector(`[data-menu-path='${MENU}']`);
}

async function browserRun(browser: Browser, url: string, demo: { tenant: string; user: string; password: string }, run: number) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  page.on("pageerror", (e) => log(`[pageerror] ${e instanceof Error ? e.message : String(e)}`));
  const take = recorder(page);
  await login(page, url, demo);
  const steps: Record<string, Step> = {};
  const extra: Record<string, unknown> = {};

  steps.open = await timed(
    page,
    take,
    click(page, `[data-menu-path='${MENU}']`),
    `${ROWS_SHOWN} && ${NOT_LOADING} && Number(document.querySelector('[data-testid=listings-tab-3]')?.getAttribute('data-count')) > 0
      && /\\d/.test(document.querySelector('[data-testid=listings-tab-all]')?.textContent ?? '')`,
  );
  extra.tabs = await page.$$eval("[data-testid^=listings-tab-]", (els) => els.map((e) => e.textContent?.trim()));
  extra.total = await page.$eval("[data-testid=listings-total]", (e) => e.textContent?.trim());

  const cdp = args.profile && run === 0 ? await page.createCDPSession() : null;
  await cdp?.send("Profiler.enable");
  await cdp?.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp?.send("Profiler.start");
  steps.tab = await timed(
    page,
    take,
    click(page, `[data-testid=listings-tab-${PAUSED}]`),
    `document.querySelector('[data-testid=listings-tab-${PAUSED}]')?.getAttribute('aria-selected') === 'true' && ${ROWS_SHOWN}
      && ${NOT_LOADING} && [...document.querySelectorAll('[data-testid=listing-status]')].every((e) => e.getAttribute('data-status') === '${PAUSED}')`,
  );
  await page.click("[data-testid=listings-tab-all]");
  await page.waitForFunction(`${NOT_LOADING} && location.hash.indexOf('status=') < 0`);

  await page.type("[data-testid=listings-search]", args.search!);
  steps.search = await timed(
    page,
    take,
    () => page.keyboard.press("Enter"),
    `${ROWS_SHOWN} && ${NOT_LOADING} && [...document.querySelectorAll('[data-testid^=listing-row-]')].every((e) => e.textContent.includes(${JSON.stringify(args.search)}))`,
  );
  if (cdp) {
    const { profile } = await cdp.send("Profiler.stop");
    writeFileSync(join(out, "listing-console-tab-search.cpuprofile"), JSON.stringify(profile));
  }
  extra.searchTotal = await page.$eval("[data-testid=listings-total]", (e) => e.textContent?.trim());
  await page.click("[data-testid=listings-reset]");
  await page.waitForFunction(`${NOT_LOADING} && location.hash.indexOf('q=') < 0 && ${ROWS_SHOWN}`);

  steps.size500 = await timed(
    page,
    take,
    () => page.evaluate(`location.hash = ${JSON.stringify(`#${MENU}?size=500`)}`),
    `document.querySelector('[role=grid]')?.getAttribute('aria-rowcount') === '501' && ${NOT_LOADING}
      && document.querySelectorAll('[role=grid] [role=row][data-index]').length > 0`,
  );
  extra.renderedRows = await page.$$eval("[role=grid] [role=row][data-index]", (els) => els.length);
  const scroll = (await page.evaluate(SCROLL)) as { ms: number; gaps: number[]; lastRow: number };
  take();

  steps.selectAllPrice = await timed(
    page,
    take,
    async () => {
      await page.evaluate(`document.querySelector('[data-testid=listings-select-all-matching]').click()`);
      await page.evaluate(`document.querySelector('[data-testid=listings-bulk-price]').click()`);
    },
    `!!document.querySelector('[data-testid=listing-batch-price-count]')?.getAttribute('data-count')`,
  );
  extra.dialogCount = await page.$eval("[data-testid=listing-batch-price-count]", (e) => e.textContent?.trim());
  // (g) Submitting it: the dialog's count is capped at 1,000, the server's batch limit is 10,000.
  await page.type("[data-testid=listing-batch-price-value]", "199");
  steps.submit = await timed(
    page,
    take,
    click(page, "[data-testid=listing-batch-price-submit]"),
    `!!document.querySelector('[data-toast-type]')`,
  );
  // The refetches the refusal starts (after the toast) are not what the toast waited for.
  steps.submit.calls = steps.submit.calls.filter((c) => c.url.includes("/BatchUpdatePriceDirect"));
  extra.submitToast = await page.$$eval("[data-toast-type]", (els) =>
    els.map((e) => `${e.getAttribute("data-toast-type")}: ${e.textContent}`),
  );
  if (run === 0) {
    // 取消 stays disabled until the refused edit's refetch of the listings ends.
    const cancel = `[...document.querySelectorAll('[data-testid=listing-batch-price] button')].find((b) => b.textContent.trim() === '取消')`;
    await page.waitForFunction(`!${cancel}.disabled`);
    await page.evaluate(`${cancel}.click()`);
    await page.waitForSelector("[data-testid=listing-batch-price]", { hidden: true });
    await page.click("[data-testid=listings-bulk-bar] button:not([data-testid])"); // 清除选择
    await page.evaluate(`document.querySelector('[role=grid]').scrollTop = 0`);
    await page.evaluate(`location.hash = ${JSON.stringify(`#${MENU}?size=50`)}`);
    await page.waitForFunction(`${ROWS_SHOWN} && ${NOT_LOADING} && !document.querySelector('[role=grid]')`);
    await page.screenshot({ path: join(artifacts, "listings-100k.png") as `${string}.png` });
  }
  await context.close();
  return { steps, scroll, extra };
}

/** The slowest of a step's calls replayed from Node (median of `replays` each; the console sends them in parallel). */
async function rawApi(calls: Call[], replays: number) {
  const per: { path: string; p50: number; bytes: number }[] = [];
  for (const c of calls) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < replays; i++) {
      const t0 = performance.now();
      const res = await fetch(c.url, {
        method: c.method,
        headers: { authorization: c.auth, ...(c.body === undefined ? {} : { "content-type": "application/json" }) },
        body: c.body,
      });
      bytes = (await res.arrayBuffer()).byteLength;
      times.push(performance.now() - t0);
    }
    per.push({ path: new URL(c.url).pathname + (c.body ? ` ${c.body}` : ""), p50: stats(times).p50, bytes });
  }
  return { max: per.reduce((m, p) => Math.max(m, p.p50), 0), per };
}

// ---------------------------------------------------------------------------------------------------------------

const started = new Date();
const m = machine();
const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-listing-console-"));
const database = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_lc");
const env = {
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  PORT: String(await freePort()),
  ADMIN_PASSWORD,
  DEMO_DATA: "1",
  DATABASE_URL: database.url,
};
const app = await startApp(env, { logFile: join(out, "listing-console.log") });
let browser: Browser | undefined;
try {
  const demo = app.firstStart.demo!;
  const token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  const host = await accessToken(app.url, "admin", ADMIN_PASSWORD);
  await callApi(app.url, host, "POST", "/api/SystemConfigSetting/CreateOrUpdate", {
    name: "新版本租户",
    key: "Console.NewVersionTenants",
    value: demo.tenant,
  });
  await until(
    "demo products",
    () => callApi<{ items: unknown[] }>(app.url, token, "POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 }),
    (p) => p.items.length >= 16,
  );
  const seeded = await seed(database.url, demo.tenant);
  browser = await launchChromium();
  const runs = [];
  for (let run = 0; run < Number(args.runs); run++) {
    log(`[browser] run ${run + 1} (load ${loadAvg()})`);
    const r = await browserRun(browser, app.url, demo, run);
    const raw: Record<string, Awaited<ReturnType<typeof rawApi>>> = {};
    for (const [k, s] of Object.entries(r.steps)) raw[k] = await rawApi(s.calls, Number(args.replays));
    runs.push({ ...r, raw, loadavg: loadAvg() });
  }

  const names: Record<string, string> = {
    open: "(a) open from the menu → rows + tab counts",
    tab: "(c) 已暂停 tab → its rows",
    search: `(b) title search “${args.search}” (Enter) → matching rows`,
    size500: "(d) page size 500 (virtualized) → grid rendered",
    selectAllPrice: "(f) select all matching + 改价 → dialog count",
    submit: "(g) submit 改价 199 for all matching → toast",
  };
  console.log(`\n## Listing centre console at ${seeded.listings.toLocaleString("en")} listings (issue 16) — ${started.toISOString()}`);
  console.log(
    `machine: ${m.nproc} × ${m.cpuModel}, ${m.memGiB} GiB, Node ${m.node}, PostgreSQL (${args["pg-url"]}); load average at start ${m.loadavg}; seed ${f(seeded.ms)} ms\n`,
  );
  console.log(
    `| step | ${runs.map((_, i) => `run ${i + 1}: UI | page sent → last answer | raw API | UI / raw`).join(" | ")} | API calls |`,
  );
  console.log(`|---|${runs.map(() => "---|---|---|---").join("|")}|---|`);
  for (const k of Object.keys(names)) {
    const cells = runs.map((r) => {
      const ui = r.steps[k].ui;
      const api = r.raw[k].max;
      const st = r.steps[k];
      const answered = st.answered ? `${f(st.sent)} → ${f(st.answered)} ms` : "–";
      return `${f(ui)} ms | ${answered} | ${api ? `${f(api, 1)} ms` : "none"} | ${api ? `${f(ui / api, 1)}×` : "–"}`;
    });
    const calls = [...new Set(runs[0].steps[k].calls.map((c) => new URL(c.url).pathname.replace("/api/", "")))].join(", ");
    console.log(`| ${names[k]} | ${cells.join(" | ")} | ${calls || "none"} |`);
  }
  console.log(`\n| run | (e) scroll 500 rows to the bottom | frames | frame gap p50 | p95 | max | gaps > 50 ms | last row index |`);
  console.log("|---|---|---|---|---|---|---|---|");
  runs.forEach((r, i) => {
    const g = stats(r.scroll.gaps.slice(1));
    const long = r.scroll.gaps.slice(1).filter((x) => x > 50).length;
    console.log(
      `| ${i + 1} | ${f(r.scroll.ms)} ms | ${r.scroll.gaps.length} | ${f(g.p50, 1)} ms | ${f(g.p95, 1)} ms | ${f(g.max, 1)} ms | ${long} | ${r.scroll.lastRow} |`,
    );
  });
  console.log(`\nshown: ${JSON.stringify(runs[0].extra)}`);
  console.log("\nraw API per call (run 1, median of replays):");
  for (const [k, v] of Object.entries(runs[0].raw))
    for (const p of v.per) console.log(`- ${k}: ${f(p.p50, 1)} ms, ${p.bytes} B — ${p.path}`);
  writeFileSync(
    join(out, `listing-console-${started.toISOString().replace(/[:.]/g, "-")}.json`),
    JSON.stringify({ machine: m, seeded, runs }, null, 2),
  );
} finally {
  await browser?.close();
  await app.stop();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
