// Listing batch benchmark (issue 16): BatchUpdatePriceDirect over N listings of one sandbox seller whose rate limit is
// R calls a minute. Does the batch keep the seller's bucket full (achieved rate ≥ 95 % of R) without going over it (no
// sliding minute with more than R calls), without losing or doubling an update, and does a second identical batch
// skip every listing (0 marketplace calls)?
//
//   npm run bench:listing-batch                              # 10,000 listings, R = 1,200/min, PGlite (~17 min a run)
//   npm run bench:listing-batch -- --listings=10000 --rate=1200 --runs=one,split --pg-url=postgres://root@127.0.0.1:5432/test
//
// Runs (e2e/publish-rig.ts: the sandbox as its own process, a recording tap between the app and the sandbox):
//   one    the app as one process on PGlite (what `npm start` runs);
//   split  on a fresh PostgreSQL database (dropped after): ROLE=api and two ROLE=worker processes sharing the seller's
//          bucket (meli_rate_buckets).
// R: the app's own bucket per seller is fixed in code (1,180 a minute + a burst of 20, server/integrations/mercadolibre/
// client.ts), so R = 1,200 is the only limit the batch can fill without going over: a larger R cannot be reached (the
// share of R falls), a smaller one is over-run (429s). Each listing costs 2 calls (PUT, then the re-read), so 10,000
// listings take ~17 minutes at R = 1,200; --listings makes a shorter run.
// Seeding is cheap: the items are created in the sandbox directly (its own API with a second token of the seller, the
// seller's limit lifted meanwhile, not through the tap) and the listing rows by the app's import (PullMarketStat); the
// limit R is set and the tap's record cleared after that. Prints the machine and a markdown table.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { callApi, createFreshPostgresDatabase, freePort } from "../e2e/app-process.ts";
import {
  appEnv,
  maxInWindow,
  prepareSeller,
  sellerCalls,
  sellerToken,
  sleep,
  startSandboxProcess,
  startServer,
  startTap,
  type Proc,
  type Seller,
  type TapCall,
} from "../e2e/publish-rig.ts";
import { createSandbox } from "../server/sandbox/sandbox.ts";
import { itemBody, plainLeaf } from "../server/testing/sandbox-kit.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import type { BatchEditState } from "#shared/contract/listing-edits.ts";
import { cpuMeter, loadAvg, machine } from "./measure.ts";

