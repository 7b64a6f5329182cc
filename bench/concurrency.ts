// Concurrent writes benchmark (issue 14) on PostgreSQL: does a storm of bulk edits over the same rows deadlock, time
// out or starve the reads of its own tenant and of another tenant?
//
//   npm run bench:concurrency                                  # defaults below (~4 min on 2 cores)
//   npm run bench:concurrency -- --products=100000 --duration=60 --baseline=20 --connections=100 --pg-url=postgres://root@127.0.0.1:5432/test
//
// A fresh database on --pg-url (dropped after), the real server process (`node scripts/start.mjs`, what `npm start`
// runs, pool of --pool-size), two tenants of --products products each (bench/product-seed.ts, set-based SQL).
// (1) Bursts: 20, then 100 BatchUpdateProductPrice calls on the same 5 products of tenant A sent at once: the wall time
//     until the last answer, the answers by status, and whether each edit was applied once (the prices after).
// (2) The limit, measured in the same run: the read clients alone for --baseline seconds (after a 5 s warm-up):
//     tenant A's product list and product detail, tenant B's list and detail.
// (3) The mix for --duration seconds: the same read clients, plus tenant A creating products and editing the prices of
//     the same 5 products in bulk. --connections in all, split as in `mix` below. autocannon keeps every latency, so
//     the percentiles are exact; a request unanswered after 10 s is a timeout.
// The reads' p99 in the mix is compared with their p99 alone (the issue's limit: within 3×). Deadlocks are PostgreSQL's
// own count for the database (pg_stat_database) and the server's log lines of a bulk call retried after one.
// Prints the machine and markdown tables; writes the raw figures as JSON into bench/.data/.
import type { EventEmitter } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon, { type Options, type Request } from "autocannon";
import pg from "pg";
import { accessToken, createFreshPostgresDatabase, freePort, repoRoot, startApp, type AppProcess } from "../e2e/app-process.ts";
import { openDatabase } from "../server/db/client.ts";
import { hostAllScope, inScope } from "../server/db/scope.ts";
import { insertTenantWithMainAccount } from "../server/modules/identity/users.ts";
import { createPasswordHasher } from "../server/modules/identity/passwords.ts";
import { cpuMeter, loadAvg, machine, stats } from "./measure.ts";
import { seedProducts } from "./product-seed.ts";

const { values: args } = parseArgs({
  options: {
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
    products: { type: "string", default: "100000" },
    duration: { type: "string", default: "60" },
    baseline: { type: "string", default: "20" },
    connections: { type: "string", default: "100" },
    "pool-size": { type: "string", default: "20" },
    "log-level": { type: "string", default: "warn" },
  },
});
const count = Number(args.products);
const duration = Number(args.duration);
const baseline = Number(args.baseline);
const connections = Number(args.connections);
const outDir = join(repoRoot, "bench", ".data");
const ADMIN_PASSWORD = "Bench-Admin-1";
const SUB_PASSWORD = "Bench-Sub-1";
const TENANT_B = "benchb";
const TENANT_B_PASSWORD = "Bench-B-1";
const READ_LIMIT = 3;
const log = (line: string) => console.error(line);
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");

type Client = "A list" | "A detail" | "B list" | "B detail" | "A create" | "A bulk edit";
/** Shares of the connections in the mix; the reads alone use the same number of connections each. */
const mix: Record<Client, number> = {
  "A list": 0.25,
  "A detail": 0.15,
  "B list": 0.15,
  "B detail": 0.1,
  "A create": 0.1,
  "A bulk edit": 0.25,
};
const reads: Client[] = ["A list", "A detail", "B list", "B detail"];

type Load = {
  connections: number;
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  rps: number;
  statuses: Record<string, number>;
  timeouts: number;
  errors: number;
};

type Setup = { url: string; tokenA: string; tokenB: string; editIds: string[]; detailA: string[]; detailB: string[] };

