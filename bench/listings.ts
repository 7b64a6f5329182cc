// Listing centre benchmark (issue 16): GetMeliStatsByPage and GetMeliStatGroupInfo at 1,000,000 listings in one tenant
// on PostgreSQL, each call's time against the same SQL run directly.
//
//   npm run bench:listings                                   # 1,000,000 listings, defaults below
//   npm run bench:listings -- --rows=200000 --duration=5 --warmup=1 --connections=50 --only=status,sub
//
// A fresh database on --pg-url (dropped after unless --keep); the real server (`node scripts/start.mjs`) started once
// for its migrations and the demo tenant; then, on the owner connection (set-based SQL, generate_series): 2 sub-accounts
// (bench1, bench2), 12 shop groups (10 local, 2 cross-border) of 4 sites each (bench1 owns group 0's site 2: ~2 % of
// the listings), rows/10 products, and the listings (the listings' secondary indexes dropped for the insert and built
// again after it; VACUUM ANALYZE). Per scenario:
// - the statements the service issues are captured by calling the service itself in this process on a logging drizzle
//   instance, inside the transaction the server opens (one round trip: `begin; set role erp_app, app.tenant_id;` and
//   the session check); the server's answer is checked equal to the service's;
// - alone: --alone requests one after the other over HTTP, and the captured statements replayed as many times on one
//   connection (begin+scope+session check, statements, commit: all the database work of one request); p50 of each;
// - under load: autocannon with --connections connections for --duration s after --warmup s, and the same statements
//   replayed through a pg.Pool of that size with as many concurrent workers for the same time; requests per second.
// EXPLAIN (ANALYZE, BUFFERS) of each captured statement goes to bench/.data/listings-explain.txt.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { accessToken, createFreshPostgresDatabase, freePort, repoRoot, startApp, type AppProcess } from "../e2e/app-process.ts";
import type { CallContext } from "../server/http/calls.ts";
import { getMeliStatGroupInfo, getMeliStatsByPage, type ListingKind } from "../server/modules/listings/list.ts";
import { getMeliStatsByPageInput, listingFilter } from "#shared/contract/listings.ts";
import { loadAvg, machine } from "./measure.ts";
import { aloneHttp, aloneSql, capture, explain, httpLoad, openReplay, principalOf, replayOptions, sqlLoad } from "./replay.ts";
import { accountIdSql, dropSecondaryIndexes, groupIdSql, seedShopTenant } from "./seed.ts";

const { values: args } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    ...replayOptions,
  },
});

const ROWS = Number(args.rows);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const PAGE = Number(args["page-size"]);
const ADMIN_PASSWORD = "Bench-Admin-1";
const SUB_PASSWORD = "Bench-Sub-1";
const RARE = "carbono";
const outDir = join(repoRoot, "bench", ".data");
const log = (line: string) => console.error(line);
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");

// ---------------------------------------------------------------------------------------------------------------
// Seed.

