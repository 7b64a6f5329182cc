// Wallet benchmark (issue 19): debits per second on PostgreSQL through the real server (WalletLog Payment, one fen
// each, every request with its own Idempotency-Key), on one hot wallet and spread over many wallets, each against the
// ledger's own statements replayed directly at the same concurrency (the floor the wallet's row lock sets). After
// each phase the ledger is checked: every wallet's balance equals the sum of its entries, and the debits written equal
// the 2xx answers. Then GetWalletLogs at --entries entries (1,000,000) in one tenant, per filter, against the same
// SQL replayed directly (bench/replay.ts: alone p50, and requests per second at --connections).
//
//   npm run bench:wallet                                              # 1,000 wallets, 50 connections, 10 s a phase
//   npm run bench:wallet -- --wallets=200 --duration=5 --connections=50
//
// A fresh database on --pg-url (dropped after unless --keep); the real server (`node scripts/start.mjs`) started once
// for its migrations and the demo tenant, then the wallets seeded with set-based SQL on the owner connection: tenants
// w1…wN, each with a main account copied from the demo's (same password) and an opening balance written as one
// host-adjustment entry, so balance = sum of entries holds from the start. Their tokens are opened by the server's own
// session code on the same database and signing key (mintTokens), not by 1,000 password logins from one address.
import { randomUUID } from "node:crypto";
import type { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { accessToken, createFreshPostgresDatabase, freePort, startApp, type AppProcess } from "../e2e/app-process.ts";
import { and, eq, inArray } from "drizzle-orm";
import { loadConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/client.ts";
import { users } from "../server/db/schema.ts";
import { hostAllScope, inScope, scopeStatement } from "../server/db/scope.ts";
import { createTokenSigner } from "../server/http/auth.ts";
import { openSession } from "../server/modules/identity/sessions.ts";
import { WalletLogType } from "#shared/contract/enums.ts";
import { getWalletLogs } from "../server/modules/wallet/service.ts";
import { getWalletLogsQuery, type GetWalletLogsQuery, type WalletLogPage } from "#shared/contract/wallet.ts";
import { cpuMeter, loadAvg, machine, stats } from "./measure.ts";
import { aloneHttp, aloneSql, capture, httpLoad, principalOf, sqlLoad } from "./replay.ts";
import { createPasswordHasher } from "../server/modules/identity/passwords.ts";

const { values: args } = parseArgs({
  options: {
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test" },
    wallets: { type: "string", default: "1000" },
    duration: { type: "string", default: "10" },
    requests: { type: "string", default: "5000" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "50" },
    // Database connections, the server's pool and the direct replay's alike (PostgreSQL's default limit is 100).
    "db-connections": { type: "string", default: "40" },
    entries: { type: "string", default: "1000000" },
    alone: { type: "string", default: "30" },
    "log-level": { type: "string", default: "warn" },
    keep: { type: "boolean", default: false },
  },
});

const WALLETS = Number(args.wallets);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const dbConnections = Number(args["db-connections"]);
const OPENING_FEN = 1_000_000_000; // ¥10,000,000: never short during a run
const log = (line: string) => console.error(line);
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");

/** Tenants w1…wN with the demo main account's user row copied into each, and an opening balance in the ledger. */
async function seedWallets(c: pg.Client, demoTenantId: string, count: number) {
  const t0 = Date.now();
  await c.query(
    `insert into tenants (id, name, normalized_name, balance_fen, balance)
     select md5('wallet-' || g)::uuid, 'w' || g, 'W' || g, ${OPENING_FEN}, ${OPENING_FEN / 100}
     from generate_series(1, $1) g`,
    [count],
  );
  // Every column of the demo main account's row, but its tenant, id and security stamp.
  const columns = (
    await c.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'users' and table_schema = current_schema()
       order by ordinal_position`,
    )
  ).rows.map((r) => r.column_name);
  const expr = (col: string) =>
    col === "tenant_id" ? "t.id" : col === "id" ? "gen_random_uuid()" : col === "security_stamp" ? "gen_random_uuid()::text" : `u.${col}`;
  await c.query(
    `insert into users (${columns.join(", ")})
     select ${columns.map(expr).join(", ")}
     from users u, tenants t
     where u.tenant_id = $1 and u.is_main_account and t.name ~ '^w[0-9]+$'`,
    [demoTenantId],
  );
  await c.query(
    `insert into wallet_logs (tenant_id, id, type, amount_fen, balance_after_fen, remark)
     select t.id, gen_random_uuid(), ${WalletLogType.HostAdjust}, ${OPENING_FEN}, ${OPENING_FEN}, 'bench opening balance'
     from tenants t where t.name ~ '^w[0-9]+$'`,
  );
  await c.query("analyze tenants; analyze users; analyze wallet_logs");
  const ids = (await c.query<{ id: string; name: string }>(`select id, name from tenants where name ~ '^w[0-9]+$' order by name`)).rows;
  return { ids, ms: Date.now() - t0 };
}

/**
 * An access token for each wallet's main account, opened the way a login opens one (the server's own openSession: a
 * user_sessions row, a token signed with the server's key from DATA_DIR) without its password check, so 1,000 wallets
 * do not meet the login limiter (LOGIN_RATE_LIMIT_PER_MINUTE per address) or 1,000 scrypt hashes.
 */
async function mintTokens(env: Record<string, string>, wallets: { id: string }[]): Promise<string[]> {
  const config = loadConfig(env);
  const database = await openDatabase({ kind: "postgres", url: env.DATABASE_URL, poolSize: 4 });
  try {
    const deps = {
      database,
      tokens: createTokenSigner(config.tokenSigningKey, config.accessTokenSeconds),
      config,
      passwords: createPasswordHasher(config.passwordHashCost),
    };
    const ids = wallets.map((w) => w.id);
    const mains = await inScope(database.db, hostAllScope, (tx) =>
      tx
        .select()
        .from(users)
        .where(and(inArray(users.tenantId, ids), eq(users.isMainAccount, true))),
    );
    const byTenant = new Map(mains.map((u) => [u.tenantId, u]));
    const tokens: string[] = [];
    for (let i = 0; i < ids.length; i += 8) {
      const batch = ids.slice(i, i + 8).map((id) => {
        const user = byTenant.get(id);
        if (!user) throw new Error(`wallet ${id} has no main account`);
        return openSession(deps, user, "127.0.0.1", false);
      });
      tokens.push(...(await Promise.all(batch)).map((t) => t.access_token));
    }
    return tokens;
  } finally {
    await database.close();
  }
}

/** Payment calls (one fen each, a fresh Idempotency-Key each) spread round-robin over the tokens' wallets. */
async function httpDebits(baseUrl: string, tokens: string[], pid: number) {
  let next = 0;
  const opts = {
    url: `${baseUrl}/api/WalletLog/Payment?money=0.01&remark=bench-http`,
    method: "GET" as const,
    connections,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => ({
          ...req,
          headers: { authorization: `Bearer ${tokens[next++ % tokens.length]}`, "idempotency-key": randomUUID() },
        }),
      },
    ],
  };
  // Every 200 of the warm-up too: the audit counts each debit the ledger wrote.
  let answered200 = 0;
  const count = (inst: ReturnType<typeof autocannon>, onLatency?: (ms: number) => void) =>
    (inst as unknown as EventEmitter).on("response", (_c: unknown, status: number, _b: number, ms: number) => {
      onLatency?.(ms);
      if (status === 200) answered200++;
    });
  if (warmup > 0) {
    const w = autocannon({ ...opts, amount: connections * 4 });
    count(w);
    await w;
  }
  const lat: number[] = [];
  const okBefore = answered200;
  const meter = cpuMeter(pid);
  // A fixed number of requests (not a duration): every debit written then has its answer counted.
  const inst = autocannon({ ...opts, amount: Number(args.requests) });
  count(inst, (ms) => lat.push(ms));
  const r = await inst;
  const m = meter();
  const s = stats(lat);
  return {
    ...s,
    rps: (answered200 - okBefore) / m.wall,
    answered200,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    serverCpuPct: m.processCpuPct,
  };
}

/** postLedgerEntry's one statement (server/modules/wallet/ledger.ts) for a debit of one fen. */
const LEDGER_DEBIT = `
  with wallet as (select balance_fen as b from tenants where id = $1 for update),
  entry as (
    insert into wallet_logs (tenant_id, id, type, amount_fen, balance_after_fen, user_id, remark, ref_id, invite_tenant_id)
    select $1, $2, $3, -1, wallet.b - 1, null, 'bench-sql', null, null from wallet where wallet.b - 1 between 0 and 1000000000000
    returning balance_after_fen as after),
  kept as (update tenants set balance_fen = entry.after, balance = entry.after::numeric / 100 from entry where tenants.id = $1 returning 1)
  select wallet.b as balance, (select after from entry) as after from wallet`;

/**
 * The ledger's statement for one debit (lock the wallet row, append the entry, update the balance, in one statement), each in its
 * own transaction under the tenant's scope as the server opens it, replayed at the same concurrency over the wallets.
 */
async function sqlDebits(pool: pg.Pool, tenantIds: string[]) {
  let next = 0;
  const runFor = async (seconds: number, lat: number[] | null) => {
    let done = 0;
    let errors = 0;
    const deadline = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < deadline) {
        const tenantId = tenantIds[next++ % tenantIds.length];
        const t0 = performance.now();
        const client = await pool.connect();
        try {
          await client.query(`begin; ${scopeStatement({ tenantId })}`);
          await client.query(LEDGER_DEBIT, [tenantId, randomUUID(), WalletLogType.Purchase]);
          await client.query("commit");
          done++;
        } catch (e) {
          if (errors++ === 0) log(`[sql] ${(e as Error).message}`);
          await client.query("rollback").catch(() => {});
        } finally {
          client.release();
        }
        lat?.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: connections }, worker));
    return { done, errors };
  };
  if (warmup > 0) await runFor(warmup, null);
  const lat: number[] = [];
  const meter = cpuMeter();
  const r = await runFor(duration, lat);
  const m = meter();
  return { ...stats(lat), rps: r.done / m.wall, errors: r.errors };
}

/** The ledger's invariant over the given wallets, and the debits each side wrote. */
async function audit(c: pg.Client, tenantIds: string[]) {
  const { rows } = await c.query<{ drift: string; negative: string; http: string; sql: string }>(
    `select count(*) filter (where t.balance_fen <> s.total)::text as drift,
            count(*) filter (where t.balance_fen < 0)::text as negative,
            coalesce(sum(s.http), 0)::text as http, coalesce(sum(s.sql), 0)::text as sql
     from tenants t
     join (select tenant_id, sum(amount_fen) as total,
                  count(*) filter (where remark = 'bench-http') as http, count(*) filter (where remark = 'bench-sql') as sql
           from wallet_logs where tenant_id = any($1::uuid[]) group by tenant_id) s on s.tenant_id = t.id
     where t.id = any($1::uuid[])`,
    [tenantIds],
  );
  return { drift: Number(rows[0].drift), negative: Number(rows[0].negative), http: Number(rows[0].http), sql: Number(rows[0].sql) };
}

/**
 * `count` entries in the tenant's ledger over the last year, alternating a top-up of ¥2 and a purchase of ¥1 by its
 * main account, each with its true balance after; the wallet's balance set to the last one.
 */
async function seedEntries(c: pg.Client, tenantId: string, userId: string, count: number) {
  const t0 = Date.now();
  await c.query(`delete from wallet_logs where tenant_id = $1`, [tenantId]);
  await c.query(
    `insert into wallet_logs (tenant_id, id, type, amount_fen, balance_after_fen, user_id, remark, creation_time)
     select $1, gen_random_uuid(),
       case when g % 2 = 1 then ${WalletLogType.TopUp} else ${WalletLogType.Purchase} end,
       case when g % 2 = 1 then 200 else -100 end,
       200 * ((g + 1) / 2) - 100 * (g / 2),
       case when g % 2 = 0 then $2::uuid end,
       case when g % 2 = 1 then '充值' else '购买' end,
       now() - make_interval(secs => ($3 - g) * 31536000.0 / $3)
     from generate_series(1, $3::int) g`,
    [tenantId, userId, count],
  );
  await c.query(
    `update tenants set balance_fen = 200 * (($2::bigint + 1) / 2) - 100 * ($2::bigint / 2),
    balance = (200 * (($2::bigint + 1) / 2) - 100 * ($2::bigint / 2)) / 100.0 where id = $1`,
    [tenantId, count],
  );
  await c.query("vacuum analyze wallet_logs");
  return Date.now() - t0;
}

/** GetWalletLogs per filter: the HTTP call against its captured SQL, alone and at --connections. */
async function walletLogScenarios(app: AppProcess, pool: pg.Pool, client: pg.Client, tenantId: string, token: string, userId: string) {
  const week = new Date(Date.now() - 7 * 86_400_000).toISOString();
  const scenarios: { name: string; query: GetWalletLogsQuery }[] = [
    { name: "no filter, first page", query: {} },
    { name: "Type = 购买 (half)", query: { Type: WalletLogType.Purchase } },
    { name: "last 7 days", query: { StartTime: week } },
    { name: "UserId (the main account's purchases)", query: { UserId: userId } },
    { name: "page 500 (SkipCount 10,000)", query: { SkipCount: 10_000 } },
    { name: "Sorting money desc", query: { Sorting: "money desc" } },
  ];
  const load = { connections, duration, warmup };
  const rows: string[] = [];
  for (const sc of scenarios) {
    const q = getWalletLogsQuery.parse({ MaxResultCount: 20, ...sc.query });
    const params = new URLSearchParams(Object.entries({ MaxResultCount: 20, ...sc.query }).map(([k, v]) => [k, String(v)]));
    const url = `${app.url}/api/WalletLog/GetWalletLogs?${params}`;
    // The service answers JSON text PostgreSQL built (JsonText); the server sends it as is.
    const cap = await capture(
      client,
      tenantId,
      principalOf(token),
      async (ctx) => JSON.parse((await getWalletLogs(ctx, q)).json) as WalletLogPage,
    );
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const answer = (await res.json()) as { result: WalletLogPage };
    // The count stops at WALLET_LOG_COUNT_CAP (then "1000+").
    const matched = `${cap.result.totalCount}${cap.result.totalCountCapped ? "+" : ""}`;
    if (res.status !== 200 || JSON.stringify(answer.result) !== JSON.stringify(cap.result))
      throw new Error(`${sc.name}: the server's answer (${res.status}) differs from the service's in this process`);
    const n = Number(args.alone);
    const ah = await aloneHttp(url, token, null, n);
    const as = await aloneSql(pool, cap.begin, cap.statements, n);
    const http = await httpLoad(url, token, null, app.child.pid!, load);
    const sqlR = await sqlLoad(pool, cap.begin, cap.statements, load, log);
    log(
      `${sc.name}: ${matched} entries; alone HTTP ${f(ah.p50, 2)} ms, SQL ${f(as.p50, 2)} ms; ` +
        `${connections} conns: HTTP ${f(http.rps, 0)} rps (non2xx ${http.non2xx}), SQL ${f(sqlR.rps, 0)} rps`,
    );
    rows.push(
      `| ${sc.name} | ${matched} | ${cap.statements.length} | ${f(ah.p50, 2)} / ${f(as.p50, 2)} | ${f(ah.p50 - as.p50, 2)} | ${f(http.rps, 0)} / ${f(sqlR.rps, 0)} | ${f((http.rps / sqlR.rps) * 100, 0)} % |`,
    );
  }
  return rows;
}

async function main() {
  const started = Date.now();
  const m = machine();
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-wallet-"));
  const db = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_wallet");
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    HOST: "127.0.0.1",
    ADMIN_PASSWORD: "Bench-Admin-1",
    LOG_LEVEL: args["log-level"]!,
    // The server gets as many database connections as the direct replay, so both sides meet the same database.
    DB_POOL_SIZE: String(dbConnections),
  };
  let app: AppProcess | undefined;
  let pool: pg.Pool | undefined;
  const c = new pg.Client({ connectionString: db.url });
  const out: string[] = [];
  try {
    const first = await startApp({ ...env, PORT: String(await freePort()) });
    const demo = first.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${first.stdout()}`);
    if ((await first.stop()) !== 0) throw new Error("first start did not exit 0");
    await c.connect();
    const pgVersion = (await c.query<{ v: string }>("select version() as v")).rows[0].v;
    const demoTenantId = (await c.query<{ id: string }>("select id from tenants where name = $1", [demo.tenant])).rows[0].id;
    const seeded = await seedWallets(c, demoTenantId, WALLETS);
    log(`[seed] ${WALLETS} wallets: ${seeded.ms} ms`);
    app = await startApp({ ...env, PORT: String(await freePort()) });
    const t0 = Date.now();
    const tokens = await mintTokens(env, seeded.ids);
    log(`[seed] ${tokens.length} sessions opened: ${Date.now() - t0} ms`);
    pool = new pg.Pool({ connectionString: db.url, max: dbConnections });
    pool.on("error", () => {});

    const rows: string[] = [];
    for (const phase of [
      { name: "one hot wallet", ids: [seeded.ids[0].id], tokens: [tokens[0]] },
      { name: `${WALLETS} wallets`, ids: seeded.ids.map((w) => w.id), tokens },
    ]) {
      const before = await audit(c, phase.ids);
      const http = await httpDebits(app.url, phase.tokens, app.child.pid!);
      const sqlR = await sqlDebits(pool, phase.ids);
      const after = await audit(c, phase.ids);
      const httpWritten = after.http - before.http;
      const correct = after.drift === 0 && after.negative === 0 && httpWritten === http.answered200;
      log(
        `${phase.name}: HTTP ${f(http.rps, 0)} debits/s (p50 ${f(http.p50)} ms, p99 ${f(http.p99)} ms, non2xx ${http.non2xx}, ` +
          `server CPU ${f(http.serverCpuPct, 0)} %), SQL ${f(sqlR.rps, 0)} debits/s → ${f((http.rps / sqlR.rps) * 100, 0)} %; ` +
          `drift ${after.drift}, negative ${after.negative}, HTTP debits written ${httpWritten}, answered 200 ${http.answered200}`,
      );
      rows.push(
        `| ${phase.name} | ${f(http.rps, 0)} | ${f(http.p50)} / ${f(http.p99)} | ${http.non2xx} | ${f(sqlR.rps, 0)} | ${f((http.rps / sqlR.rps) * 100, 0)} % | ${after.drift} | ${httpWritten} | ${correct ? "yes" : "NO"} |`,
      );
    }
    const demoUserId = (await c.query<{ id: string }>("select id from users where tenant_id = $1 and is_main_account", [demoTenantId]))
      .rows[0].id;
    const seededMs = await seedEntries(c, demoTenantId, demoUserId, Number(args.entries));
    log(`[seed] ${args.entries} ledger entries: ${seededMs} ms`);
    const demoToken = await accessToken(app.url, demo.user, demo.password, demo.tenant);
    const logRows = await walletLogScenarios(app, pool, c, demoTenantId, demoToken, demoUserId);
    out.push(`machine: ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}, ${pgVersion.split(",")[0]}, load ${loadAvg()}`);
    out.push(
      `command: npm run bench:wallet -- --wallets=${WALLETS} --entries=${args.entries} --requests=${args.requests} --duration=${duration} --warmup=${warmup} --connections=${connections} --db-connections=${dbConnections}  (${f((Date.now() - started) / 1000, 0)} s)\n`,
    );
    out.push(
      `| wallets | HTTP debits/s at ${connections} | HTTP p50 / p99 (ms) | non-2xx | ledger SQL debits/s at ${connections} | HTTP/SQL | wallets with balance ≠ sum of entries | HTTP debits written (warm-up included) | written = answered 200 |`,
    );
    out.push("|---|---|---|---|---|---|---|---|---|");
    out.push(...rows);
    out.push(
      `\nGetWalletLogs at ${args.entries} entries in one tenant (seeded in ${f(seededMs / 1000)} s; alone: ${args.alone} requests):\n`,
    );
    out.push(
      `| filter | entries | statements | alone p50 HTTP / SQL (ms) | HTTP − SQL (ms) | ${connections} connections HTTP / SQL (rps) | HTTP/SQL |`,
    );
    out.push("|---|---|---|---|---|---|---|");
    out.push(...logRows);
    console.log(out.join("\n"));
  } finally {
    await pool?.end().catch(() => {});
    await c.end().catch(() => {});
    if (app) await app.stop();
    if (!args.keep) await db.drop();
    else log(`kept database ${db.url}`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
