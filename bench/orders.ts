// Orders benchmark (issue 18), two parts:
//
// list  GetOrders (and GetMeliOrderGroupInfo, the status tabs) at 1,000,000 orders in one tenant on PostgreSQL, each
//       filter scenario's HTTP call against the same SQL replayed directly (bench/replay.ts, the listing list's method):
//       alone (p50 of --alone calls one after the other; target: HTTP within 2 ms of its SQL) and at --connections
//       connections (requests per second; target: HTTP ≥ 70 % of the SQL replayed through a pool of that size).
//       A fresh database on --pg-url (dropped after unless --keep); the real server (server/main.ts, what `npm start`
//       runs after building the console) started once for its migrations and the demo tenant, then, on the owner connection (set-based SQL, generate_series):
//       2 sub-accounts (bench1 owns group 0's site 2: ~2 % of the orders), 12 shop groups (10 local, 2 cross-border)
//       of 4 sites each, the orders (one a minute back over ~23 months) with their lines (1.2 a order), the secondary
//       indexes dropped for the insert and built again after it; VACUUM ANALYZE. EXPLAIN (ANALYZE, BUFFERS) of each
//       scenario's statements goes to bench/.data/orders-explain.txt.
// pull  An order pull of --shops sandbox sellers × --per-shop orders: the sandbox in its own process behind the
//       recording tap (e2e/publish-rig.ts), the app (ROLE all) on a fresh PostgreSQL database, each seller connected
//       through the consent form, its orders created paid in the sandbox, then FetchOrders once per shop (each its
//       own task; the fetch job runs 2 at a time, as the periodic pull runs its groups side by side) until every task
//       has finished. Reported: the time, orders stored, the marketplace calls, and per seller the order searches and
//       the most in any sliding 60 s against Mercado Libre's 100 a minute (the app's bucket: 95 + a burst of 5, keyed
//       by the seller as the sandbox keys its limit); any 429 fails the run.
//
//   npm run bench:orders                                     # both parts: 1,000,000 orders; 10 shops × 1,000 orders
//   npm run bench:orders -- --parts=list --rows=200000 --duration=5 --warmup=1 --connections=50 --only=none,status-2
//   npm run bench:orders -- --parts=pull --shops=10 --per-shop=1000
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { accessToken, callApi, createFreshPostgresDatabase, freePort, parseFirstStart, repoRoot } from "../e2e/app-process.ts";
import {
  appEnv,
  connectSeller,
  maxInWindow,
  sleep,
  startSandboxProcess,
  startServer,
  startTap,
  type Proc,
  type TapCall,
} from "../e2e/publish-rig.ts";
import { getMeliOrderGroupInfo, getOrders } from "../server/modules/orders/list.ts";
import { ORDER_SEARCH_RATE } from "../server/modules/orders/sync.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { getOrdersQuery, orderFilterQuery } from "#shared/contract/orders.ts";
import { cpuMeter, loadAvg, machine } from "./measure.ts";
import { aloneHttp, aloneSql, capture, explain, httpLoad, principalOf, replayOptions, sqlLoad, type Load } from "./replay.ts";
import { accountIdSql, dropSecondaryIndexes, groupIdSql, seedShopTenant } from "./seed.ts";

const { values: args } = parseArgs({
  options: {
    parts: { type: "string", default: "list,pull" },
    rows: { type: "string", default: "1000000" },
    ...replayOptions,
    // This benchmark's own database default.
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
    shops: { type: "string", default: "10" },
    "per-shop": { type: "string", default: "1000" },
  },
});

const ROWS = Number(args.rows);
const load: Load = { connections: Number(args.connections), duration: Number(args.duration), warmup: Number(args.warmup) };
const PAGE = Number(args["page-size"]);
const ADMIN_PASSWORD = "Bench-Admin-1";
const SUB_PASSWORD = "Bench-Sub-1";
const outDir = join(repoRoot, "bench", ".data");
const log = (line: string) => console.error(line);
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");
const parts = new Set(args.parts!.split(",").map((p) => p.trim()));

// ---------------------------------------------------------------------------------------------------------------
// The list: seed.