async function seed(url: string, tenantName: string) {
  const t0 = Date.now();
  const { tenantId, main, sub } = await seedShopTenant(url, tenantName, SUB_PASSWORD);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const T = `'${tenantId}'::uuid`;
    const products = Math.max(1, Math.floor(ROWS / 10));
    let t = Date.now();
    await c.query(`insert into products (tenant_id, id, user_id, status, title, sku)
      select ${T}, md5('product-' || g)::uuid, '${main}', 1, jsonb_build_object('es', 'Producto ' || g), 'SKU-' || g
      from generate_series(0, ${products - 1}) g`);
    log(`[seed] ${products} products: ${Date.now() - t} ms`);
    const indexes = await dropSecondaryIndexes(c, ["listings"]);
    t = Date.now();
    const chunk = 200_000;
    for (let from = 0; from < ROWS; from += chunk) {
      const to = Math.min(ROWS, from + chunk) - 1;
      // g: the listing; k = g % 12: its shop group (10, 11 cross-border); s: its site; h: a hash for the spreads.
      await c.query(`insert into listings (tenant_id, id, account_group_id, account_id, user_id, product_id, product_label_id, site,
          cbt_id, item_id, cate_id, title, status, price, currency, reason, warning_message, permalink, listing_type, stock,
          variant_infos, health, orders, views, creation_time, last_modification_time, sync_time)
        select ${T}, gen_random_uuid(), ${groupIdSql("k")}, ${accountIdSql("k", "s")},
          case when k = 0 and s = 2 then '${sub}'::uuid else '${main}'::uuid end,
          md5('product-' || (g % ${products}))::uuid,
          case when h % 25 = 0 then md5('label-' || (h % 4))::uuid end,
          s,
          case when k >= 10 then 'CBT' || (g / 48) end,
          case when st between 3 and 6 then (array['MLM','MLB','MLC','MCO'])[s] || g end,
          (array['MLM','MLB','MLC','MCO'])[s] || (1000 + h % 300),
          case when st = 9 and h % 2 = 0 then null
               else 'Producto ' || (array['zapatos','camisa','bolsa','reloj','lampara','mesa','silla','nuevo'])[1 + h % 8] || ' ' || g
                    || case when h % 2000 = 7 then ' ${RARE}' else '' end end,
          st,
          (1 + (h % 50000) / 100.0)::numeric(18,2),
          (array['MXN','BRL','CLP','COP'])[s],
          case when st = 7 then '类目属性缺失: 品牌 ' || (h % 10) when st = 9 then '缺少重量' end,
          case when h % 50 = 0 then '库存不足' end,
          case when st between 3 and 6 then 'https://articulo.example/' || g end,
          case when h % 3 = 0 then 'gold_pro' else 'gold_special' end,
          h % 200,
          case when h % 100 = 0 then jsonb_build_array(jsonb_build_object('sku', 'V-' || g, 'stock', h % 200)) else '[]'::jsonb end,
          (h % 100) / 100.0,
          case when h % 5 = 0 then h % 17 else 0 end,
          case when h % 3 = 0 then h % 500 else 0 end,
          now() - g * interval '30 seconds',
          case when h % 4 = 0 then null else now() - (g / 2) * interval '30 seconds' end,
          now() - (h % 1000) * interval '1 minute'
        from (
          select g, g % 12 as k, 1 + (g / 12) % 4 as s, h,
            case when h % 100 < 60 then 3 when h % 100 < 80 then 4 when h % 100 < 88 then 5 when h % 100 < 93 then 7
                 when h % 100 < 96 then 9 when h % 100 < 98 then 6 when h % 100 < 99 then 1 else 8 end as st
          from (select g, abs(hashint4(g)) as h from generate_series(${from}, ${to}) g) x
        ) y`);
      log(`[seed] listings ${to + 1}/${ROWS}: ${Date.now() - t} ms`);
    }
    const insertMs = Date.now() - t;
    const { count: indexCount, ms: indexMs, vacuumMs } = await indexes.rebuild(["products"]);
    log(`[seed] ${ROWS} listings: insert ${insertMs} ms, ${indexCount} indexes ${indexMs} ms, vacuum analyze ${vacuumMs} ms`);
    const label = md5Uuid("label-1");
    return { tenantId, main, sub, products, ms: { insert: insertMs, indexes: indexMs, vacuum: vacuumMs, total: Date.now() - t0 }, label };
  } finally {
    await c.end();
  }
}

