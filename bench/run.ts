// Load benchmark: the real server (`node scripts/start.mjs`, as `npm start` runs it) as its own process on loopback,
// one tenant seeded with 10,000 sub-accounts by one set-based INSERT, then autocannon against the read calls.
//
//   npm run bench                                   # PGlite (fresh DATA_DIR)
//   npm run bench -- --db=postgres                  # a fresh database on --pg-url (default postgres://root@127.0.0.1:5432/test), dropped after
//   npm run bench -- --db=both --duration=10 --warmup=3 --connections=50 --users=10000 --log-level=warn
//   npm run bench -- --only=GetMyInfo,health --cpu-prof   # some calls only; V8 CPU profile of the server into bench/.data/prof
//
// Prints the machine, a markdown table (requests/s, latency p50/p90/p99, non-2xx, CPU of the server process and of the
// whole machine during the run), and writes the raw figures as JSON into bench/.data/.
import { execFileSync } from "node:child_process";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { accessToken, createFreshPostgresDatabase, freePort, repoRoot, startApp } from "../e2e/app-process.ts";
import { openDatabase } from "../server/db/client.ts";
import { seedSubUsers } from "./seed.ts";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "pglite" },
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    users: { type: "string", default: "10000" },
    "log-level": { type: "string", default: "warn" },
    only: { type: "string" },
    "cpu-prof": { type: "boolean", default: false },
    "pool-size": { type: "string" },
    keep: { type: "boolean", default: false },
  },
});

const dbs =
  args.db === "both" ? (["pglite", "postgres"] as const) : args.db === "postgres" ? (["postgres"] as const) : (["pglite"] as const);
if (!["pglite", "postgres", "both"].includes(args.db!)) throw new Error(`--db must be pglite, postgres or both, not ${args.db}`);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const userCount = Number(args.users);
const ADMIN_PASSWORD = "Bench-Admin-1";
const SUB_PASSWORD = "Bench-Sub-1";
const outDir = join(repoRoot, "bench", ".data");

type Scenario = { name: string; path: string; auth: boolean };
const deepSkip = Math.max(0, userCount - 1000);
const scenarios: Scenario[] = [
  { name: "health (no auth, 1 query, no transaction)", path: "/health", auth: false },
  { name: "GetUserInfo (token + session check only)", path: "/api/User/GetUserInfo", auth: true },
  { name: "GetMyInfo", path: "/api/User/GetMyInfo", auth: true },
  { name: "GetSubUsers page 1 (20)", path: "/api/User/GetSubUsers?SkipCount=0&MaxResultCount=20", auth: true },
  { name: `GetSubUsers deep page (skip ${deepSkip})`, path: `/api/User/GetSubUsers?SkipCount=${deepSkip}&MaxResultCount=20`, auth: true },
].filter((s) => !args.only || args.only.split(",").some((o) => s.name.toLowerCase().includes(o.trim().toLowerCase())));

type Row = {
  db: string;
  scenario: string;
  path: string;
  requestsPerSec: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  avg: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  serverCpuPct: number;
  benchCpuPct: number;
  machineBusyPct: number;
  /** CPU used by everything else on the machine during the run (other engineers' tests), in % of one core. */
  othersCpuPct: number;
  /** CPU time per answered request: the server process, the PostgreSQL backends serving it, autocannon. */
  serverCpuUsPerReq: number;
  dbCpuUsPerReq: number | null;
  benchCpuUsPerReq: number;
};

function machine() {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model;
  let free = "";
  try {
    free = execFileSync("free", ["-h"], { encoding: "utf8" }).trim();
  } catch {
    free = `${(totalmem() / 2 ** 30).toFixed(1)} GiB total`;
  }
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync("nproc", { encoding: "utf8" }).trim();
  } catch {
    // os.cpus() then
  }
  return {
    nproc,
    cpuModel: model,
    node: process.version,
    free,
    loadavg: loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
  };
}

/** utime+stime of a process, in seconds. */
function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
}

