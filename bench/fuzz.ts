// Error contract fuzz at scale (RELIABILITY.md scenario 15, issue 29): ≥ 10,000 generated requests over every call in
// the OpenAPI document the running server serves (/swagger/json; who may call each is its x-access), against the real
// server process (`node scripts/start.mjs`, what `npm start` runs) on PGlite and on PostgreSQL. The requests are made by
// the same generator and driver as CI's bounded run in server/security/error-contract.test.ts (runFuzz in
// server/testing/security-kit.ts): garbage path parameters, queries, bodies, content types, tenant headers and
// Idempotency-Keys, and the tenant's real ids, receipt pic and package in about half of the order and money fields.
//
//   npm run bench:fuzz                                   # both databases, 10,000 requests each
//   npm run bench:fuzz -- --db=pglite --requests=1000 --seed=42 --concurrency=4
//   npm run bench:fuzz -- --db=postgres --pg-url=postgres://root@127.0.0.1:5432/test --groups=Product,WalletLog
//
// Per database: a fresh DATA_DIR (and a fresh database on --pg-url, dropped after), the server started for its first
// start (the demo tenant is the fuzzing tenant), a shop connected through the built-in sandbox's consent form, money
// made through the API as a seller and the host make it (money-kit's seedMoney: a receipt, a top-up approved, a
// package bought, a withdrawal pending), the server stopped so the tenant's ids can be read from the database (PGlite
// has one owner), started again, then the fuzz. Counted: answers of 5xx (0) and errors outside the envelope (0).
// Prints per-call counts by status and every offender with its request, a markdown block for bench/RESULTS.md, and the
// raw figures as JSON into bench/.data/; exits 1 when any request had an offending answer.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { accessToken } from "../e2e/app-process.ts";
import { connectSeller } from "../e2e/publish-rig.ts";
import type { ApiOptions, ApiResponse } from "../server/testing/harness.ts";
import { seedMoney } from "../server/testing/money-kit.ts";
import {
  describeFuzzRequest,
  operationsOf,
  runFuzz,
  statusCounts,
  tenantIds,
  type FuzzRun,
  type FuzzSend,
  type OpenApiDocument,
  type RealValues,
} from "../server/testing/security-kit.ts";
import { loadAvg, machine } from "./measure.ts";
import { principalOf } from "./replay.ts";
import { BENCH_ADMIN_PASSWORD, benchDataDir, benchServer, databasesOf, serverOptions } from "./server.ts";

const { values: args } = parseArgs({
  options: {
    ...serverOptions,
    requests: { type: "string", default: "10000" },
    "token-requests": { type: "string", default: "100" },
    seed: { type: "string" },
    concurrency: { type: "string", default: "4" },
    groups: { type: "string" },
  },
});
const dbs = databasesOf(args.db);
const requested = Number(args.requests);
const tokenRequests = Number(args["token-requests"]);
const seed = Number(args.seed ?? Date.now() % 1_000_000);
const concurrency = Number(args.concurrency);
const log = (line: string) => console.error(line);
/** An answer not in within this is an offender too (a hung request). */
const ANSWER_TIMEOUT_MS = 30_000;

const parse = (text: string) => {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
};

/** One request over HTTP to the server process, answered as the in-process harness answers (status, headers, parsed body). */
function httpSend(baseUrl: string): FuzzSend {
  return async (req) => {
    try {
      const res = await fetch(baseUrl + req.url, {
        method: req.method,
        headers: req.headers,
        body: req.payload,
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      const text = await res.text();
      return { status: res.status, body: parse(text), headers: Object.fromEntries(res.headers), raw: text };
    } catch (err) {
      // No answer (a reset connection, a timeout): a 599 so the run counts it as a 5xx with the request that caused it.
      return { status: 599, body: null, headers: {}, raw: `no answer: ${String(err)}` };
    }
  };
}

/** The harness's `api` over HTTP (what money-kit's seeding calls). */
function httpApi(baseUrl: string) {
  return {
    async api(method: string, url: string, opts: ApiOptions = {}): Promise<ApiResponse> {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.tenant) headers.__tenant = opts.tenant;
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.query ?? {})) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, String(x));
      let body: string | Uint8Array<ArrayBuffer> | undefined;
      if (Buffer.isBuffer(opts.body)) body = new Uint8Array(opts.body);
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers["content-type"] ??= "application/json";
      }
      const res = await fetch(`${baseUrl}${url}${qs.size ? `?${qs}` : ""}`, { method, headers, body });
      const text = await res.text();
      return { status: res.status, body: parse(text), headers: Object.fromEntries(res.headers), raw: text };
    },
  };
}

type DbRun = { db: string; operations: number; run: FuzzRun; realIds: number };