function requestOf(c: Client, s: Setup): Options {
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });
  const rotating = (token: string, ids: string[]) => {
    let i = 0;
    return {
      method: "GET" as const,
      headers: auth(token),
      requests: [{ setupRequest: (r: Request) => ({ ...r, path: `/api/Product/GetProductById?id=${ids[i++ % ids.length]}` }) }],
    };
  };
  const post = (token: string, path: string, body: unknown) => ({
    url: `${s.url}${path}`,
    method: "POST" as const,
    headers: auth(token),
    body: JSON.stringify(body),
  });
  const list = { maxResultCount: 20, skipCount: 0 };
  switch (c) {
    case "A list":
      return post(s.tokenA, "/api/Product/GetProductsByPage", list);
    case "B list":
      return post(s.tokenB, "/api/Product/GetProductsByPage", list);
    case "A detail":
      return { url: s.url, ...rotating(s.tokenA, s.detailA) };
    case "B detail":
      return { url: s.url, ...rotating(s.tokenB, s.detailB) };
    case "A create":
      return post(s.tokenA, "/api/Product/CreateOrUpdateProduct", { title: { zh: "并发测试商品" }, sku: "bench-new", price: 9.9 });
    case "A bulk edit":
      return post(s.tokenA, "/api/Product/BatchUpdateProductPrice", { ids: s.editIds, rate: 1, price: 0.01 });
  }
}

/** The clients run together for `seconds`; each keeps every latency. */
async function runClients(clients: Client[], s: Setup, seconds: number): Promise<Record<string, Load>> {
  const runs = clients.map(async (c) => {
    const conns = Math.max(1, Math.round(connections * mix[c]));
    const lat: number[] = [];
    const started = performance.now();
    const inst = autocannon({ ...requestOf(c, s), connections: conns, duration: seconds, timeout: 10 });
    (inst as unknown as EventEmitter).on("response", (_c: unknown, _st: number, _b: number, ms: number) => lat.push(ms));
    const r = await inst;
    const wall = (performance.now() - started) / 1000;
    const statuses: Record<string, number> = {};
    for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = (v as { count: number }).count;
    return [c, { connections: conns, ...stats(lat), rps: lat.length / wall, statuses, timeouts: r.timeouts, errors: r.errors }] as const;
  });
  return Object.fromEntries(await Promise.all(runs));
}