/** Busy and total jiffies of the whole machine. */
function machineTicks(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** The PostgreSQL backends connected to the benchmark's database (the server's pool and its job queue). */
async function backendPids(pgUrl: string | undefined): Promise<number[]> {
  if (!pgUrl) return [];
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    return r.rows.map((x) => x.pid);
  } finally {
    await c.end();
  }
}

function sumCpu(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += processCpuSeconds(pid);
    } catch {
      // a backend that ended
    }
  }
  return total;
}

async function measure(db: string, app: { url: string; pid: number }, s: Scenario, token: string, pgUrl?: string): Promise<Row> {
  const headers: Record<string, string> = s.auth ? { authorization: `Bearer ${token}` } : {};
  const opts = { url: app.url + s.path, connections, headers };
  if (warmup > 0) await autocannon({ ...opts, duration: warmup });
  const pid = app.pid;
  // Backends that end during the run take their CPU time with them: the figure is a lower bound (the pool keeps them).
  const pids = await backendPids(pgUrl);
  const db0 = sumCpu(pids);
  const cpu0 = processCpuSeconds(pid);
  const self0 = process.cpuUsage();
  const m0 = machineTicks();
  const t0 = Date.now();
  const r: Result = await autocannon({ ...opts, duration, title: s.name });
  const wall = (Date.now() - t0) / 1000;
  const m1 = machineTicks();
  const self = process.cpuUsage(self0);
  const serverCpu = processCpuSeconds(pid) - cpu0;
  const dbCpu = sumCpu(pids) - db0;
  const serverCpuPct = (serverCpu / wall) * 100;
  const answered = Math.max(1, r.requests.total);
  return {
    db,
    scenario: s.name,
    path: s.path,
    requestsPerSec: r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    avg: r.latency.average,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    serverCpuPct,
    benchCpuPct: ((self.user + self.system) / 1e6 / wall) * 100,
    machineBusyPct: ((m1.busy - m0.busy) / (m1.total - m0.total)) * 100,
    othersCpuPct: Math.max(0, ((m1.busy - m0.busy) / 100 - serverCpu - dbCpu - (self.user + self.system) / 1e6) / wall) * 100,
    serverCpuUsPerReq: (serverCpu / answered) * 1e6,
    dbCpuUsPerReq: pgUrl ? (dbCpu / answered) * 1e6 : null,
    benchCpuUsPerReq: (self.user + self.system) / answered,
  };
}

async function getJson(url: string, token: string) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { result: any };
}

function report(db: string, row: Row): Row {
  console.error(
    `[bench ${db}] ${row.scenario}: ${row.requestsPerSec.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, non-2xx ${row.non2xx}, server CPU ${row.serverCpuPct.toFixed(0)}% (${row.serverCpuUsPerReq.toFixed(0)} µs/req), db ${row.dbCpuUsPerReq?.toFixed(0) ?? "-"} µs/req, machine ${row.machineBusyPct.toFixed(0)}%, others ${row.othersCpuPct.toFixed(0)}% of a core`,
  );
  return row;
}

