// The product list path (issue 29): GetProductsByPage and the collection list (GetCollect) against their own SQL, by
// the listing list's method (bench/listings.ts, bench/replay.ts).
//
//   npm run bench:product-lists                                # both databases, defaults below
//   npm run bench:product-lists -- --db=postgres --products=1000000 --duration=5 --warmup=1 --connections=50
//   npm run bench:product-lists -- --db=pglite --pglite-products=100000 --pglite-connections=10
//   npm run bench:product-lists -- --db=postgres --only=p-none,c-sub --cpu-prof   # a V8 profile of the server
//
// Per database: a fresh database (PostgreSQL: a new database on --pg-url, dropped after unless --keep; PGlite: a fresh
// DATA_DIR), the real server (`node scripts/start.mjs`) started once for its migrations and the demo tenant, then the
// products seeded by bench/product-seed.ts (main account and 4 sub-accounts; bench1 owns 10 %) and as many
// collections copied from them (same owners, titles, prices, creation times; status 1–3), VACUUM ANALYZE.
//
// PostgreSQL, per scenario: the statements the service issues are captured by calling the service in this process on
// a recording connection inside the transaction the server opens (replay.ts capture), and the server's answer is
// checked equal to the service's; alone: --alone requests one after the other over HTTP and the captured statements
// replayed as many times on one connection (p50 of each); under load: autocannon with --connections for --duration s
// after --warmup s, and the same statements replayed through a pg.Pool of that size by as many workers; requests/s.
// The server is warmed on the first scenario (300 calls) before anything is measured.
//
// PGlite (one connection, in the server's process): the statements (begin, scope and session check in one, the list's
// statement, commit) are captured and timed in this process on the same data directory while the server is stopped,
// one request at a time (p50 and mean); then the server runs the call alone (p50) and under --pglite-connections for
// --duration s: its time per request (wall / requests, the database being one connection) minus the SQL's mean is the
// time beyond the SQL per request.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { accessToken, createFreshPostgresDatabase, freePort, repoRoot, startApp, type AppProcess } from "../e2e/app-process.ts";
import { openDatabase, type Database, type Tx } from "../server/db/client.ts";
import type { Principal } from "../server/http/auth.ts";
import type { CallContext } from "../server/http/calls.ts";
import { sessionUserOf } from "../server/http/session-user.ts";
import { getCollect } from "../server/modules/collects/service.ts";
import { getProductsByPage } from "../server/modules/products/service.ts";
import { getCollectInput } from "#shared/contract/collect.ts";
import { getProductsByPageInput } from "#shared/contract/product.ts";
import { loadAvg, machine, stats } from "./measure.ts";
import { COMMON_WORD_ZH, RARE_WORD, seedProducts, type ProductSeedResult } from "./product-seed.ts";
import {
  aloneHttp,
  aloneSql,
  beginOf,
  capture,
  drain,
  explain,
  httpLoad,
  openReplay,
  principalOf,
  replayOptions,
  sqlLoad,
  type Statement,
} from "./replay.ts";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    products: { type: "string", default: "1000000" },
    "pglite-products": { type: "string", default: "100000" },
    "pglite-connections": { type: "string", default: "10" },
    ...replayOptions,
  },
});

const duration = Number(args.duration);
const warmup = Number(args.warmup);
const PAGE = Number(args["page-size"]);
const ADMIN_PASSWORD = "Bench-Admin-1";
const SUB_PASSWORD = "Bench-Sub-1";
const outDir = join(repoRoot, "bench", ".data");
const log = (line: string) => console.error(line);
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");

type Who = "main" | "sub";
type Call = "products" | "collects";
type Scenario = { key: string; name: string; call: Call; who: Who; body: Record<string, unknown> };

const paths: Record<Call, string> = { products: "/api/Product/GetProductsByPage", collects: "/api/Collect/GetCollect" };