async function fuzzOne(db: "pglite" | "postgres"): Promise<DbRun> {
  const server = await benchServer("fuzz", db, {
    pgUrl: args["pg-url"]!,
    logLevel: args["log-level"]!,
    keep: args.keep!,
    // The fuzz logs in again after a fuzzed logout; the per-address login limit would refuse it.
    env: { LOGIN_RATE_LIMIT_PER_MINUTE: "1000000" },
    log,
  });
  try {
    let app = await server.start();
    const demo = app.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${app.stdout()}`);
    const login = (who: "main" | "host") =>
      who === "host" ? accessToken(app.url, "admin", BENCH_ADMIN_PASSWORD) : accessToken(app.url, demo.user, demo.password, demo.tenant);
    const tokens = { main: await login("main"), host: await login("host") };
    // The tenant's rows: a shop (the sandbox's consent form), its money.
    await connectSeller(app.url, tokens.main, { nickname: `FUZZSHOP${seed}`, site: "MLM" });
    const money = await seedMoney(httpApi(app.url), { token: tokens.main }, tokens.host);
    const { userId, tenantId } = principalOf(tokens.main);
    await server.stop();

    const database = await server.openDatabase();
    const real: RealValues = {
      tenantId: tenantId!,
      userId,
      ids: await tenantIds(database.db, tenantId!),
      pic: money.pic,
      packageId: money.packageId,
    };
    await database.close();

    app = await server.start();
    tokens.main = await login("main");
    tokens.host = await login("host");
    const doc = (await (await fetch(`${app.url}/swagger/json`)).json()) as OpenApiDocument;
    const groups = args.groups?.split(",").map((g) => g.trim());
    const ops = operationsOf(doc).filter((o) => !groups || groups.includes(o.call.group));
    if (!ops.length) throw new Error("no call in the OpenAPI document (is x-access missing?)");
    const perCall = Math.max(1, Math.ceil((requested - tokenRequests) / ops.length));
    log(
      `[fuzz ${db}] ${ops.length} calls × ${perCall} + ${tokenRequests} token requests, seed ${seed}, ${concurrency} at a time; ${real.ids.all.length} real ids`,
    );
    let shown = 0;
    const run = await runFuzz({
      ops,
      seed,
      perCall,
      tokenRequests,
      tenantName: demo.tenant,
      token: (who) => tokens[who],
      renew: async (who) => {
        tokens[who] = await login(who);
      },
      send: httpSend(app.url),
      real,
      concurrency,
      onAnswer: (sent) => {
        if (sent >= shown + 1000) {
          shown = sent - (sent % 1000);
          log(`[fuzz ${db}] ${sent} answered`);
        }
      },
    });
    const health = await fetch(`${app.url}/health`).then((r) => r.status);
    if (health !== 200) throw new Error(`the server's /health answers ${health} after the fuzz`);
    return { db, operations: ops.length, run, realIds: real.ids.all.length };
  } finally {
    await server.cleanup();
  }
}

function perRouteTable(runs: DbRun[]): string {
  const labels = [...new Set(runs.flatMap((r) => [...r.run.perRoute.keys()]))].sort();
  const lines = labels.map((label) => {
    const cells = runs.map((r) => {
      const m = r.run.perRoute.get(label) ?? new Map<number, number>();
      const n = [...m.values()].reduce((a, b) => a + b, 0);
      const bad = r.run.offenders.filter((o) => o.request.label === label).length;
      return `${n} | ${statusCounts(m)} | ${bad}`;
    });
    return `| ${label} | ${cells.join(" | ")} |`;
  });
  const head = `| call | ${runs.map((r) => `${r.db}: requests | statuses | offending`).join(" | ")} |`;
  const sep = `|---|${runs.map(() => "---:|---|---:").join("|")}|`;
  return [head, sep, ...lines].join("\n");
}

async function main() {
  const m = machine();
  const startedAt = new Date().toISOString();
  const command = `npm run bench:fuzz -- ${process.argv.slice(2).join(" ")}`.trim();
  const runs: DbRun[] = [];
  for (const db of dbs) runs.push(await fuzzOne(db));

  console.log(perRouteTable(runs));
  const offenders = runs.flatMap((r) => r.run.offenders.map((o) => ({ db: r.db, ...o })));
  if (offenders.length) {
    console.log(`\n## offenders (${offenders.length})\n`);
    for (const o of offenders)
      console.log(
        `- ${o.db} ${o.problem === String(o.status) ? o.status : `${o.status} (${o.problem})`}: ${describeFuzzRequest(o.request, 2000)}\n  answer: ${o.answer}`,
      );
  }
  const five = (r: DbRun) => r.run.offenders.filter((o) => o.status >= 500).length;
  const nonConforming = (r: DbRun) => r.run.offenders.filter((o) => o.status < 500).length;
  console.log(`
### Error contract fuzz (RELIABILITY.md §15), ${startedAt.slice(0, 10)}

\`${command}\` (seed ${seed}, ${concurrency} requests at a time)
Machine: nproc ${m.nproc}, ${m.cpuModel}, ${m.memGiB} GiB, node ${m.node}, PGlite ${m.pglite}; load average ${m.loadavg} at start, ${loadAvg()} at end.

| database | calls fuzzed | requests | seconds | 5xx | outside the envelope | statuses |
|---|---:|---:|---:|---:|---:|---|
${runs.map((r) => `| ${r.db} | ${r.operations} + /connect/token | ${r.run.sent} | ${r.run.seconds.toFixed(0)} | ${five(r)} | ${nonConforming(r)} | ${statusCounts(r.run.statuses)} |`).join("\n")}

Target: 0 and 0 on both databases, ≥ 10,000 requests each.`);
  const file = join(benchDataDir, `fuzz-${startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        startedAt,
        command,
        seed,
        machine: m,
        runs: runs.map((r) => ({
          db: r.db,
          operations: r.operations,
          sent: r.run.sent,
          seconds: r.run.seconds,
          statuses: Object.fromEntries(r.run.statuses),
          perRoute: Object.fromEntries([...r.run.perRoute].map(([k, v]) => [k, Object.fromEntries(v)])),
          offenders: r.run.offenders,
        })),
      },
      null,
      2,
    ),
  );
  console.log(`\nraw figures: ${file}`);
  if (offenders.length) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