async function benchOne(db: "pglite" | "postgres"): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-"));
  const logFile = join(outDir, `server-${db}.log`);
  writeFileSync(logFile, "");
  const pgDatabase = db === "postgres" ? await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench") : undefined;
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    DATABASE_URL: pgDatabase?.url,
    HOST: "127.0.0.1",
    ADMIN_PASSWORD,
    LOG_LEVEL: args["log-level"],
    DB_POOL_SIZE: args["pool-size"],
  };
  try {
    // First start: migrations and first-start data (admin, demo tenant); then stopped so the seed owns the database
    // (PGlite has one owner process).
    let t = Date.now();
    const first = await startApp({ ...env, PORT: String(await freePort()) }, { logFile });
    const demo = first.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${first.stdout()}`);
    if ((await first.stop()) !== 0) throw new Error(`first start did not exit 0:\n${first.stdout()}`);
    console.error(`[bench ${db}] first start and stop: ${Date.now() - t} ms`);

    const database = await openDatabase(
      pgDatabase ? { kind: "postgres", url: pgDatabase.url, poolSize: 2 } : { kind: "pglite", dataDir: join(dataDir, "pglite") },
    );
    const seeded = await seedSubUsers(database, demo.tenant, userCount, SUB_PASSWORD);
    await database.close();
    console.error(`[bench ${db}] seeded ${userCount} sub-users in one INSERT … SELECT generate_series: ${seeded.ms} ms`);

    t = Date.now();
    const app = await startApp(
      { ...env, PORT: String(await freePort()) },
      { logFile, nodeArgs: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${join(outDir, "prof")}`] : [] },
    );
    console.error(`[bench ${db}] restart: ${Date.now() - t} ms (${app.url})`);
    const rows: Row[] = [];
    try {
      const token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
      const info = await getJson(`${app.url}/api/User/GetMyInfo`, token);
      const page = await getJson(`${app.url}/api/User/GetSubUsers?SkipCount=${deepSkip}&MaxResultCount=20`, token);
      if (info.result.subAccountCount !== userCount || page.result.totalCount !== userCount || page.result.items.length !== 20) {
        throw new Error(`seed not visible: subAccountCount ${info.result.subAccountCount}, totalCount ${page.result.totalCount}`);
      }
      // A seeded sub-account logs in with the precomputed hash's password.
      await accessToken(app.url, "bench1", SUB_PASSWORD, demo.tenant);

      for (const s of scenarios) rows.push(report(db, await measure(db, { url: app.url, pid: app.child.pid! }, s, token, pgDatabase?.url)));
    } finally {
      const code = await app.stop();
      if (code !== 0) console.error(`[bench ${db}] server exited ${code}; log: ${logFile}`);
    }
    return rows;
  } finally {
    if (!args.keep) {
      await pgDatabase?.drop().catch((e) => console.error(`[bench ${db}] drop failed:`, e));
      rmSync(dataDir, { recursive: true, force: true });
    } else {
      console.error(`[bench ${db}] kept: DATA_DIR ${dataDir}${pgDatabase ? `, database ${pgDatabase.url}` : ""}`);
    }
  }
}

function table(rows: Row[]): string {
  const head =
    "| db | call | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | errors | server CPU | machine busy | others' CPU | CPU µs/req: server | PostgreSQL | autocannon |";
  const sep = "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  const lines = rows.map(
    (r) =>
      `| ${r.db} | ${r.scenario} | ${Math.round(r.requestsPerSec)} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.non2xx} | ${r.errors + r.timeouts} | ${r.serverCpuPct.toFixed(0)}% | ${r.machineBusyPct.toFixed(0)}% | ${r.othersCpuPct.toFixed(0)}% | ${r.serverCpuUsPerReq.toFixed(0)} | ${r.dbCpuUsPerReq === null ? "–" : r.dbCpuUsPerReq.toFixed(0)} | ${r.benchCpuUsPerReq.toFixed(0)} |`,
  );
  return [head, sep, ...lines].join("\n");
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const m = machine();
  const startedAt = new Date().toISOString();
  const command = `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim();
  console.log(`# bench ${startedAt}\n`);
  console.log(`command: ${command}`);
  console.log(`machine: nproc ${m.nproc}, ${m.cpuModel}, node ${m.node}, load average at start ${m.loadavg}`);
  console.log(m.free + "\n");
  console.log(
    `autocannon: ${connections} connections, ${warmup} s warm-up then ${duration} s per call; ${userCount} sub-users in one tenant; server LOG_LEVEL=${args["log-level"]}\n`,
  );
  const rows: Row[] = [];
  for (const db of dbs) rows.push(...(await benchOne(db)));
  const endLoad = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(table(rows));
  console.log(`\nload average at end: ${endLoad}`);
  const file = join(outDir, `results-${startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ startedAt, command, machine: m, endLoad, connections, duration, warmup, userCount, rows }, null, 2));
  console.log(`raw figures: ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