function scenarios(seed: ProductSeedResult): Scenario[] {
  const all: Scenario[] = [];
  const both = (key: string, name: string, who: Who, body: Record<string, unknown>, collects = true) => {
    all.push({ key: `p-${key}`, name: `GetProductsByPage, ${name}`, call: "products", who, body });
    if (collects) all.push({ key: `c-${key}`, name: `GetCollect, ${name}`, call: "collects", who, body });
  };
  both("none", "whole tenant (main account)", "main", {});
  both("label", "labelId (one of 10, ~4 %)", "main", { labelId: seed.labelIds[0] }, false);
  both("status", "status 2 (~30 %)", "main", { status: 2 });
  both("title-common", `title "${COMMON_WORD_ZH}" (common, ~30 %)`, "main", { title: COMMON_WORD_ZH });
  both("title-rare", `title "${RARE_WORD}" (rare, ~0.045 %)`, "main", { title: RARE_WORD });
  both("title-none", `title "不存在的词" (no match)`, "main", { title: "不存在的词" });
  both("sub", "sub-account's own (bench1, 10 %)", "sub", {});
  both("sub-title", `sub-account, title "${COMMON_WORD_ZH}"`, "sub", { title: COMMON_WORD_ZH });
  both("sort-price", "sorted by price desc", "main", { sorting: "price desc" });
  both("sort-status", "sorted by status", "main", { sorting: "status asc" });
  both("sort-oldest", "sorted by creationTime asc (oldest first)", "main", { sorting: "creationTime asc" });
  const only = args.only?.split(",").map((s) => s.trim().toLowerCase());
  return all
    .map((s) => ({ ...s, body: { ...s.body, maxResultCount: PAGE, skipCount: 0 } }))
    .filter((s) => !only || only.some((o) => s.key === o || (o.endsWith("*") && s.key.startsWith(o.slice(0, -1)))));
}

/** The service's answer as the client reads it (a JsonText's JSON parsed, an object as it is). */
const plain = (r: unknown) => (r && typeof r === "object" && "json" in r ? JSON.parse((r as { json: string }).json) : r);

const serviceOf = (sc: Scenario) => async (ctx: CallContext) =>
  plain(
    sc.call === "products"
      ? await getProductsByPage(ctx, getProductsByPageInput.parse(sc.body))
      : await getCollect(ctx, getCollectInput.parse(sc.body)),
  );

/** Collections copied from the products (owner, titles, prices, images, creation time), status 1–3, as the list reads them. */
async function seedCollections(database: Database, tenantId: string) {
  const t0 = Date.now();
  await database.db.execute(sql`insert into collections (tenant_id, id, user_id, platform_type, item_id, source_url, title,
      title_text, image, images, price, price_max, currency, country, stock, weight, description, extract_info, status,
      creation_time, creator_id)
    select tenant_id, gen_random_uuid(), user_id, coalesce(platform_type, 1), item_id, source_url, title, title_text, image,
      images, price, price * 1.2, currency, country, stock, weight, '{}'::jsonb,
      case when status = 4 then '{"incompleteFields":["price"]}'::jsonb else '{}'::jsonb end,
      1 + status % 3, creation_time, user_id
    from products where tenant_id = ${tenantId}::uuid`);
  await database.db.execute(sql`vacuum (analyze) collections`);
  return Date.now() - t0;
}

type Row = {
  db: string;
  key: string;
  name: string;
  total: string;
  aloneHttp: number;
  aloneSql: number;
  load: { http: { rps: number; p50: number; p99: number; non2xx: number }; sql: { rps: number; mean?: number } } | null;
};

async function post(url: string, token: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, answer: (await res.json()) as { result: { totalCount: number; totalCountCapped?: boolean } } };
}

const rowOf = (db: string, sc: Scenario, result: unknown, aloneHttp: number, aloneSql: number, load: Row["load"]): Row => {
  const r = result as { totalCount: number; totalCountCapped?: boolean };
  return { db, key: sc.key, name: sc.name, total: `${r.totalCount}${r.totalCountCapped ? "+" : ""}`, aloneHttp, aloneSql, load };
};

