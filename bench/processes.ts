// Several processes behind PgBouncer (issue 29): what a second API process and a second worker buy. One fresh
// PostgreSQL database behind PgBouncer in transaction pooling mode (e2e/pgbouncer.ts), 2 ROLE=api + 2 ROLE=worker
// processes set up as the README says (DATABASE_URL through the pooler, DATABASE_DIRECT_URL beside it, one DATA_DIR and
// signing key), the Mercado Libre sandbox as its own process.
//
//   npm run bench:processes                       # 2,000 products per publish over 8 sellers, 50 connections for 20 s
//   npm run bench:processes -- --products=2000 --sellers=8 --connections=50 --duration=20 --pg-url=postgres://root@127.0.0.1:5432/test
//
// - GetMyInfo and the product list (GetProductsByPage, page 1 of 20, newest first, over the tenant's products):
//   autocannon with --connections for --duration s (after --warmup s) against the first API process alone, then the
//   same connections split over both; requests/s and latencies, and the ratio 2 : 1 of requests/s.
// - A publish of --products products: one batch per seller (--sellers sellers of the demo tenant, their products split
//   evenly: one seller's calls are held to its rate, 1,180 a minute, so one seller alone would measure that limit and
//   not the workers), all started at once; items per second from the first publish call to the last batch's end, with
//   the second worker stopped, then with it running again (other sellers, other products); the ratio 2 : 1.
// Every seller's items are checked: all published, none twice. Prints the machine, the command and a markdown table.
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon, { type Options } from "autocannon";
import { createFreshPostgresDatabase } from "../e2e/app-process.ts";
import { startPgBouncer } from "../e2e/pgbouncer.ts";
import {
  appEnv,
  connectSeller,
  prepareSeller,
  publishTagged,
  startSandboxProcess,
  startServer,
  waitForBatch,
  type Proc,
  type Seller,
} from "../e2e/publish-rig.ts";
import { cpuMeter, loadAvg, machine, stats } from "./measure.ts";

const { values: args } = parseArgs({
  options: {
    products: { type: "string", default: "2000" },
    sellers: { type: "string", default: "8" },
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    "pool-size": { type: "string", default: "40" },
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
  },
});
const products = Number(args.products);
const sellers = Number(args.sellers);
const connections = Number(args.connections);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const perSeller = Math.floor(products / sellers);
if (perSeller < 1) throw new Error("--products must be at least --sellers");
const log = (line: string) => console.error(line);
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");
/** A title tag no other tag contains (the publish filter matches a part of the title). */
const tagOf = (run: "a" | "b", i: number) => `proc${run}${String(i + 1).padStart(3, "0")}`;

type Load = { rps: number; p50: number; p99: number; non2xx: number; cpu: string };

/** autocannon on each URL with its share of the connections, at once; answers the sum of their requests/s. */
async function load(
  urls: string[],
  request: Pick<Options, "method" | "headers" | "body"> & { path: string },
  procs: Proc[],
): Promise<Load> {
  const fire = (seconds: number, lat: number[] | null) =>
    Promise.all(
      urls.map(async (url, i) => {
        const conns = Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0);
        const inst = autocannon({ ...request, url: url + request.path, connections: conns, duration: seconds, timeout: 10 });
        if (lat) (inst as unknown as EventEmitter).on("response", (_c: unknown, _st: number, _b: number, ms: number) => lat.push(ms));
        return inst;
      }),
    );
  if (warmup > 0) await fire(warmup, null);
  const lat: number[] = [];
  const cpu = procs.map((p) => cpuMeter(p.child.pid));
  const started = performance.now();
  const results = await fire(duration, lat);
  const wall = (performance.now() - started) / 1000;
  const used = cpu.map((stop) => stop());
  const s = stats(lat);
  return {
    rps: lat.length / wall,
    p50: s.p50,
    p99: s.p99,
    non2xx: results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
    cpu: [...used.map((c, i) => `api ${i + 1} ${f(c.processCpuPct, 0)} %`), `machine ${f(used[0].machineBusyPct, 0)} % busy`].join(", "),
  };
}

type Publish = { items: number; seconds: number; perSecond: number; failed: number; duplicates: number; cpu: string };

/** One batch per seller, all at once; waits for every batch to end. */
async function publish(
  sandbox: Awaited<ReturnType<typeof startSandboxProcess>>,
  shops: Seller[],
  run: "a" | "b",
  workers: Proc[],
): Promise<Publish> {
  const before = await sandbox.creations();
  const cpu = workers.map((w) => cpuMeter(w.child.pid));
  const started = performance.now();
  const batches = await Promise.all(shops.map((s, i) => publishTagged(s, tagOf(run, i), perSeller)));
  const done = await Promise.all(batches.map((b, i) => waitForBatch(shops[i], b.id, 60 * 60_000, 250)));
  const seconds = (performance.now() - started) / 1000;
  const used = cpu.map((stop) => stop());
  const after = await sandbox.creations();
  const items = done.reduce((n, b) => n + b.success, 0);
  return {
    items,
    seconds,
    perSecond: items / seconds,
    failed: done.reduce((n, b) => n + b.fail + b.skipped, 0),
    duplicates: after.duplicates.length - before.duplicates.length,
    cpu: [...used.map((c, i) => `worker ${i + 1} ${f(c.processCpuPct, 0)} %`), `machine ${f(used[0].machineBusyPct, 0)} % busy`].join(", "),
  };
}