/** PostgreSQL's md5(text)::uuid in JS. */
function md5Uuid(key: string): string {
  const h = createHash("md5").update(key).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios.

type Who = "main" | "sub";
type Scenario = { key: string; name: string; who: Who; call: "page" | "groups"; kind: ListingKind; body: Record<string, unknown> };

function scenarios(s: Awaited<ReturnType<typeof seed>>): Scenario[] {
  const day = 86_400_000;
  const now = Date.now();
  const page = (key: string, name: string, body: Record<string, unknown>, who: Who = "main", kind: ListingKind = "local"): Scenario => ({
    key,
    name,
    who,
    call: "page",
    kind,
    body: { ...body, maxResultCount: PAGE, skipCount: 0 },
  });
  const all: Scenario[] = [
    page("none", "no filter (local, ~83 %)", {}),
    page("status", "status = 3 active (~60 %)", { status: 3 }),
    page("refused", "status = 7 refused (~5 %)", { status: 7 }),
    page("site", "site = 2 (~25 %)", { site: 2 }),
    page("group", "accountGroupId (one shop, ~8 %)", { accountGroupId: md5Uuid("group-3") }),
    page("group-status", "accountGroupId + status 4", { accountGroupId: md5Uuid("group-3"), status: 4 }),
    page("title-common", 'title "zapatos" (~10 %)', { title: "zapatos" }),
    page("title-rare", `title "${RARE}" (~0.05 %)`, { title: RARE }),
    page("sku", "sku (a product's, 10 listings)", { sku: "SKU-1234" }),
    page("items", "itemIds (20)", { itemIds: Array.from({ length: 20 }, (_, i) => `MLM${i * 48 + 1}`) }),
    page("price", "price 100–150 (~10 %)", { minPrice: 100, maxPrice: 150 }),
    page("stock", "stock 0–10 (~5 %)", { minStock: 0, maxStock: 10 }),
    page("sold", "hasSold (~19 %)", { hasSold: true }),
    page("label", "productLabelId (~1 %)", { productLabelId: s.label }),
    page("warning", "warning (~2 %)", { warning: true }),
    page("lastupdate", "lastUpdate range (30 days)", {
      lastUpdateStartTime: new Date(now - 60 * day).toISOString(),
      lastUpdateEndTime: new Date(now - 30 * day).toISOString(),
    }),
    page("sort-price", "sorting price desc", { sorting: "price desc" }),
    page("sort-views", "sorting views desc, status 3", { sorting: "views desc", status: 3 }),
    page("sub", "sub-account (its one shop site, ~2 %)", {}, "sub"),
    page("cbt", "MeliStatNew no filter (~17 %)", {}, "main", "cbt"),
    page("cbt-status", "MeliStatNew cbtStatus 4", { cbtStatus: 4 }, "main", "cbt"),
    { key: "groups", name: "GetMeliStatGroupInfo, no filter", who: "main", call: "groups", kind: "local", body: {} },
    {
      key: "groups-status",
      name: "GetMeliStatGroupInfo, status 3 + site 1",
      who: "main",
      call: "groups",
      kind: "local",
      body: { status: 3, site: 1 },
    },
    { key: "groups-sub", name: "GetMeliStatGroupInfo, sub-account", who: "sub", call: "groups", kind: "local", body: {} },
  ];
  const only = args.only?.split(",").map((x) => x.trim().toLowerCase());
  return all.filter((x) => !only || only.some((o) => x.key === o));
}

const pathOf = (sc: Scenario) =>
  `/api/${sc.kind === "cbt" ? "MeliStatNew" : "MeliStat"}/${sc.call === "page" ? "GetMeliStatsByPage" : "GetMeliStatGroupInfo"}`;

// ---------------------------------------------------------------------------------------------------------------
// Capture and replay (bench/replay.ts).

const underLoad = () => ({ connections, duration, warmup });

/** The scenario's service call, run in this process as the server runs it. */
const serviceOf = (sc: Scenario) => async (ctx: CallContext) =>
  sc.call === "page"
    ? (JSON.parse((await getMeliStatsByPage(ctx, sc.kind, getMeliStatsByPageInput.parse(sc.body))).json) as unknown)
    : await getMeliStatGroupInfo(ctx, sc.kind, listingFilter.parse(sc.body));

// ---------------------------------------------------------------------------------------------------------------

type Row = {
  key: string;
  name: string;
  total: string;
  aloneHttp: number;
  aloneSql: number;
  load: { http: Awaited<ReturnType<typeof httpLoad>>; sql: Awaited<ReturnType<typeof sqlLoad>> } | null;
};

async function main() {
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  const m = machine();
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-listings-"));
  const logFile = join(outDir, "listings-server.log");
  writeFileSync(logFile, "");
  const db = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_listings");
  const env = { DATA_DIR: dataDir, DATABASE_URL: db.url, HOST: "127.0.0.1", ADMIN_PASSWORD, LOG_LEVEL: args["log-level"] };
  let app: AppProcess | undefined;
  let pool: pg.Pool | undefined;
  let client: pg.Client | undefined;
  const rows: Row[] = [];
  try {
    const first = await startApp({ ...env, PORT: String(await freePort()) }, { logFile });
    const demo = first.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${first.stdout()}`);
    if ((await first.stop()) !== 0) throw new Error("first start did not exit 0");
    const s = await seed(db.url, demo.tenant);
    const nodeArgs = args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${join(outDir, "prof")}`] : [];
    app = await startApp({ ...env, PORT: String(await freePort()) }, { logFile, nodeArgs });
    const tokens = {
      main: await accessToken(app.url, demo.user, demo.password, demo.tenant),
      sub: await accessToken(app.url, "bench1", SUB_PASSWORD, demo.tenant),
    };
    const opened = await openReplay(db.url, connections);
    client = opened.client;
    pool = opened.pool;
    const pgVersion = opened.pgVersion;
    const plans: string[] = [];
    // A fresh server's first measured scenario ran on code not yet optimized by V8: warm it on the first one first.
    const [warm] = scenarios(s);
    if (warm) await aloneHttp(`${app.url}${pathOf(warm)}`, tokens[warm.who], warm.body, 300);
    for (const sc of scenarios(s)) {
      const token = tokens[sc.who];
      const url = `${app.url}${pathOf(sc)}`;
      const cap = await capture(client, s.tenantId, principalOf(token), serviceOf(sc));
      const res = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(sc.body),
      });
      const answer = (await res.json()) as { result: unknown };
      if (res.status !== 200 || JSON.stringify(answer.result) !== JSON.stringify(cap.result))
        throw new Error(`${sc.name}: the server's answer (${res.status}) differs from the service's in this process`);
      plans.push(`### ${sc.name}\n\n${await explain(db.url, s.tenantId, cap.statements)}`);
      const r = cap.result as { totalCount?: number; totalCountCapped?: boolean; total?: { count: number; capped: boolean } };
      const total =
        sc.call === "page" ? `${r.totalCount}${r.totalCountCapped ? "+" : ""}` : `${r.total!.count}${r.total!.capped ? "+" : ""}`;
      const n = Number(args.alone);
      const ah = await aloneHttp(url, token, sc.body, n);
      const as = await aloneSql(pool, cap.begin, cap.statements, n);
      let load: Row["load"] = null;
      if (ah.p50 <= Number(args["probe-limit"]) && duration > 0) {
        const http = await httpLoad(url, token, sc.body, app.child.pid!, underLoad());
        const sqlR = await sqlLoad(pool, cap.begin, cap.statements, underLoad(), log);
        load = { http, sql: sqlR };
      }
      rows.push({ key: sc.key, name: sc.name, total, aloneHttp: ah.p50, aloneSql: as.p50, load });
      log(
        `${sc.name}: total ${total}; alone HTTP ${f(ah.p50, 2)} ms, SQL ${f(as.p50, 2)} ms (+${f(ah.p50 - as.p50, 2)} ms)` +
          (load
            ? `; ${connections} conns: HTTP ${f(load.http.rps, 0)} rps (p50 ${f(load.http.p50)} ms, non2xx ${load.http.non2xx}), SQL ${f(load.sql.rps, 0)} rps → ${f((load.http.rps / load.sql.rps) * 100, 0)} %`
            : ""),
      );
    }
    writeFileSync(join(outDir, "listings-explain.txt"), plans.join("\n\n"));
    const out: string[] = [];
    out.push(`machine: ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}, ${pgVersion.split(",")[0]}, load ${loadAvg()}`);
    out.push(
      `command: npm run bench:listings -- --rows=${ROWS} --duration=${duration} --warmup=${warmup} --connections=${connections} --alone=${args.alone}  (${f((Date.now() - started) / 1000, 0)} s)`,
    );
    out.push(
      `seed: ${ROWS} listings, ${s.products} products, 12 shop groups × 4 sites: insert ${f(s.ms.insert / 1000)} s, indexes ${f(s.ms.indexes / 1000)} s, vacuum analyze ${f(s.ms.vacuum / 1000)} s\n`,
    );
    out.push(
      `| call | matches | alone p50 HTTP (ms) | alone p50 SQL (ms) | HTTP − SQL (ms) | HTTP rps at ${connections} | SQL rps at ${connections} | HTTP/SQL | HTTP p50/p99 at ${connections} (ms) |`,
    );
    out.push("|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      const l = r.load;
      out.push(
        `| ${r.name} | ${r.total} | ${f(r.aloneHttp, 2)} | ${f(r.aloneSql, 2)} | ${f(r.aloneHttp - r.aloneSql, 2)} | ${l ? f(l.http.rps, 0) : "–"} | ${l ? f(l.sql.rps, 0) : "–"} | ${l ? f((l.http.rps / l.sql.rps) * 100, 0) + " %" : "–"} | ${l ? `${f(l.http.p50)} / ${f(l.http.p99)}` : "–"} |`,
      );
    }
    console.log(out.join("\n"));
    writeFileSync(join(outDir, "listings.json"), JSON.stringify({ machine: m, rows, seed: s }, null, 2));
  } finally {
    await pool?.end().catch(() => {});
    await client?.end().catch(() => {});
    if (app) await app.stop();
    if (!args.keep) await db.drop();
    else log(`kept database ${db.url}`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