/** PostgreSQL's md5(text)::uuid in JS. */
function md5Uuid(key: string): string {
  const h = createHash("md5").update(key).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
/** Order g's Mercado Libre id, and the pack of orders 10n and 10n + 1. */
const ORDER_NO_BASE = 2_000_000_000;
const PACK_BASE = 4_000_000_000;

async function seed(url: string, tenantName: string) {
  const t0 = Date.now();
  const { tenantId, main, sub } = await seedShopTenant(url, tenantName, SUB_PASSWORD);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const T = `'${tenantId}'::uuid`;
    const indexes = await dropSecondaryIndexes(c, ["orders", "order_items"]);
    let t = Date.now();
    const chunk = 200_000;
    for (let from = 0; from < ROWS; from += chunk) {
      const to = Math.min(ROWS, from + chunk) - 1;
      // g: the order (one a minute back from now); k = g % 12: its shop group (10, 11 cross-border); s: its site;
      // h: a hash for the spreads; st: its status (3 % unpaid, 15 % paid, 10 % ready to ship, 12 % shipped,
      // 50 % delivered, 2 % not delivered, 8 % cancelled).
      await c.query(`insert into orders (tenant_id, id, meli_order_id, pack_id, account_group_id, account_id, user_id, site, is_cbt,
          currency, status, meli_status, shipment_id, shipment_status, shipment_substatus, buyer_id, buyer_nickname,
          total_amount, sale_fee, freight_fee, cost, profit, profit_detail, logistics_name, logistics_number, thumb, address,
          order_time, delivery_time, signing_time, estimated_delivery_time, must_send_time, meli_updated, sync_time,
          creation_time, last_modification_time)
        select ${T}, md5('order-' || g)::uuid, (${ORDER_NO_BASE} + g)::text,
          case when (g / 2) % 5 = 0 then (${PACK_BASE} + g / 2)::text end,
          ${groupIdSql("k")}, ${accountIdSql("k", "s")},
          case when k = 0 and s = 2 then '${sub}'::uuid else '${main}'::uuid end,
          s, k >= 10, cur, st,
          case st when 1 then 'payment_required' when 7 then 'cancelled' else 'paid' end,
          case when st between 2 and 6 then (${PACK_BASE * 10} + g)::text end,
          (array[null, 'handling', 'ready_to_ship', 'shipped', 'delivered', 'not_delivered', null])[st],
          case when st = 3 then 'ready_to_print' end,
          (5000000 + h % 100000)::text, 'COMPRADOR' || (h % 100000),
          amount, round(amount * 0.13, 2), freight, cost, amount - round(amount * 0.13, 2) - freight - cost,
          jsonb_build_object('currency', cur, 'salePrice', amount, 'saleFee', round(amount * 0.13, 2), 'freight', freight,
            'productCost', cost, 'profit', amount - round(amount * 0.13, 2) - freight - cost, 'profitCny', null,
            'rates', '[]'::jsonb, 'complete', true, 'missing', '[]'::jsonb),
          case when st between 2 and 6 then 'Mercado Envíos' end,
          case when st between 4 and 6 then 'TRK' || g end,
          'https://http2.mlstatic.com/D_' || (h % 5000) || '-O.jpg',
          jsonb_build_object('id', (h % 100000)::text, 'name', 'Comprador ' || (h % 100000), 'email', null, 'phone', '55' || (h % 100000000),
            'moblle', null, 'country', 'MX', 'state', 'Jalisco', 'city', 'Guadalajara', 'region', null, 'postalCode', '44100',
            'company', null, 'street', 'Av. Juárez ' || (h % 900), 'address', 'Av. Juárez ' || (h % 900) || ', Guadalajara, Jalisco 44100'),
          at,
          case when st between 4 and 6 then at + interval '2 days' end,
          case when st = 5 then at + interval '6 days' end,
          at + interval '7 days',
          case when st in (2, 3) then at + interval '1 day' end,
          at + (h % 72) * interval '1 hour', at + (h % 72) * interval '1 hour', at,
          at + (h % 72) * interval '1 hour'
        from (
          select g, k, s, h, st, (array['MXN','BRL','CLP','COP'])[s] as cur, now() - g * interval '1 minute' as at,
            (1 + (h % 50000) / 100.0)::numeric(18,2) as amount, ((h % 9000) / 100.0)::numeric(18,2) as freight,
            ((h % 20000) / 100.0)::numeric(18,2) as cost
          from (
            select g, g % 12 as k, 1 + (g / 12) % 4 as s, h,
              case when h % 100 < 3 then 1 when h % 100 < 18 then 2 when h % 100 < 28 then 3 when h % 100 < 40 then 4
                   when h % 100 < 90 then 5 when h % 100 < 92 then 6 else 7 end as st
            from (select g, abs(hashint4(g)) as h from generate_series(${from}, ${to}) g) x
          ) y
        ) z`);
      await c.query(`insert into order_items (tenant_id, order_id, line, item_id, variation_id, title, thumb, link, quantity, unit_price,
          sale_fee, sku, vkes, listing_id, product_id)
        select ${T}, md5('order-' || g)::uuid, line, (array['MLM','MLB','MLC','MCO'])[1 + (g / 12) % 4] || (1000000 + h % 300000),
          case when h % 3 = 0 then (180000000 + h % 1000)::text end,
          'Producto ' || (array['zapatos','camisa','bolsa','reloj','lampara','mesa','silla','nuevo'])[1 + h % 8] || ' ' || (h % 300000),
          'https://http2.mlstatic.com/D_' || (h % 5000) || '-O.jpg', 'https://articulo.example/' || (h % 300000),
          1 + h % 3, (1 + (h % 50000) / 100.0)::numeric(18,2), round((1 + (h % 50000) / 100.0) * 0.13, 2),
          'SKU-' || (h % 100000),
          case when h % 3 = 0 then '["Color: Negro", "Talla: M"]'::jsonb else '[]'::jsonb end,
          null, null
        from (select g, abs(hashint4(g)) as h from generate_series(${from}, ${to}) g) x,
          generate_series(1, case when abs(hashint4(g)) % 5 = 0 then 2 else 1 end) line`);
      log(`[seed] orders ${to + 1}/${ROWS}: ${Date.now() - t} ms`);
    }
    const insertMs = Date.now() - t;
    const { count: indexCount, ms: indexMs, vacuumMs } = await indexes.rebuild();
    log(`[seed] ${ROWS} orders: insert ${insertMs} ms, ${indexCount} indexes ${indexMs} ms, vacuum analyze ${vacuumMs} ms`);
    return { tenantId, main, sub, ms: { insert: insertMs, indexes: indexMs, vacuum: vacuumMs, total: Date.now() - t0 } };
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The list: scenarios.

type Who = "main" | "sub";
type Scenario = { key: string; name: string; who: Who; call: "GetOrders" | "GetMeliOrderGroupInfo"; query: Record<string, string> };

function scenarios(s: Awaited<ReturnType<typeof seed>>): Scenario[] {
  const minute = 60_000;
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * minute).toISOString();
  const g = (n: number) => Math.min(n, ROWS - 1);
  const page = (key: string, name: string, query: Record<string, string | number>, who: Who = "main"): Scenario => ({
    key,
    name,
    who,
    call: "GetOrders",
    query: Object.fromEntries(Object.entries({ MaxResultCount: PAGE, SkipCount: 0, ...query }).map(([k, v]) => [k, String(v)])),
  });
  const tabs = (key: string, name: string, query: Record<string, string | number>, who: Who = "main"): Scenario => ({
    key,
    name,
    who,
    call: "GetMeliOrderGroupInfo",
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  const group3 = md5Uuid("group-3");
  // A week of orders two months back (~10,000 orders at 1M), and the same week as the ranges' end for a wide range.
  const weekFrom = at(g(Math.floor(ROWS * 0.1)) + 7 * 1440);
  const weekTo = at(g(Math.floor(ROWS * 0.1)));
  const all: Scenario[] = [
    page("none", "no filter (all, newest first)", {}),
    page("status-1", "tab 待付款 (status 1, ~3 %)", { OrderStatus: 1 }),
    page("status-2", "tab 待发货 (status 2, ~15 %)", { OrderStatus: 2 }),
    page("status-3", "tab 待打单 (status 3, ~10 %)", { OrderStatus: 3 }),
    page("status-7", "tab 已取消 (status 7, ~8 %)", { OrderStatus: 7 }),
    page("shop", "shop (AccountGroupId, ~8 %)", { AccountGroupId: group3 }),
    page("shop-status", "shop + status 3 (~0.8 %)", { AccountGroupId: group3, OrderStatus: 3 }),
    page("site", "site 2 (~25 %)", { Site: 2 }),
    page("site-status", "site 2 + status 2 (~4 %)", { Site: 2, OrderStatus: 2 }),
    page("orderno", "order no (one order)", { OrderNo: String(ORDER_NO_BASE + g(123_457)) }),
    page("pack", "pack (two orders)", { PackOrderId: String(PACK_BASE + Math.floor((g(123_450) - (g(123_450) % 10)) / 2)) }),
    page("user", "UserId (a sub-account's shop, ~2 %)", { UserId: s.sub }),
    page("range", "time range (a week, 2 months back)", { StartTime: weekFrom, EndTime: weekTo }),
    page("range-status", "time range + status 5", { StartTime: weekFrom, EndTime: weekTo, OrderStatus: 5 }),
    page("range-shop", "time range + shop", { StartTime: weekFrom, EndTime: weekTo, AccountGroupId: group3 }),
    page("sort-must", "status 2 sorted by mustSendTime asc", { OrderStatus: 2, Sorting: "mustSendTime asc" }),
    page("sort-must-desc", "sorted by mustSendTime desc (no filter)", { Sorting: "mustSendTime desc" }),
    page("sort-mod", "sorted by lastModificationTime desc", { Sorting: "lastModificationTime desc" }),
    page("sort-asc", "sorted by orderTime asc (oldest first)", { Sorting: "orderTime asc" }),
    page("deep", "deep page (SkipCount 10,000)", { SkipCount: 10_000 }),
    page("deep-status", "status 5, deep page (SkipCount 5,000)", { OrderStatus: 5, SkipCount: 5_000 }),
    page("sub", "sub-account (its one shop site, ~2 %)", {}, "sub"),
    page("sub-status", "sub-account, status 2", { OrderStatus: 2 }, "sub"),
    tabs("tabs", "GetMeliOrderGroupInfo, no filter", {}),
    tabs("tabs-filter", "GetMeliOrderGroupInfo, status 2 + site 1", { OrderStatus: 2, Site: 1 }),
    tabs("tabs-range", "GetMeliOrderGroupInfo, a week's range", { StartTime: weekFrom, EndTime: weekTo }),
    tabs("tabs-sub", "GetMeliOrderGroupInfo, sub-account", {}, "sub"),
  ];
  const only = args.only?.split(",").map((x) => x.trim().toLowerCase());
  return all.filter((x) => !only || only.includes(x.key));
}

type ListRow = {
  key: string;
  name: string;
  total: string;
  aloneHttp: number;
  aloneSql: number;
  load: { http: Awaited<ReturnType<typeof httpLoad>>; sql: Awaited<ReturnType<typeof sqlLoad>> } | null;
};

async function listPart(out: string[]) {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-orders-"));
  const db = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_orders");
  const env = { DATA_DIR: dataDir, DATABASE_URL: db.url, HOST: "127.0.0.1", ADMIN_PASSWORD, LOG_LEVEL: args["log-level"]! };
  let app: Proc | undefined;
  let pool: pg.Pool | undefined;
  let client: pg.Client | undefined;
  const rows: ListRow[] = [];
  try {
    // The server itself (server/main.ts, as `npm start` runs it once the console is built: the API needs no console).
    const first = await startServer(env);
    const demo = parseFirstStart(first.output()).demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${first.output()}`);
    await first.kill("SIGTERM");
    const loadBefore = loadAvg();
    const s = await seed(db.url, demo.tenant);
    app = await startServer(env);
    const tokens = {
      main: await accessToken(app.url!, demo.user, demo.password, demo.tenant),
      sub: await accessToken(app.url!, "bench1", SUB_PASSWORD, demo.tenant),
    };
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const pgVersion = (await client.query<{ v: string }>("select version() as v")).rows[0].v;
    pool = new pg.Pool({ connectionString: db.url, max: load.connections });
    pool.on("error", () => {});
    const plans: string[] = [];
    for (const sc of scenarios(s)) {
      const token = tokens[sc.who];
      const url = `${app.url!}/api/Order/${sc.call}?${new URLSearchParams(sc.query)}`;
      const cap = await capture(client, s.tenantId, principalOf(token), async (ctx) =>
        sc.call === "GetOrders"
          ? (JSON.parse((await getOrders(ctx, getOrdersQuery.parse(sc.query))).json) as unknown)
          : await getMeliOrderGroupInfo(ctx, orderFilterQuery.parse(sc.query)),
      );
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const answer = (await res.json()) as { result: unknown };
      if (res.status !== 200 || JSON.stringify(answer.result) !== JSON.stringify(cap.result))
        throw new Error(`${sc.name}: the server's answer (${res.status}) differs from the service's in this process`);
      plans.push(`### ${sc.name}\n\n${await explain(db.url, s.tenantId, cap.statements)}`);
      const r = cap.result as { totalCount?: number; totalCountCapped?: boolean; total?: { count: number; capped: boolean } };
      const total =
        sc.call === "GetOrders" ? `${r.totalCount}${r.totalCountCapped ? "+" : ""}` : `${r.total!.count}${r.total!.capped ? "+" : ""}`;
      const n = Number(args.alone);
      const ah = await aloneHttp(url, token, null, n);
      const as = await aloneSql(pool, cap.begin, cap.statements, n);
      let measured: ListRow["load"] = null;
      if (ah.p50 <= Number(args["probe-limit"]) && load.duration > 0) {
        const http = await httpLoad(url, token, null, app.child.pid!, load);
        const sqlR = await sqlLoad(pool, cap.begin, cap.statements, load, log);
        measured = { http, sql: sqlR };
      }
      rows.push({ key: sc.key, name: sc.name, total, aloneHttp: ah.p50, aloneSql: as.p50, load: measured });
      log(
        `${sc.name}: total ${total}; alone HTTP ${f(ah.p50, 2)} ms, SQL ${f(as.p50, 2)} ms (+${f(ah.p50 - as.p50, 2)} ms)` +
          (measured
            ? `; ${load.connections} conns: HTTP ${f(measured.http.rps, 0)} rps (p50 ${f(measured.http.p50)} ms, non2xx ${measured.http.non2xx}), SQL ${f(measured.sql.rps, 0)} rps → ${f((measured.http.rps / measured.sql.rps) * 100, 0)} %`
            : ""),
      );
    }
    writeFileSync(join(outDir, "orders-explain.txt"), plans.join("\n\n"));
    const within = rows.filter((r) => r.aloneHttp - r.aloneSql <= 2).length;
    const ratio = rows.filter((r) => r.load && r.load.http.rps / r.load.sql.rps >= 0.7).length;
    out.push(`### GetOrders and GetMeliOrderGroupInfo at ${ROWS.toLocaleString("en")} orders (PostgreSQL)\n`);
    out.push(`${pgVersion.split(",")[0]}; load average before the seed ${loadBefore}, after the run ${loadAvg()}`);
    out.push(
      `command: npm run bench:orders -- --parts=list --rows=${ROWS} --duration=${load.duration} --warmup=${load.warmup} --connections=${load.connections} --alone=${args.alone}  (${f((Date.now() - started) / 1000, 0)} s)`,
    );
    out.push(
      `seed: ${ROWS} orders (+ ~${Math.round(ROWS * 1.2)} lines), 12 shop groups × 4 sites: insert ${f(s.ms.insert / 1000)} s, indexes ${f(s.ms.indexes / 1000)} s, vacuum analyze ${f(s.ms.vacuum / 1000)} s`,
    );
    out.push(
      `alone within 2 ms of its SQL: ${within}/${rows.length}; HTTP ≥ 70 % of SQL at ${load.connections}: ${ratio}/${rows.length}\n`,
    );
    out.push(
      `| call | matches | alone p50 HTTP (ms) | alone p50 SQL (ms) | HTTP − SQL (ms) | HTTP rps at ${load.connections} | SQL rps at ${load.connections} | HTTP/SQL | HTTP p50/p99 at ${load.connections} (ms) |`,
    );
    out.push("|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      const l = r.load;
      out.push(
        `| ${r.name} | ${r.total} | ${f(r.aloneHttp, 2)} | ${f(r.aloneSql, 2)} | ${f(r.aloneHttp - r.aloneSql, 2)} | ${l ? f(l.http.rps, 0) : "–"} | ${l ? f(l.sql.rps, 0) : "–"} | ${l ? f((l.http.rps / l.sql.rps) * 100, 0) + " %" : "–"} | ${l ? `${f(l.http.p50)} / ${f(l.http.p99)}` : "–"} |`,
      );
    }
    writeFileSync(join(outDir, "orders-list.json"), JSON.stringify({ rows, seed: s }, null, 2));
  } finally {
    await pool?.end().catch(() => {});
    await client?.end().catch(() => {});
    if (app) await app.kill("SIGTERM");
    if (!args.keep) await db.drop();
    else log(`kept database ${db.url}`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The pull.

type Task = { id: string; taskStatus: number; progress: number; taskRemark: string };

async function pullPart(out: string[]) {
  const shops = Number(args.shops);
  const perShop = Number(args["per-shop"]);
  const sandbox = await startSandboxProcess();
  const tap = await startTap(sandbox.url);
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-order-pull-"));
  const database = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_order_pull");
  let app: Proc | undefined;
  try {
    const env = appEnv({ dataDir, databaseUrl: database.url, apiUrl: tap.url, sandboxUrl: sandbox.url, port: await freePort() });
    app = await startServer(env, "all");
    const url = app.url!;
    const demo = parseFirstStart(app.output()).demo;
    if (!demo) throw new Error(`no demo tenant in the first start's output:\n${app.output()}`);
    const token = await accessToken(url, demo.user, demo.password, demo.tenant);
    const sellers: { nickname: string; groupId: string; sellerId: number }[] = [];
    for (let i = 0; i < shops; i++) {
      const nickname = `BENCH_PEDIDOS_${i}`;
      const groupId = await connectSeller(url, token, { nickname, site: "MLM" });
      const { id: sellerId } = await sandbox.ctl<{ id: number }>("POST", "sellers", { nickname });
      sellers.push({ nickname, groupId, sellerId });
    }
    log(`[pull] ${shops} shops connected; creating ${perShop} paid orders each in the sandbox…`);
    let t = Date.now();
    const jobs = sellers.flatMap((s) => Array.from({ length: perShop }, () => s.sellerId));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < jobs.length; i = next++) await sandbox.ctl("POST", "orders", { sellerId: jobs[i], status: "paid" });
      }),
    );
    log(`[pull] ${jobs.length} sandbox orders in ${Date.now() - t} ms`);

    tap.calls.length = 0;
    const loadBefore = loadAvg();
    const cpu = cpuMeter(app.child.pid);
    const started = performance.now();
    const taskIds: string[] = [];
    for (const s of sellers) {
      const r = await callApi<{ taskId: string }>(url, token, "GET", `/api/Order/FetchOrders?GroupId=${s.groupId}`);
      taskIds.push(r.taskId);
    }
    let tasks: Task[] = [];
    for (;;) {
      const page = await callApi<{ items: Task[] }>(
        url,
        token,
        "GET",
        `/api/TaskInfo/GetTaskInfoByPage?TaskType=${TaskType.SyncOrders}&MaxResultCount=100`,
      );
      tasks = page.items.filter((x) => taskIds.includes(x.id));
      if (
        tasks.length === taskIds.length &&
        tasks.every((x) => x.taskStatus === TaskStatus.Succeeded || x.taskStatus === TaskStatus.Failed)
      )
        break;
      if (performance.now() - started > 30 * 60_000) throw new Error(`the pull did not finish: ${JSON.stringify(tasks)}`);
      await sleep(500);
    }
    const seconds = (performance.now() - started) / 1000;
    const used = cpu();
    const c = new pg.Client({ connectionString: database.url });
    await c.connect();
    const stored = Number((await c.query<{ n: string }>("select count(*) as n from orders")).rows[0].n);
    const lines = Number((await c.query<{ n: string }>("select count(*) as n from order_items")).rows[0].n);
    await c.end();

    const calls = tap.calls.filter((x) => x.seller);
    const searches = calls.filter((x) => x.path === "/orders/search");
    const bySeller = new Map<string, TapCall[]>();
    for (const x of searches) {
      const seller = new URLSearchParams(x.query).get("seller") ?? "?";
      bySeller.set(seller, [...(bySeller.get(seller) ?? []), x]);
    }
    const perSeller = [...bySeller.values()].map((list) => ({ n: list.length, maxMinute: maxInWindow(list, 60_000) }));
    const maxMinute = Math.max(0, ...perSeller.map((x) => x.maxMinute));
    const rejected = tap.calls.filter((x) => x.status === 429).length;
    const shipments = calls.filter((x) => /^\/shipments\/[^/]+$/.test(x.path)).length;
    const failed = tasks.filter((x) => x.taskStatus !== TaskStatus.Succeeded);
    const searchSpan = searches.length ? (Math.max(...searches.map((x) => x.start)) - Math.min(...searches.map((x) => x.start))) / 1000 : 0;
    const limit = ORDER_SEARCH_RATE.perMinute + ORDER_SEARCH_RATE.burst;
    out.push(`### Order pull: ${shops} sandbox shops × ${perShop} orders (FetchOrders once per shop)\n`);
    out.push(`PostgreSQL; load average before the pull ${loadBefore}, after ${loadAvg()}`);
    out.push(`command: npm run bench:orders -- --parts=pull --shops=${shops} --per-shop=${perShop}\n`);
    out.push(
      "| orders in the sandbox | stored (lines) | tasks succeeded | time | orders/s | searches (per seller) | most searches of a seller in any 60 s / limit | share of the limit over the pull | shipment reads | seller calls | 429s | app CPU / machine busy |",
    );
    out.push("|---|---|---|---|---|---|---|---|---|---|---|---|");
    const avgPerMinute = searches.length && seconds ? searches.length / bySeller.size / (seconds / 60) : 0;
    out.push(
      `| ${jobs.length} | ${stored} (${lines}) | ${tasks.length - failed.length}/${tasks.length} | ${f(seconds)} s | ${f(stored / seconds, 0)} | ${searches.length} (${perSeller.map((x) => x.n).join(", ")}) | ${maxMinute} / 100 (bucket ${limit}) | ${f(avgPerMinute, 1)} a minute a seller = ${f(avgPerMinute, 1)} % | ${shipments} | ${calls.length} | ${rejected} | ${f(used.processCpuPct, 0)} % / ${f(used.machineBusyPct, 0)} % |`,
    );
    log(`[pull] ${stored} stored in ${f(seconds)} s; searches ${searches.length} over ${f(searchSpan)} s; most in a minute ${maxMinute}`);
    if (failed.length) throw new Error(`tasks failed: ${JSON.stringify(failed)}`);
    // The sandbox's own stream of orders (orders appear over its clock) may add a few to the ones created here.
    if (stored < jobs.length) throw new Error(`stored ${stored} orders, fewer than the ${jobs.length} created`);
    if (maxMinute > 100) throw new Error(`a seller made ${maxMinute} order searches in a minute (limit 100)`);
    if (rejected) throw new Error(`${rejected} calls were refused with 429`);
  } finally {
    await app?.kill();
    await sandbox.proc.kill();
    await tap.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------

mkdirSync(outDir, { recursive: true });
const m = machine();
console.log(`machine: ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}; load average at the start ${m.loadavg}\n`);
// Each part's figures are printed as soon as it has finished (a failing pull keeps the list's).
for (const [name, part] of [
  ["list", listPart],
  ["pull", pullPart],
] as const) {
  if (!parts.has(name)) continue;
  const out: string[] = [];
  try {
    await part(out);
  } finally {
    console.log(out.join("\n") + "\n");
  }
}