const m = machine();
const sandbox = await startSandboxProcess();
const database = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_processes");
const bouncer = await startPgBouncer(database.url, { poolSize: Number(args["pool-size"]) });
const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-processes-"));
const procs: Proc[] = [];
try {
  const env = {
    ...appEnv({ dataDir, databaseUrl: bouncer.url, apiUrl: sandbox.url, sandboxUrl: sandbox.url }),
    DATABASE_DIRECT_URL: database.url,
  };
  log("starting 2 API + 2 worker processes behind PgBouncer…");
  const [api1, api2, worker1] = await Promise.all([startServer(env, "api"), startServer(env, "api"), startServer(env, "worker")]);
  let worker2 = await startServer(env, "worker");
  procs.push(api1, api2, worker1, worker2);
  const withFirstStart = { ...api1, output: () => procs.map((p) => p.output()).join("\n") };

  log(`preparing ${sellers * 2} sellers and ${perSeller * sellers * 2} products…`);
  const first = await prepareSeller(withFirstStart, sandbox, {
    nickname: "PROCSELLERA001",
    products: (["a", "b"] as const).flatMap((run) => Array.from({ length: sellers }, (_, i) => ({ tag: tagOf(run, i), count: perSeller }))),
  });
  const shops: Record<"a" | "b", Seller[]> = { a: [first], b: [] };
  for (const run of ["a", "b"] as const) {
    for (let i = run === "a" ? 1 : 0; i < sellers; i++) {
      const nickname = `PROCSELLER${tagOf(run, i).slice(4).toUpperCase()}`;
      const groupId = await connectSeller(first.url, first.token, { nickname, site: "MLM" });
      shops[run].push({ ...first, groupId });
    }
  }

  const bearer = { authorization: `Bearer ${first.token}` };
  const calls = [
    { name: "GetMyInfo", request: { method: "GET", path: "/api/User/GetMyInfo", headers: bearer } },
    {
      name: `product list (page 1 of 20 over ${perSeller * sellers * 2})`,
      request: {
        method: "POST",
        path: "/api/Product/GetProductsByPage",
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify({ maxResultCount: 20, skipCount: 0 }),
      },
    },
  ];
  const rows: string[] = [];
  for (const c of calls) {
    log(`${c.name}: 1 API process…`);
    const one = await load([api1.url!], c.request, [api1]);
    log(`${c.name}: 2 API processes…`);
    const two = await load([api1.url!, api2.url!], c.request, [api1, api2]);
    rows.push(
      `| ${c.name}, ${connections} connections | ${f(one.rps, 0)} req/s (p50 ${f(one.p50)} ms, p99 ${f(one.p99)} ms; ${one.cpu}) | ` +
        `${f(two.rps, 0)} req/s (p50 ${f(two.p50)} ms, p99 ${f(two.p99)} ms; ${two.cpu}) | **${f(two.rps / one.rps, 2)}** | ${one.non2xx + two.non2xx} |`,
    );
  }

  log("publish with 1 worker…");
  await worker2.kill("SIGTERM");
  const alone = await publish(sandbox, shops.a, "a", [worker1]);
  worker2 = await startServer(env, "worker");
  procs[3] = worker2;
  log("publish with 2 workers…");
  const both = await publish(sandbox, shops.b, "b", [worker1, worker2]);
  const label = `publish of ${perSeller * sellers} products (${sellers} sellers × ${perSeller})`;
  rows.push(
    `| ${label} | ${f(alone.perSecond)} items/s (${alone.items} in ${f(alone.seconds)} s; ${alone.cpu}) | ` +
      `${f(both.perSecond)} items/s (${both.items} in ${f(both.seconds)} s; ${both.cpu}) | **${f(both.perSecond / alone.perSecond, 2)}** | ` +
      `${alone.failed + both.failed} not published, ${alone.duplicates + both.duplicates} duplicates |`,
  );

  console.log(`\nMachine: ${m.nproc} CPUs (${m.cpuModel}), ${m.memGiB} GiB, Node ${m.node}; load ${loadAvg()}`);
  console.log(
    `Command: npm run bench:processes -- --products=${products} --sellers=${sellers} --connections=${connections} --duration=${duration} --warmup=${warmup} --pool-size=${args["pool-size"]}\n`,
  );
  console.log("| measure | 1 process | 2 processes | 2 : 1 | errors |");
  console.log("|---|---|---|---|---|");
  for (const r of rows) console.log(r);
} finally {
  for (const p of procs.reverse()) await p.kill();
  await sandbox.proc.kill();
  await bouncer.stop();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