async function startServer(env: Record<string, string | undefined>, logFile: string) {
  const nodeArgs = args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${join(outDir, "prof")}`] : [];
  return startApp({ ...env, PORT: String(await freePort()) }, { logFile, nodeArgs });
}

/**
 * The first start (migrations, the demo tenant) and its stop, then the products and collections seeded on `local`
 * (this process's own connection to the same database).
 */
async function firstStartAndSeed(
  env: Record<string, string | undefined>,
  logFile: string,
  local: () => Promise<Database>,
  count: number,
  tag: string,
) {
  const first = await startApp({ ...env, PORT: String(await freePort()) }, { logFile });
  const demo = first.firstStart.demo;
  if (!demo) throw new Error(`no demo tenant printed:\n${first.stdout()}`);
  if ((await first.stop()) !== 0) throw new Error("first start did not exit 0");
  const database = await local();
  try {
    const seed = await seedProducts(database, {
      tenantName: demo.tenant,
      count,
      subPassword: SUB_PASSWORD,
      log: (l) => log(`${tag} ${l}`),
    });
    const ms = await seedCollections(database, seed.tenantId);
    log(`${tag} seeded ${seed.products} products (${seed.ms.total} ms) and as many collections (${ms} ms)`);
    return { demo, seed };
  } finally {
    await database.close();
  }
}

/** The server's answer must be what the service answered in this process. */
async function checkAnswer(url: string, token: string, sc: Scenario, expected: unknown) {
  const check = await post(url, token, sc.body);
  if (check.status !== 200 || JSON.stringify(check.answer.result) !== JSON.stringify(expected))
    throw new Error(`${sc.name}: the server's answer (${check.status}) differs from the service's in this process`);
}

async function benchPostgres(): Promise<{ rows: Row[]; note: string }> {
  const tag = "[postgres]";
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-product-lists-"));
  const logFile = join(outDir, "product-lists-server-postgres.log");
  writeFileSync(logFile, "");
  const db = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_product_lists");
  const env = { DATA_DIR: dataDir, DATABASE_URL: db.url, HOST: "127.0.0.1", ADMIN_PASSWORD, LOG_LEVEL: args["log-level"] };
  const connections = Number(args.connections);
  const load = { connections, duration, warmup };
  let app: AppProcess | undefined;
  let pool: pg.Pool | undefined;
  let client: pg.Client | undefined;
  const rows: Row[] = [];
  try {
    const local = () => openDatabase({ kind: "postgres", url: db.url, poolSize: 2 });
    const { demo, seed } = await firstStartAndSeed(env, logFile, local, Number(args.products), tag);
    app = await startServer(env, logFile);
    const tokens = {
      main: await accessToken(app.url, demo.user, demo.password, demo.tenant),
      sub: await accessToken(app.url, "bench1", SUB_PASSWORD, demo.tenant),
    };
    const opened = await openReplay(db.url, connections);
    client = opened.client;
    pool = opened.pool;
    const pgVersion = opened.pgVersion;
    const list = scenarios(seed);
    // A fresh server's first measured scenario ran on code not yet optimized by V8: warm it on the first one first.
    if (list[0]) await aloneHttp(`${app.url}${paths[list[0].call]}`, tokens[list[0].who], list[0].body, 300);
    const plans: string[] = [];
    for (const sc of list) {
      const token = tokens[sc.who];
      const url = `${app.url}${paths[sc.call]}`;
      const cap = await capture(client, seed.tenantId, principalOf(token), serviceOf(sc));
      await checkAnswer(url, token, sc, cap.result);
      plans.push(`### ${sc.name}\n\n${await explain(db.url, seed.tenantId, cap.statements)}`);
      const n = Number(args.alone);
      const ah = await aloneHttp(url, token, sc.body, n);
      const as = await aloneSql(pool, cap.begin, cap.statements, n);
      let measured: Row["load"] = null;
      if (ah.p50 <= Number(args["probe-limit"]) && duration > 0) {
        const settle = () => drain(db.url, app!, log);
        const http = await httpLoad(url, token, sc.body, app.child.pid!, load, settle);
        // Requests autocannon gave up on still run in the server: the replay starts after them.
        await settle();
        const sqlR = await sqlLoad(pool, cap.begin, cap.statements, load, log);
        measured = { http, sql: sqlR };
      }
      const row = rowOf("postgres", sc, cap.result, ah.p50, as.p50, measured);
      rows.push(row);
      log(
        `${tag} ${sc.name}: total ${row.total}; alone HTTP ${f(ah.p50, 2)} ms, SQL ${f(as.p50, 2)} ms (+${f(ah.p50 - as.p50, 2)} ms)` +
          (measured
            ? `; ${connections} conns: HTTP ${f(measured.http.rps, 0)} rps (p50 ${f(measured.http.p50)} ms, non2xx ${measured.http.non2xx}), SQL ${f(measured.sql.rps, 0)} rps → ${f((measured.http.rps / measured.sql.rps) * 100, 0)} %`
            : ""),
      );
    }
    writeFileSync(join(outDir, "product-lists-explain-postgres.txt"), plans.join("\n\n"));
    return { rows, note: `${pgVersion.split(",")[0]}; ${seed.products} products and as many collections; ${connections} connections` };
  } finally {
    await pool?.end().catch(() => {});
    await client?.end().catch(() => {});
    if (app) await app.stop();
    if (!args.keep) await db.drop().catch((e) => log(`${tag} drop failed: ${e}`));
    else log(`${tag} kept database ${db.url}`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** capture (replay.ts) on PGlite in this process: the statements the service sends, through drizzle's log. */
async function capturePglite(pglite: PGlite, tenantId: string, principal: Principal, run: (ctx: CallContext) => Promise<unknown>) {
  const statements: Statement[] = [];
  const begin = beginOf(tenantId, principal);
  const opened = await pglite.exec(begin);
  try {
    const user = sessionUserOf(opened.at(-1)!.rows, principal);
    const tx = drizzlePglite(pglite, { logger: { logQuery: (text, params) => statements.push({ text, params }) } }) as unknown as Tx;
    return { begin, statements, result: await run({ tx, user, tenantId, principal } as unknown as CallContext) };
  } finally {
    await pglite.exec("rollback");
  }
}

/** The captured statements on PGlite in this process, one request after the other, for `seconds` (after a warm-up). */
async function pgliteSql(pglite: PGlite, begin: string, statements: Statement[], seconds: number) {
  const once = async () => {
    await pglite.exec(begin);
    for (const q of statements) await pglite.query(q.text, q.params, { rowMode: "array" });
    await pglite.exec("commit");
  };
  for (let end = performance.now() + Math.max(warmup, 0.5) * 1000; performance.now() < end;) await once();
  const lat: number[] = [];
  for (let end = performance.now() + seconds * 1000; performance.now() < end;) {
    const t = performance.now();
    await once();
    lat.push(performance.now() - t);
  }
  return { ...stats(lat), mean: lat.reduce((a, b) => a + b, 0) / lat.length };
}

async function benchPglite(): Promise<{ rows: Row[]; note: string }> {
  const tag = "[pglite]";
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-product-lists-"));
  const logFile = join(outDir, "product-lists-server-pglite.log");
  writeFileSync(logFile, "");
  const env = { DATA_DIR: dataDir, HOST: "127.0.0.1", ADMIN_PASSWORD, LOG_LEVEL: args["log-level"] };
  const connections = Number(args["pglite-connections"]);
  const rows: Row[] = [];
  let app: AppProcess | undefined;
  try {
    const local = () => openDatabase({ kind: "pglite", dataDir: join(dataDir, "pglite"), inProcess: true });
    const { demo, seed } = await firstStartAndSeed(env, logFile, local, Number(args["pglite-products"]), tag);
    // The tokens (their sessions are in the data), then the server stopped: the SQL is timed here on the same data.
    app = await startServer(env, logFile);
    const tokens = {
      main: await accessToken(app.url, demo.user, demo.password, demo.tenant),
      sub: await accessToken(app.url, "bench1", SUB_PASSWORD, demo.tenant),
    };
    await app.stop();
    app = undefined;
    const list = scenarios(seed);
    const captured = new Map<string, Awaited<ReturnType<typeof capturePglite>> & { sql: Awaited<ReturnType<typeof pgliteSql>> }>();
    const database = await local();
    try {
      for (const sc of list) {
        const c = await capturePglite(database.pglite!, seed.tenantId, principalOf(tokens[sc.who]), serviceOf(sc));
        const timed = await pgliteSql(database.pglite!, c.begin, c.statements, Math.max(duration, 1));
        captured.set(sc.key, { ...c, sql: timed });
        log(`${tag} ${sc.name}: SQL in this process p50 ${f(timed.p50, 2)} ms, mean ${f(timed.mean, 2)} ms (${timed.n})`);
      }
    } finally {
      await database.close();
    }
    app = await startServer(env, logFile);
    if (list[0]) await aloneHttp(`${app.url}${paths[list[0].call]}`, tokens[list[0].who], list[0].body, 300);
    for (const sc of list) {
      const token = tokens[sc.who];
      const url = `${app.url}${paths[sc.call]}`;
      const c = captured.get(sc.key)!;
      await checkAnswer(url, token, sc, c.result);
      const ah = await aloneHttp(url, token, sc.body, Number(args.alone));
      let measured: Row["load"] = null;
      if (ah.p50 <= Number(args["probe-limit"]) && duration > 0) {
        const settle = () => drain(undefined, app!, log);
        const http = await httpLoad(url, token, sc.body, app.child.pid!, { connections, duration, warmup }, settle);
        await settle();
        measured = { http, sql: { rps: 1000 / c.sql.mean, mean: c.sql.mean } };
      }
      const row = rowOf("pglite", sc, c.result, ah.p50, c.sql.p50, measured);
      rows.push(row);
      log(
        `${tag} ${sc.name}: total ${row.total}; alone HTTP ${f(ah.p50, 2)} ms, SQL ${f(c.sql.p50, 2)} ms` +
          (measured
            ? `; ${connections} conns: ${f(measured.http.rps, 0)} rps = ${f(1000 / measured.http.rps, 2)} ms a request, SQL mean ${f(c.sql.mean, 2)} ms → beyond the SQL ${f(1000 / measured.http.rps - c.sql.mean, 2)} ms`
            : ""),
      );
    }
    return { rows, note: `${seed.products} products and as many collections; ${connections} connections` };
  } finally {
    if (app) await app.stop();
    if (!args.keep) rmSync(dataDir, { recursive: true, force: true });
    else log(`${tag} kept DATA_DIR ${dataDir}`);
  }
}

function table(db: string, rows: Row[], connections: number) {
  const out = [
    db === "postgres"
      ? `| call | matches | alone p50 HTTP / SQL (ms) | HTTP − SQL (ms) | HTTP / SQL rps at ${connections} | HTTP/SQL | HTTP p50 / p99 at ${connections} (ms) |`
      : `| call | matches | alone p50 HTTP / SQL (ms) | HTTP − SQL (ms) | HTTP rps at ${connections} | ms a request / SQL mean | beyond the SQL (ms) |`,
    "|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const l = r.load;
    out.push(
      db === "postgres"
        ? `| ${r.name} | ${r.total} | ${f(r.aloneHttp, 2)} / ${f(r.aloneSql, 2)} | ${f(r.aloneHttp - r.aloneSql, 2)} | ${l ? `${f(l.http.rps, 0)} / ${f(l.sql.rps, 0)}` : "–"} | ${l ? `${f((l.http.rps / l.sql.rps) * 100, 0)} %` : "–"} | ${l ? `${f(l.http.p50)} / ${f(l.http.p99)}` : "–"} |`
        : `| ${r.name} | ${r.total} | ${f(r.aloneHttp, 2)} / ${f(r.aloneSql, 2)} | ${f(r.aloneHttp - r.aloneSql, 2)} | ${l ? f(l.http.rps, 0) : "–"} | ${l ? `${f(1000 / l.http.rps, 2)} / ${f(l.sql.mean!, 2)}` : "–"} | ${l ? f(1000 / l.http.rps - l.sql.mean!, 2) : "–"} |`,
    );
  }
  return out.join("\n");
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const m = machine();
  const started = Date.now();
  const which = args.db === "both" ? ["postgres", "pglite"] : [args.db!];
  if (!which.every((d) => d === "postgres" || d === "pglite")) throw new Error(`--db must be postgres, pglite or both, not ${args.db}`);
  const out: string[] = [
    `machine: ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}, PGlite ${m.pglite}, load at start ${m.loadavg}`,
    `command: npm run bench:product-lists -- ${process.argv.slice(2).join(" ")}`,
  ];
  const results: Record<string, Row[]> = {};
  for (const db of which) {
    const r = db === "postgres" ? await benchPostgres() : await benchPglite();
    results[db] = r.rows;
    out.push(`\n## ${db}: ${r.note}\n`, table(db, r.rows, Number(db === "postgres" ? args.connections : args["pglite-connections"])));
  }
  out.push(`\nload at end ${loadAvg()}; ${f((Date.now() - started) / 1000, 0)} s`);
  console.log(out.join("\n"));
  writeFileSync(join(outDir, "product-lists.json"), JSON.stringify({ machine: m, args, results }, null, 2));
}

await main();
