// Publish benchmark (issue 15): N products published in one batch to one sandbox seller whose rate limit is R calls
// a minute. Does the publisher keep the seller's bucket full (achieved rate ≥ 95 % of R) without going over it (no
// minute with more than R calls, no 429 after the first back-off) and without duplicates?
//
//   npm run bench:publish                                   # 2,000 products, R = 1,200/min (~2 min of publishing per run)
//   npm run bench:publish -- --products=2000 --rate=1200 --runs=one,split --pg-url=postgres://root@127.0.0.1:5432/test
//
// Runs (e2e/publish-rig.ts: the sandbox as its own process, a recording tap between the app and the sandbox):
//   one    the app as one process on PGlite (what `npm start` runs);
//   split  on a fresh PostgreSQL database (dropped after): ROLE=api and two ROLE=worker processes sharing the seller's
//          bucket (meli_rate_buckets).
// R is the sandbox's limit for the seller; the app's own bucket per seller is the client's sellerPerMinute plus its
// burst (1,180 + 20 a minute, server/integrations/mercadolibre/client.ts), so R = 1,200 is the limit the publisher is
// built to fill without going over.
// The achieved rate is the seller's calls from the first to the last, per minute; "any minute" is the most calls
// that reached the sandbox in any sliding 60 s. Prints the machine and a markdown table.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createFreshPostgresDatabase, freePort } from "../e2e/app-process.ts";
import {
  appEnv,
  listingsOf,
  maxInWindow,
  prepareSeller,
  publishTagged,
  sellerCalls,
  startSandboxProcess,
  startServer,
  startTap,
  waitForBatch,
  type Proc,
} from "../e2e/publish-rig.ts";
import { cpuMeter, loadAvg, machine } from "./measure.ts";

const { values: args } = parseArgs({
  options: {
    products: { type: "string", default: "2000" },
    rate: { type: "string", default: "1200" },
    runs: { type: "string", default: "one,split" },
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
  },
});
const count = Number(args.products);
const R = Number(args.rate);
const log = (line: string) => console.error(line);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");

type Result = {
  run: string;
  calls: number;
  creations: number;
  spanS: number;
  batchS: number;
  perMinute: number;
  share: number;
  maxMinute: number;
  r429: number;
  after429: number;
  duplicates: number;
  active: number;
  cpu: string;
  /** Median time of a creation at the tap (the sandbox's share of a job). */
  createMs: number;
};

async function run(name: "one" | "split"): Promise<Result> {
  const sandbox = await startSandboxProcess();
  const tap = await startTap(sandbox.url);
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-publish-"));
  const database = name === "split" ? await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_publish") : null;
  const procs: Proc[] = [];
  try {
    const env = appEnv({ dataDir, databaseUrl: database?.url, apiUrl: tap.url, sandboxUrl: sandbox.url, port: await freePort() });
    const api = await startServer(env, name === "split" ? "api" : "all");
    procs.push(api);
    if (name === "split") procs.push(await startServer(env, "worker"), await startServer(env, "worker"));
    log(`[${name}] preparing ${count} products…`);
    const seller = await prepareSeller(api, sandbox, { nickname: "BENCHSELLER", products: [{ tag: "bench", count }] });
    await sandbox.ctl("POST", "rate-limit", { sellerId: seller.sellerId, perMinute: R, retryAfter: true });
    tap.calls.length = 0;
    const cpu = procs.map((p) => cpuMeter(p.child.pid));
    log(`[${name}] publishing (limit ${R}/min)…`);
    const started = performance.now();
    const batch = await publishTagged(seller, "bench", count);
    const done = await waitForBatch(seller, batch.id, 30 * 60_000, 1000);
    const batchS = (performance.now() - started) / 1000;
    const used = cpu.map((stop) => stop());
    const cpuText = [
      ...used.map((c, i) => `${i === 0 ? (name === "split" ? "api" : "app") : `worker ${i}`} ${f(c.processCpuPct, 0)} %`),
      `machine ${f(used[0].machineBusyPct, 0)} % busy`,
    ];
    const calls = sellerCalls(tap.calls).sort((a, b) => a.start - b.start);
    const spanS = (calls[calls.length - 1].start - calls[0].start) / 1000;
    const rejected = calls.filter((c) => c.status === 429);
    const rows = await listingsOf(seller, batch.id);
    const { creations, duplicates } = await sandbox.creations();
    const perMinute = (calls.length / spanS) * 60;
    log(`[${name}] batch ${JSON.stringify(done)} in ${f(batchS)} s`);
    return {
      run: name === "split" ? "PostgreSQL, api + 2 workers" : "PGlite, one process",
      calls: calls.length,
      creations: creations.length,
      spanS,
      batchS,
      perMinute,
      share: perMinute / R,
      maxMinute: maxInWindow(calls, 60_000),
      r429: rejected.length,
      // The first 429 (and the calls already in flight with it) is the back-off's trigger; any later one is a miss.
      after429: rejected.filter((c) => c.start > rejected[0].end + 250).length,
      duplicates: duplicates.length,
      active: rows.filter((r) => r.status === 2 || r.itemId).length,
      cpu: cpuText.join(", "),
      createMs: median(calls.filter((c) => c.method === "POST" && c.path === "/items").map((c) => c.end - c.start)),
    };
  } finally {
    for (const p of procs.reverse()) await p.kill();
    await sandbox.proc.kill();
    await tap.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const m = machine();
const results: Result[] = [];
for (const name of args.runs!.split(",")) results.push(await run(name as "one" | "split"));

console.log(`\nMachine: ${m.nproc} CPUs (${m.cpuModel}), ${m.memGiB} GiB, Node ${m.node}, PGlite ${m.pglite}; load ${loadAvg()}`);
console.log(`Command: npm run bench:publish -- --products=${count} --rate=${R} --runs=${args.runs}\n`);
console.log(
  "| run | seller calls / items created | publishing span | calls per minute / R | share of R | most calls in any minute / R | 429s (after the first back-off) | duplicates | listings with an item | median creation at the sandbox | CPU |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  console.log(
    `| ${r.run} | ${r.calls} / ${r.creations} | ${f(r.spanS)} s (batch ${f(r.batchS)} s) | ${f(r.perMinute, 0)} / ${R} | ${f(r.share * 100)} % | ${r.maxMinute} / ${R} | ${r.r429} (${r.after429}) | ${r.duplicates} | ${r.active} / ${count} | ${f(r.createMs, 0)} ms | ${r.cpu} |`,
  );
}