/** `n` price edits of the same products at once: wall time and answers by status. */
async function burst(s: Setup, n: number) {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: n }, () =>
      fetch(`${s.url}/api/Product/BatchUpdateProductPrice`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.tokenA}`, "content-type": "application/json" },
        body: JSON.stringify({ ids: s.editIds, rate: 1, price: 1 }),
      }).then(async (r) => (await r.text(), r.status)),
    ),
  );
  const statuses: Record<string, number> = {};
  for (const st of answers) statuses[st] = (statuses[st] ?? 0) + 1;
  return { n, seconds: (performance.now() - started) / 1000, statuses };
}

async function pricesOf(pool: pg.Pool, ids: string[]): Promise<number[]> {
  const r = await pool.query<{ price: string }>("select price from products where id = any($1::uuid[]) order by id", [ids]);
  return r.rows.map((x) => Number(x.price));
}

async function deadlocks(pool: pg.Pool): Promise<number> {
  const r = await pool.query<{ deadlocks: number }>("select deadlocks from pg_stat_database where datname = current_database()");
  return Number(r.rows[0]?.deadlocks ?? 0);
}

const retriedLines = (logFile: string) => (readFileSync(logFile, "utf8").match(/bulk call retried/g) ?? []).length;

async function main() {
  mkdirSync(outDir, { recursive: true });
  const m = machine();
  log(`machine: ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}, load ${m.loadavg}`);
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-concurrency-"));
  const logFile = join(outDir, "concurrency-server.log");
  writeFileSync(logFile, "");
  const db = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_concurrency");
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    HOST: "127.0.0.1",
    ADMIN_PASSWORD,
    LOG_LEVEL: args["log-level"],
    DB_POOL_SIZE: args["pool-size"],
    DEMO_DATA: "0",
  };
  let app: AppProcess | undefined;
  const owner = new pg.Pool({ connectionString: db.url, max: 2 });
  try {
    const first = await startApp({ ...env, PORT: String(await freePort()) }, { logFile });
    const demo = first.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${first.stdout()}`);
    await first.stop();

    const database = await openDatabase({ kind: "postgres", url: db.url, poolSize: 2 });
    try {
      await inScope(database.db, hostAllScope, (tx) =>
        insertTenantWithMainAccount(tx, { tenantName: TENANT_B, userName: "boss", pwd: TENANT_B_PASSWORD }, createPasswordHasher()),
      );
      for (const tenantName of [demo.tenant, TENANT_B]) {
        const seed = await seedProducts(database, { tenantName, count, subPassword: SUB_PASSWORD });
        log(`seeded ${seed.products} products in ${tenantName}: ${seed.ms.total} ms`);
      }
    } finally {
      await database.close();
    }
    const sample = async (tenant: string, n: number) =>
      (
        await owner.query<{ id: string }>(
          `select p.id from products p join tenants t on t.id = p.tenant_id where t.name = $1 order by p.id limit $2`,
          [tenant, n],
        )
      ).rows.map((r) => r.id);
    const [editIds, detailA, detailB] = [await sample(demo.tenant, 5), await sample(demo.tenant, 500), await sample(TENANT_B, 500)];

    app = await startApp({ ...env, PORT: String(await freePort()) }, { logFile });
    const setup: Setup = {
      url: app.url,
      tokenA: await accessToken(app.url, demo.user, demo.password, demo.tenant),
      tokenB: await accessToken(app.url, "boss", TENANT_B_PASSWORD, TENANT_B),
      editIds,
      detailA,
      detailB,
    };

    const deadlocksAtStart = await deadlocks(owner);
    const bursts = [];
    for (const n of [20, 100]) {
      const before = await pricesOf(owner, editIds);
      const b = await burst(setup, n);
      const after = await pricesOf(owner, editIds);
      const appliedOnce = after.every((p, i) => Math.abs(p - (before[i] + (b.statuses["200"] ?? 0))) < 0.001);
      bursts.push({ ...b, appliedOnce });
      log(`burst of ${n}: ${f(b.seconds, 2)} s, ${JSON.stringify(b.statuses)}, each applied once: ${appliedOnce}`);
    }

    log(`warm-up 5 s, then the reads alone for ${baseline} s`);
    await runClients(reads, setup, 5);
    const loadAlone = loadAvg();
    const alone = await runClients(reads, setup, baseline);
    log(`the mix for ${duration} s at ${connections} connections`);
    const loadMix = loadAvg();
    const meter = cpuMeter(app.child.pid);
    const mixed = await runClients(Object.keys(mix) as Client[], setup, duration);
    const cpu = meter();
    await new Promise((r) => setTimeout(r, 1500)); // backends report their statistics within a second of going idle
    const deadlocksSeen = (await deadlocks(owner)) - deadlocksAtStart;
    const retried = retriedLines(logFile);

    const result = { machine: m, args, bursts, alone, mixed, deadlocks: deadlocksSeen, retried, cpu, loadAlone, loadMix };
    writeFileSync(join(outDir, "concurrency.json"), JSON.stringify(result, null, 2));
    console.log(report(result));
  } finally {
    await app?.stop();
    await owner.end();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Result = {
  bursts: { n: number; seconds: number; statuses: Record<string, number>; appliedOnce: boolean }[];
  alone: Record<string, Load>;
  mixed: Record<string, Load>;
  deadlocks: number;
  retried: number;
  cpu: { wall: number; processCpuPct: number; machineBusyPct: number };
  loadAlone: string;
  loadMix: string;
};

function report(r: Result): string {
  const lines: string[] = [];
  lines.push("| burst | wall | answers | each edit applied once |", "|---|---:|---|---|");
  for (const b of r.bursts) lines.push(`| ${b.n} at once | ${f(b.seconds, 2)} s | ${JSON.stringify(b.statuses)} | ${b.appliedOnce} |`);
  lines.push("");
  lines.push(
    "| client | conns | alone p50 / p99 | mix p50 / p99 | p99 mix ÷ alone | mix req/s | mix answers | timeouts |",
    "|---|---:|---|---|---:|---:|---|---:|",
  );
  for (const [c, x] of Object.entries(r.mixed)) {
    const a = r.alone[c];
    const ratio = a ? x.p99 / a.p99 : NaN;
    const verdict = a ? (ratio <= READ_LIMIT ? " (≤ 3)" : " **(> 3)**") : "";
    lines.push(
      `| ${c} | ${x.connections} | ${a ? `${f(a.p50)} / ${f(a.p99)} ms` : "–"} | ${f(x.p50)} / ${f(x.p99)} ms | ${a ? f(ratio, 2) + verdict : "–"} | ${f(x.rps, 0)} | ${JSON.stringify(x.statuses)} | ${x.timeouts} |`,
    );
  }
  const total = Object.values(r.mixed);
  lines.push("");
  lines.push(
    `mix: ${total.reduce((a, x) => a + x.n, 0)} answers, ${total.reduce((a, x) => a + x.timeouts, 0)} timeouts, ${total.reduce((a, x) => a + x.errors, 0)} errors; ` +
      `deadlocks (pg_stat_database) ${r.deadlocks}, bulk calls retried ${r.retried}; server CPU ${f(r.cpu.processCpuPct, 0)} %, machine busy ${f(r.cpu.machineBusyPct, 0)} %; ` +
      `load average ${r.loadAlone} (alone), ${r.loadMix} (mix)`,
  );
  return lines.join("\n");
}

await main();