const { values: args } = parseArgs({
  options: {
    listings: { type: "string", default: "10000" },
    rate: { type: "string", default: "1200" },
    runs: { type: "string", default: "one" },
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
  },
});
const count = Number(args.listings);
const R = Number(args.rate);
const log = (line: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${line}`);
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");
const NICKNAME = "BATCHSELLER";
const UNLIMITED = 1_000_000;

type TaskView = { id: string; taskStatus: number; taskRemark: string | null; content: string };

/** Polls the task until it ends (Succeeded or Failed). */
async function finished(s: Seller, taskId: string, type: number, timeoutMs: number): Promise<TaskView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const page = await callApi<{ items: TaskView[] }>(
      s.url,
      s.token,
      "GET",
      `/api/TaskInfo/GetTaskInfoByPage?TaskType=${type}&MaxResultCount=20`,
    );
    const t = page.items.find((x) => x.id === taskId);
    if (t && (t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed)) return t;
    if (Date.now() > until) throw new Error(`task ${taskId} did not end: ${JSON.stringify(t)}`);
    await sleep(1000);
  }
}

/** The shop group's listings as the list shows them. */
async function listingRows(s: Seller): Promise<{ itemId: string | null; price: number | null }[]> {
  const out: { itemId: string | null; price: number | null }[] = [];
  for (let skip = 0; ; skip += 1000) {
    const page = await callApi<{ items: { itemId: string | null; price: number | null }[] }>(
      s.url,
      s.token,
      "POST",
      "/api/MeliStat/GetMeliStatsByPage",
      { accountGroupId: s.groupId, skipCount: skip, maxResultCount: 1000 },
    );
    out.push(...page.items);
    if (page.items.length < 1000) return out;
  }
}

async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

type Result = {
  run: string;
  calls: number;
  spanS: number;
  batchS: number;
  perMinute: number;
  maxMinute: number;
  r429: number;
  task: string;
  lostItems: number;
  lostRows: number;
  doubled: number;
  unput: number;
  secondCalls: number;
  secondS: number;
  secondTask: string;
  cpu: string;
};

async function run(name: "one" | "split"): Promise<Result> {
  const sandbox = await startSandboxProcess();
  const tap = await startTap(sandbox.url);
  const dataDir = mkdtempSync(join(tmpdir(), "erp-bench-listing-batch-"));
  const database = name === "split" ? await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_batch") : null;
  const procs: Proc[] = [];
  try {
    const env = appEnv({ dataDir, databaseUrl: database?.url, apiUrl: tap.url, sandboxUrl: sandbox.url, port: await freePort() });
    const api = await startServer(env, name === "split" ? "api" : "all");
    procs.push(api);
    if (name === "split") procs.push(await startServer(env, "worker"), await startServer(env, "worker"));
    const seller = await prepareSeller(api, sandbox, { nickname: NICKNAME, products: [] });
    // A second token of the seller for seeding and checking the sandbox directly (the app's access token stays valid).
    const direct = await sellerToken(seller.url, seller.token, { nickname: NICKNAME, site: "MLM" });
    const sandboxCall = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${direct.api}${path}`, {
        method,
        headers: { authorization: `Bearer ${direct.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text) as T;
    };

    log(`[${name}] creating ${count} items in the sandbox…`);
    await sandbox.ctl("POST", "rate-limit", { sellerId: seller.sellerId, perMinute: UNLIMITED, perAppPerMinute: UNLIMITED });
    const leaf = plainLeaf(createSandbox(), "MLM");
    const itemIds: string[] = [];
    await pool(
      Array.from({ length: count }, (_, i) => i + 1),
      8,
      async (n) => {
        const item = await sandboxCall<{ id: string }>(
          "POST",
          "/items",
          itemBody(leaf, { title: `Lámpara LED lote ${n}`, seller_custom_field: `BATCH-${n}` }),
        );
        itemIds.push(item.id);
      },
    );
    const oldPrice = leaf.minimumPrice * 10;
    const newPrice = oldPrice + 11;

    log(`[${name}] importing them (PullMarketStat)…`);
    const pull = await callApi<{ taskId: string }>(seller.url, seller.token, "POST", "/api/MeliStat/PullMarketStat", {
      accountGroupId: seller.groupId,
    });
    const pulled = await finished(seller, pull.taskId, TaskType.SyncListings, 20 * 60_000);
    log(`[${name}] import: ${pulled.taskRemark}`);
    const before = await listingRows(seller);
    if (before.length !== count || before.some((r) => r.price !== oldPrice))
      throw new Error(`import: ${before.length} rows, ${before.filter((r) => r.price !== oldPrice).length} not at ${oldPrice}`);

    await sandbox.ctl("POST", "rate-limit", { sellerId: seller.sellerId, perMinute: R, perAppPerMinute: 30_000 });
    await sleep(1000);
    tap.calls.length = 0;
    const cpu = procs.map((p) => cpuMeter(p.child.pid));
    log(`[${name}] BatchUpdatePriceDirect ${oldPrice} → ${newPrice} over ${count} listings (limit ${R}/min)…`);
    const started = performance.now();
    const batch = () =>
      callApi<{ taskId: string; total: number }>(seller.url, seller.token, "POST", "/api/MeliStat/BatchUpdatePriceDirect", {
        filter: { accountGroupId: seller.groupId },
        price: newPrice,
      });
    const first = await batch();
    const done = await finished(seller, first.taskId, TaskType.BatchUpdateListings, 60 * 60_000);
    const batchS = (performance.now() - started) / 1000;
    const used = cpu.map((stop) => stop());
    const cpuText = [
      ...used.map((c, i) => `${i === 0 ? (name === "split" ? "api" : "app") : `worker ${i}`} ${f(c.processCpuPct, 0)} %`),
      `machine ${f(used[0].machineBusyPct, 0)} % busy`,
    ];
    log(`[${name}] first batch: ${done.taskRemark} in ${f(batchS)} s`);
    const calls: TapCall[] = sellerCalls(tap.calls).sort((a, b) => a.start - b.start);
    const spanS = (calls[calls.length - 1].start - calls[0].start) / 1000;
    // Each item's accepted PUTs (the tap sees no body: every PUT of this batch sets the one new price).
    const puts = new Map<string, number>();
    for (const c of calls) {
      if (c.method === "PUT" && c.status < 300) puts.set(c.path, (puts.get(c.path) ?? 0) + 1);
    }
    const doubled = [...puts.values()].filter((n) => n > 1).length;
    const unput = itemIds.filter((id) => !puts.has(`/items/${id}`)).length;

    log(`[${name}] second identical batch…`);
    tap.calls.length = 0;
    const started2 = performance.now();
    const second = await batch();
    const done2 = await finished(seller, second.taskId, TaskType.BatchUpdateListings, 30 * 60_000);
    const secondS = (performance.now() - started2) / 1000;
    const secondCalls = sellerCalls(tap.calls).length;

    // What Mercado Libre holds (multiget, 20 ids a call, directly) and what the list shows.
    await sandbox.ctl("POST", "rate-limit", { sellerId: seller.sellerId, perMinute: UNLIMITED });
    let lostItems = 0;
    for (let i = 0; i < itemIds.length; i += 20) {
      const got = await sandboxCall<{ code: number; body: { price?: number } }[]>(
        "GET",
        `/items?ids=${itemIds.slice(i, i + 20).join(",")}&attributes=id,price`,
      );
      lostItems += got.filter((g) => g.code !== 200 || g.body.price !== newPrice).length;
    }
    const after = await listingRows(seller);
    const lostRows = count - after.filter((r) => r.price === newPrice).length;
    const state = (t: TaskView) => {
      const s = JSON.parse(t.content) as BatchEditState;
      return `${s.done} done / ${s.refused} refused / ${s.skipped} skipped`;
    };
    return {
      run: name === "split" ? "PostgreSQL, api + 2 workers" : "PGlite, one process",
      calls: calls.length,
      spanS,
      batchS,
      perMinute: (calls.length / spanS) * 60,
      maxMinute: maxInWindow(calls, 60_000),
      r429: calls.filter((c) => c.status === 429).length,
      task: state(done),
      lostItems,
      lostRows,
      doubled,
      unput,
      secondCalls,
      secondS,
      secondTask: state(done2),
      cpu: cpuText.join(", "),
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

console.log(
  `\nMachine: ${m.nproc} CPUs (${m.cpuModel}), ${m.memGiB} GiB, Node ${m.node}, PGlite ${m.pglite}; load before ${m.loadavg}, after ${loadAvg()}`,
);
console.log(`Command: npm run bench:listing-batch -- --listings=${count} --rate=${R} --runs=${args.runs}\n`);
console.log(
  "| run | first batch: task | seller calls | span (batch) | calls per minute / R | share of R | most calls in any minute / R | 429s | items not at the new price / rows not at it | items PUT twice / never | second batch: task | second batch: seller calls (time) | CPU (first batch) |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  console.log(
    `| ${r.run} | ${r.task} | ${r.calls} | ${f(r.spanS)} s (${f(r.batchS)} s) | ${f(r.perMinute, 0)} / ${R} | ${f((r.perMinute / R) * 100)} % | ${r.maxMinute} / ${R} | ${r.r429} | ${r.lostItems} / ${r.lostRows} | ${r.doubled} / ${r.unput} | ${r.secondTask} | ${r.secondCalls} (${f(r.secondS)} s) | ${r.cpu} |`,
  );
}
