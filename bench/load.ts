// Load (RELIABILITY.md scenarios 16 and 17, issue 29): N connections for D seconds on a mix of reads and writes across
// every area, two tenants of P products each, against the real server process on PGlite and on PostgreSQL; then the
// data checks; then one tenant's large work against the other tenant's reads.
//
//   npm run bench:load                                        # both databases: 100 connections, 60 s, 2 × 100,000 products
//   npm run bench:load -- --db=pglite --products=5000 --connections=10 --duration=10 --stall-seconds=5
//   npm run bench:load -- --db=postgres --pg-url=postgres://root@127.0.0.1:5432/test --pool-size=20
//
// Set-up, per database: the Mercado Libre sandbox as its own process (e2e/publish-rig.ts); the server's first start
// (the demo tenant is tenant A); as a seller does it (prepareSeller): the host syncs Mexico's categories, A connects a
// sandbox seller, fills its GTIN pool and creates --tags × 4 publishable products, each tag's published once (the
// listings the mix edits); --orders paid orders made in the sandbox and pulled (FetchOrders). The server stopped (PGlite
// has one owner), tenant B added, both tenants' products seeded set-based (bench/product-seed.ts), each wallet opened
// with one host adjustment (balance = its ledger's sum), the server started again.
//
// The mix (each call its own clients, every latency kept, so p50/p99 are exact; a share of --connections each, at
// least one; the calls that reach Mercado Libre at a bounded rate): A's product list, product detail, bulk price edit
// of 5 products (each its own Idempotency-Key: its own edit and undo record), collect (the extension's
// CrawlProductByPlugin, a new source item each), publish of one tag's products to the sandbox shop, a listing's price
// edit (UpdateMarketPrice), order list, wallet log list, a one-fen payment; B's product list and detail. Any answer but
// 2xx, any socket error or timeout is an error (target 0).
//
// After the mix (the publish jobs settled): counts (product_counts equals the products per owner, in both tenants),
// an undo record with one backup per product for each bulk edit answered, each wallet's balance equal to the sum of
// its ledger and the payments answered written once each, no product listed twice on one shop and site, no item id
// on two listings, no item created twice in the sandbox for one key.
// Then "one tenant never stalls another" (scenario 17): B's GetMyInfo (and /health) for --stall-seconds alone, then
// while A runs a price edit of all its products (a task) and a publish of --stall-publish products by filter: B's p99
// during / alone (target ≤ 2).
// Prints the machine and a markdown block for bench/RESULTS.md; writes the raw figures as JSON into bench/.data/.
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { accessToken, callApi, until } from "../e2e/app-process.ts";
import {
  ADMIN_PASSWORD,
  listingsOf,
  mlmCategory,
  prepareSeller,
  publishTagged,
  sandboxEnv,
  startSandboxProcess,
  waitForBatch,
  type SandboxProcess,
  type Seller,
} from "../e2e/publish-rig.ts";
import { rowsOf, type Database } from "../server/db/client.ts";
import { hostAllScope, inScope } from "../server/db/scope.ts";
import { insertTenantWithMainAccount } from "../server/modules/identity/users.ts";
import { createPasswordHasher } from "../server/modules/identity/passwords.ts";
import { collectedItem } from "../server/testing/product-kit.ts";
import { ListingStatus, TaskStatus, TaskType, WalletLogType } from "#shared/contract/enums.ts";
import { cpuMeter, loadAvg, machine, stats } from "./measure.ts";
import { seedProducts } from "./product-seed.ts";
import { benchDataDir, benchServer, databasesOf, serverOptions, type BenchServer } from "./server.ts";

const { values: args } = parseArgs({
  options: {
    ...serverOptions,
    products: { type: "string", default: "100000" },
    connections: { type: "string", default: "100" },
    duration: { type: "string", default: "60" },
    warmup: { type: "string", default: "3" },
    tags: { type: "string", default: "10" },
    orders: { type: "string", default: "200" },
    "stall-seconds": { type: "string", default: "20" },
    "stall-publish": { type: "string", default: "10000" },
    "pool-size": { type: "string" },
    /** A V8 CPU profile of the server for the measured part (the mix and the stall phases), into bench/.data/prof. */
    "cpu-prof": { type: "boolean", default: false },
  },
});
const dbs = databasesOf(args.db);
const productCount = Number(args.products);
const connections = Number(args.connections);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const tagCount = Number(args.tags);
const orderCount = Number(args.orders);
const stallSeconds = Number(args["stall-seconds"]);
const stallPublish = Number(args["stall-publish"]);
const SUB_PASSWORD = "Bench-Sub-1";
const TENANT_B = "loadb";
const TENANT_B_PASSWORD = "Bench-B-1";
const PRODUCTS_PER_TAG = 4;
/** Each wallet's opening balance: more than the payments of any run (one fen each). */
const OPENING_FEN = 100_000_000;
/** An answer not in within this is a timeout (an error). */
const TIMEOUT_MS = 30_000;
const log = (line: string) => console.error(line);
const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");
const tagOf = (k: number) => `ld${String(k).padStart(3, "0")}q`;

// ---------------------------------------------------------------------------------------------------------------
// The clients.

type Req = { method: "GET" | "POST"; path: string; body?: unknown; key?: true };
type Client = {
  name: string;
  /** Share of --connections (at least one connection). */
  share: number;
  /** Requests a second over all its connections (the calls that reach Mercado Libre). */
  rate?: number;
  token: () => string;
  next: () => Req;
};
type Measured = {
  name: string;
  connections: number;
  n: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  errors: number;
  statuses: Record<string, number>;
  /** The first few failed answers, for the reader. */
  failures: string[];
};

/** One request over a kept-alive connection of `agent`: its status and body. */
function send(agent: Agent, base: string, token: string, r: Req): Promise<{ status: number; body: string }> {
  const body = r.body === undefined ? undefined : JSON.stringify(r.body);
  const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
  if (body !== undefined) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  if (r.key) headers["idempotency-key"] = randomUUID();
  return new Promise((resolve) => {
    const req = request(base + r.path, { method: r.method, agent, headers, timeout: TIMEOUT_MS }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
      res.on("error", (e) => resolve({ status: 0, body: String(e) }));
    });
    req.on("timeout", () => req.destroy(new Error(`no answer in ${TIMEOUT_MS} ms`)));
    req.on("error", (e) => resolve({ status: 0, body: String(e) }));
    req.end(body);
  });
}

/** The clients together for `seconds`; each call's every latency kept. */
async function runClients(base: string, clients: Client[], seconds: number, total = connections): Promise<Measured[]> {
  const end = performance.now() + seconds * 1000;
  return Promise.all(
    clients.map(async (c) => {
      const conns = Math.max(1, Math.round(total * c.share));
      const agent = new Agent({ keepAlive: true, maxSockets: conns });
      const lat: number[] = [];
      const statuses: Record<string, number> = {};
      const failures: string[] = [];
      let slot = performance.now();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: conns }, async () => {
          for (;;) {
            if (c.rate) {
              const at = slot;
              slot = Math.max(slot, performance.now()) + 1000 / c.rate;
              if (at > performance.now()) await new Promise((r) => setTimeout(r, at - performance.now()));
            }
            if (performance.now() >= end) return;
            const r = c.next();
            const t0 = performance.now();
            const res = await send(agent, base, c.token(), r);
            lat.push(performance.now() - t0);
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
            if ((res.status < 200 || res.status >= 300) && failures.length < 5)
              failures.push(`${r.method} ${r.path} → ${res.status} ${res.body.slice(0, 300)}`);
          }
        }),
      );
      agent.destroy();
      const wall = (performance.now() - started) / 1000;
      const ok = Object.entries(statuses)
        .filter(([s]) => Number(s) >= 200 && Number(s) < 300)
        .reduce((a, [, n]) => a + n, 0);
      const s = stats(lat);
      return {
        name: c.name,
        connections: conns,
        n: s.n,
        rps: s.n / wall,
        p50: s.p50,
        p99: s.p99,
        max: s.max,
        ok,
        errors: s.n - ok,
        statuses,
        failures,
      };
    }),
  );
}

type Setup = {
  url: string;
  tokenA: string;
  tokenB: string;
  seller: Seller;
  detailA: string[];
  detailB: string[];
  listingIds: string[];
};

function mix(s: Setup): Client[] {
  let i = 0;
  const pick = <T>(xs: T[]) => xs[i++ % xs.length];
  const A = () => s.tokenA;
  const B = () => s.tokenB;
  const list = { maxResultCount: 20, skipCount: 0 };
  const { cateId, attrs } = mlmCategory();
  let collected = 0;
  const run = Date.now().toString(36);
  return [
    { name: "A product list", share: 0.2, token: A, next: () => ({ method: "POST", path: "/api/Product/GetProductsByPage", body: list }) },
    {
      name: "A product detail",
      share: 0.12,
      token: A,
      next: () => ({ method: "GET", path: `/api/Product/GetProductById?id=${pick(s.detailA)}` }),
    },
    {
      name: "A bulk price edit (5 products)",
      share: 0.08,
      token: A,
      next: () => {
        const from = (i++ * 5) % Math.max(1, s.detailA.length - 5);
        return {
          method: "POST",
          path: "/api/Product/BatchUpdateProductPrice",
          body: { ids: s.detailA.slice(from, from + 5), rate: 1, price: 0.01 },
          key: true,
        };
      },
    },
    {
      name: "A collect (CrawlProductByPlugin)",
      share: 0.08,
      token: A,
      next: () => {
        const itemId = `${run}${++collected}`;
        return {
          method: "POST",
          path: "/api/Collect/CrawlProductByPlugin",
          body: collectedItem(itemId, `压测采集商品 ${itemId}`),
        };
      },
    },
    {
      name: "A publish (one tag, sandbox)",
      share: 0.02,
      rate: 2,
      token: A,
      next: () => ({
        method: "POST",
        path: "/api/MeliStatNew/Publish",
        body: {
          accountGroupId: s.seller.groupId,
          sites: [1],
          filter: { title: tagOf(i++ % tagCount) },
          maxProductCount: PRODUCTS_PER_TAG,
          cateInfo: [{ site: 1, cateId, attrs }],
        },
        key: true,
      }),
    },
    {
      name: "A listing price edit (sandbox, UpdateMarketPrice)",
      share: 0.03,
      rate: 5,
      token: A,
      next: () => ({
        method: "POST",
        path: "/api/MeliStat/UpdateMarketPrice",
        body: { id: pick(s.listingIds), price: 100 + (i++ % 50) },
      }),
    },
    { name: "A order list", share: 0.1, token: A, next: () => ({ method: "GET", path: "/api/Order/GetOrders?MaxResultCount=20" }) },
    {
      name: "A wallet log list",
      share: 0.1,
      token: A,
      next: () => ({ method: "GET", path: "/api/WalletLog/GetWalletLogs?MaxResultCount=20" }),
    },
    {
      name: "A payment (one fen)",
      share: 0.05,
      token: A,
      next: () => ({ method: "GET", path: "/api/WalletLog/Payment?money=0.01&remark=bench-load", key: true }),
    },
    { name: "B product list", share: 0.12, token: B, next: () => ({ method: "POST", path: "/api/Product/GetProductsByPage", body: list }) },
    {
      name: "B product detail",
      share: 0.1,
      token: B,
      next: () => ({ method: "GET", path: `/api/Product/GetProductById?id=${pick(s.detailB)}` }),
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Set-up.

/** A's shop, publishable products (each tag published once: the listings the mix edits) and orders, through the API. */
async function prepareTenantA(url: string, stdout: () => string, sandbox: SandboxProcess) {
  const proc = { url, output: stdout } as Parameters<typeof prepareSeller>[0];
  const tags = Array.from({ length: tagCount }, (_, k) => ({ tag: tagOf(k), count: PRODUCTS_PER_TAG }));
  const seller = await prepareSeller(proc, sandbox, { nickname: "LOADSELLER", products: tags });
  const listingIds: string[] = [];
  for (const { tag } of tags) {
    const batch = await publishTagged(seller, tag, PRODUCTS_PER_TAG);
    await waitForBatch(seller, batch.id, 120_000, 200);
    for (const l of await listingsOf(seller, batch.id)) if (l.status === ListingStatus.Active) listingIds.push(l.id);
  }
  if (!listingIds.length) throw new Error("no listing went live in the set-up");
  for (let k = 0; k < orderCount; k++) await sandbox.ctl("POST", "orders", { sellerId: seller.sellerId, status: "paid" });
  const { taskId } = await callApi<{ taskId: string }>(url, seller.token, "GET", `/api/Order/FetchOrders?GroupId=${seller.groupId}`);
  await taskEnded(url, seller.token, TaskType.SyncOrders, taskId, 300_000);
  return { seller, listingIds };
}

type TaskView = { id: string; taskStatus: number; taskRemark: string | null };

async function taskEnded(url: string, token: string, type: number, taskId: string, timeoutMs: number): Promise<TaskView> {
  return until(
    `task ${taskId}`,
    async () => {
      const page = await callApi<{ items: TaskView[] }>(
        url,
        token,
        "GET",
        `/api/TaskInfo/GetTaskInfoByPage?TaskType=${type}&MaxResultCount=50`,
      );
      return page.items.find((t) => t.id === taskId) ?? null;
    },
    (t) => t?.taskStatus === TaskStatus.Succeeded || t?.taskStatus === TaskStatus.Failed,
    timeoutMs,
  ) as Promise<TaskView>;
}

const one = async <T>(database: Database, q: ReturnType<typeof sql>) =>
  rowsOf<T>(await inScope(database.db, hostAllScope, (tx) => tx.execute(q)));

/** Tenant B, both tenants' products, both wallets opened; answers the ids the mix reads. */
async function seedTenants(server: BenchServer, tenantA: string) {
  const database = await server.openDatabase();
  try {
    await inScope(database.db, hostAllScope, (tx) =>
      insertTenantWithMainAccount(tx, { tenantName: TENANT_B, userName: "boss", pwd: TENANT_B_PASSWORD }, createPasswordHasher()),
    );
    for (const tenantName of [tenantA, TENANT_B]) {
      const seed = await seedProducts(database, { tenantName, count: productCount, subPassword: SUB_PASSWORD });
      log(`[load ${server.db}] seeded ${seed.products} products in ${tenantName}: ${seed.ms.total} ms`);
    }
    // One host adjustment each: the opening balance is its ledger's sum.
    await one(
      database,
      sql`with t as (update tenants set balance_fen = balance_fen + ${OPENING_FEN}, balance = (balance_fen + ${OPENING_FEN}) / 100.0
          where name in (${tenantA}, ${TENANT_B}) returning id, balance_fen)
        insert into wallet_logs (tenant_id, id, type, amount_fen, balance_after_fen, remark)
        select id, gen_random_uuid(), ${WalletLogType.HostAdjust}, ${OPENING_FEN}, balance_fen, 'bench opening balance' from t`,
    );
    const sample = async (tenant: string) =>
      (
        await one<{ id: string }>(
          database,
          sql`select p.id from products p join tenants t on t.id = p.tenant_id where t.name = ${tenant} and p.source_url like 'https://item.example.com/%' order by p.id limit 1000`,
        )
      ).map((r) => r.id);
    return { detailA: await sample(tenantA), detailB: await sample(TENANT_B) };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The data checks.

type Checks = Record<string, { value: number; ok: boolean; what: string }>;

async function dataChecks(
  server: BenchServer,
  tenants: string[],
  since: Date,
  answered: { bulkEdits: number; payments: number },
  sandbox: SandboxProcess,
): Promise<Checks> {
  const database = await server.openDatabase();
  try {
    const ids = sql.join(
      tenants.map((t) => sql`${t}`),
      sql`, `,
    );
    const [counts] = await one<{ bad: number }>(
      database,
      sql`with live as (select p.tenant_id, p.user_id, count(*)::int as n from products p join tenants t on t.id = p.tenant_id
            where t.name in (${ids}) and not p.is_deleted group by 1, 2)
          select count(*)::int as bad from live full join (select c.* from product_counts c join tenants t on t.id = c.tenant_id where t.name in (${ids})) c
            using (tenant_id, user_id) where coalesce(live.n, 0) <> coalesce(c.count, 0)`,
    );
    const [edits] = await one<{ edits: number; missing: number }>(
      database,
      sql`select count(*)::int as edits, (count(*) filter (where e.row_count <> (select count(*) from product_edit_backups b
            where b.tenant_id = e.tenant_id and b.edit_id = e.id)))::int as missing
          from product_edits e join tenants t on t.id = e.tenant_id
          where t.name in (${ids}) and e.kind = 'BatchUpdateProductPrice' and e.creation_time >= ${since.toISOString()}::timestamptz and e.row_count = 5`,
    );
    const [ledger] = await one<{ drift: number; payments: number }>(
      database,
      sql`select (count(*) filter (where t.balance_fen <> s.total))::int as drift, coalesce(sum(s.payments), 0)::int as payments
          from tenants t join (select tenant_id, sum(amount_fen) as total, count(*) filter (where remark = 'bench-load') as payments
            from wallet_logs group by tenant_id) s on s.tenant_id = t.id
          where t.name in (${ids})`,
    );
    const [dupes] = await one<{ listed: number; items: number }>(
      database,
      sql`select (select count(*) from (select 1 from listings l join tenants t on t.id = l.tenant_id
                where t.name in (${ids}) and l.batch_id is not null and l.product_id is not null and not l.duplicate_allowed
                  and l.status in (1, 2, 3, 4, 6) group by l.tenant_id, l.product_id, l.account_group_id, l.site having count(*) > 1) x)::int as listed,
             (select count(*) from (select 1 from listings l join tenants t on t.id = l.tenant_id
                where t.name in (${ids}) and l.item_id is not null group by l.tenant_id, l.item_id having count(*) > 1) y)::int as items`,
    );
    const sandboxDupes = (await sandbox.creations()).duplicates.length;
    return {
      counts: { value: counts.bad, ok: counts.bad === 0, what: "owners whose product_counts differs from their products" },
      undo: {
        value: edits.edits,
        ok: edits.edits === answered.bulkEdits && edits.missing === 0,
        what: `bulk edit records of 5 products (answered 2xx: ${answered.bulkEdits}; without a backup per product: ${edits.missing})`,
      },
      ledger: { value: ledger.drift, ok: ledger.drift === 0, what: "wallets whose balance differs from their ledger's sum" },
      payments: {
        value: ledger.payments,
        ok: ledger.payments === answered.payments,
        what: `one-fen payments in the ledger (answered 2xx: ${answered.payments})`,
      },
      listed: { value: dupes.listed, ok: dupes.listed === 0, what: "products listed twice on one shop and site" },
      items: { value: dupes.items, ok: dupes.items === 0, what: "item ids on two listings" },
      sandbox: { value: sandboxDupes, ok: sandboxDupes === 0, what: "items the sandbox created twice for one key" },
    };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

type StallPhase = { work: string; answers: string; during: Measured[]; ratio: number; healthRatio: number };
type Stall = { alone: Measured[]; phases: StallPhase[] };
type DbResult = {
  db: string;
  setupS: number;
  measured: Measured[];
  totalRps: number;
  errors: number;
  cpu: { wall: number; processCpuPct: number; machineBusyPct: number };
  checks: Checks;
  stall: Stall;
};

async function loadOne(db: "pglite" | "postgres"): Promise<DbResult> {
  const t0 = performance.now();
  const sandbox = await startSandboxProcess();
  const server = await benchServer("load", db, {
    pgUrl: args["pg-url"]!,
    logLevel: args["log-level"]!,
    keep: args.keep!,
    env: { ...sandboxEnv(sandbox.url), ADMIN_PASSWORD, DB_POOL_SIZE: args["pool-size"], LOGIN_RATE_LIMIT_PER_MINUTE: "1000000" },
    log,
  });
  try {
    let app = await server.start();
    const demo = app.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${app.stdout()}`);
    log(`[load ${db}] preparing A's shop, ${tagCount * PRODUCTS_PER_TAG} publishable products and ${orderCount} orders…`);
    const { seller, listingIds } = await prepareTenantA(app.url, () => app.stdout(), sandbox);
    await server.stop();
    const { detailA, detailB } = await seedTenants(server, demo.tenant);
    app = await server.start(args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${join(benchDataDir, "prof")}`] : []);
    const tokenA = await accessToken(app.url, demo.user, demo.password, demo.tenant);
    const setup: Setup = {
      url: app.url,
      tokenA,
      tokenB: await accessToken(app.url, "boss", TENANT_B_PASSWORD, TENANT_B),
      seller: { ...seller, url: app.url, token: tokenA },
      detailA,
      detailB,
      listingIds,
    };
    const setupS = (performance.now() - t0) / 1000;
    log(`[load ${db}] set up in ${f(setupS, 0)} s; warm-up ${warmup} s, then ${connections} connections for ${duration} s`);
    const clients = mix(setup);
    const reads = clients.filter((c) => !c.rate && !/edit|collect|payment/.test(c.name));
    if (warmup > 0) await runClients(app.url, reads, warmup);
    const since = new Date();
    const meter = cpuMeter(app.child.pid);
    const measured = await runClients(app.url, clients, duration);
    const cpu = meter();
    for (const m of measured) log(`[load ${db}] ${m.name}: ${f(m.rps)} req/s, p50 ${f(m.p50)} ms, p99 ${f(m.p99)} ms, errors ${m.errors}`);
    // The publish jobs the mix queued finish before the checks and before the stall run's "alone".
    await workSettled(setup);
    const stall = await stallRun(setup, seller.groupId);
    await server.stop();
    const count = (name: string) => measured.find((m) => m.name.startsWith(name))!.ok;
    const checks = await dataChecks(
      server,
      [demo.tenant, TENANT_B],
      since,
      { bulkEdits: count("A bulk price edit"), payments: count("A payment") },
      sandbox,
    );
    const totalRps = measured.reduce((a, m) => a + m.rps, 0);
    return { db, setupS, measured, totalRps, errors: measured.reduce((a, m) => a + m.errors, 0), cpu, checks, stall };
  } finally {
    await server.cleanup();
    await sandbox.proc.kill();
  }
}

/** B's GetMyInfo and /health alone, then while A edits every product's price (a task) and publishes by filter. */
async function stallRun(s: Setup, groupId: string): Promise<Stall> {
  const probes: Client[] = [
    { name: "B GetMyInfo", share: 1, token: () => s.tokenB, next: () => ({ method: "GET", path: "/api/User/GetMyInfo" }) },
    { name: "/health", share: 1, token: () => s.tokenB, next: () => ({ method: "GET", path: "/health" }) },
  ];
  const alone = await runClients(s.url, probes, stallSeconds, 1);
  const { cateId, attrs } = mlmCategory();
  const post = (path: string, body: unknown) =>
    send(new Agent({ keepAlive: false }), s.url, s.tokenA, { method: "POST", path, body, key: true }).then(
      (r) => `${path.split("/").pop()} ${r.status}`,
    );
  const edit = () => post("/api/Product/BatchUpdateProductPrice", { filter: {}, rate: 1, price: 0.01 });
  const publish = () =>
    post("/api/MeliStat/Publish", {
      accountGroupId: groupId,
      sites: [1],
      filter: {},
      maxProductCount: stallPublish,
      cateInfo: [{ site: 1, cateId, attrs }],
    });
  const works: { work: string; start: () => Promise<string>[] }[] = [
    { work: `a price edit of all ${productCount.toLocaleString("en")} products (a task)`, start: () => [edit()] },
    { work: `a publish of up to ${stallPublish.toLocaleString("en")} products by filter`, start: () => [publish()] },
    { work: "both at once", start: () => [edit(), publish()] },
  ];
  const p99 = (ms: Measured[], name: string) => ms.find((m) => m.name === name)!.p99;
  const phases: StallPhase[] = [];
  for (const w of works) {
    // A's work starts with the probes (the calls' planning is part of it) and has ended before the next phase.
    const [during, answers] = await Promise.all([runClients(s.url, probes, stallSeconds, 1), Promise.all(w.start())]);
    await workSettled(s);
    phases.push({
      work: w.work,
      answers: answers.join(", "),
      during,
      ratio: p99(during, "B GetMyInfo") / p99(alone, "B GetMyInfo"),
      healthRatio: p99(during, "/health") / p99(alone, "/health"),
    });
    log(`[load] B's GetMyInfo p99 during ${w.work}: ${f(p99(during, "B GetMyInfo"))} ms, alone ${f(p99(alone, "B GetMyInfo"))} ms`);
  }
  return { alone, phases };
}

/** Until A has no publish batch unfinished and no bulk edit task pending or running. */
async function workSettled(s: Setup) {
  await until(
    "A's publishes and bulk edits settled",
    // A server too busy to answer (503 ServiceBusy, its admission limit) is asked again, not a failed run.
    () => openWork(s).catch((err: Error) => (/: 503 /.test(err.message) ? -1 : Promise.reject(err))),
    (open) => open === 0,
    900_000,
  );
}

/** A's publish batches not yet ended and bulk edit tasks pending or running. */
async function openWork(s: Setup): Promise<number> {
  const batches = await callApi<{ items: { total: number; success: number; fail: number; skipped: number }[] }>(
    s.url,
    s.tokenA,
    "POST",
    "/api/MeliStatNew/GetPublishBatchesByPage",
    { maxResultCount: 1000 },
  );
  const tasks = await callApi<{ items: TaskView[] }>(
    s.url,
    s.tokenA,
    "GET",
    `/api/TaskInfo/GetTaskInfoByPage?TaskType=${TaskType.BulkEditProducts}&MaxResultCount=50`,
  );
  return (
    batches.items.filter((b) => b.success + b.fail + b.skipped < b.total).length +
    tasks.items.filter((t) => t.taskStatus === TaskStatus.Pending || t.taskStatus === TaskStatus.Running).length
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The report.

function report(r: DbResult): string {
  const rows = r.measured.map(
    (m) =>
      `| ${m.name} | ${m.connections} | ${m.n} | ${f(m.rps)} | ${f(m.p50)} | ${f(m.p99)} | ${f(m.max, 0)} | ${m.errors}${
        m.errors
          ? ` (${Object.entries(m.statuses)
              .filter(([k]) => !k.startsWith("2"))
              .map(([k, v]) => `${k}×${v}`)
              .join(" ")})`
          : ""
      } |`,
  );
  const checks = Object.entries(r.checks).map(([k, c]) => `| ${k} | ${c.what} | ${c.value} | ${c.ok ? "yes" : "**NO**"} |`);
  const probe = (name: string) => {
    const a = r.stall.alone.find((m) => m.name === name)!;
    return r.stall.phases.map((p) => {
      const d = p.during.find((m) => m.name === name)!;
      return `| ${name} | ${p.work} (${p.answers}) | ${f(a.p50)} | ${f(a.p99)} | ${f(d.p50)} | ${f(d.p99)} | ${f(d.p99 / a.p99, 2)} | ${a.errors + d.errors} |`;
    });
  };
  const failures = r.measured.flatMap((m) => m.failures.map((x) => `- ${m.name}: ${x}`));
  return `#### ${r.db}: ${f(r.totalRps, 0)} requests/s in all, ${r.errors} errors (target 0); server CPU ${f(r.cpu.processCpuPct, 0)} %, machine busy ${f(r.cpu.machineBusyPct, 0)} %; set-up ${f(r.setupS, 0)} s

| call | connections | requests | req/s | p50 ms | p99 ms | max ms | errors |
|---|---:|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}
${failures.length ? `\nFirst failures:\n${failures.join("\n")}\n` : ""}
After the run:

| check | what | found | holds |
|---|---|---:|---|
${checks.join("\n")}

One tenant never stalls another (scenario 17): B's calls, one connection each, ${stallSeconds} s alone, then ${stallSeconds} s from the start of each piece of A's work:

| B's call | during A's | alone p50 ms | alone p99 ms | during p50 ms | during p99 ms | p99 during / alone (target ≤ 2) | errors |
|---|---|---:|---:|---:|---:|---:|---:|
${[...probe("B GetMyInfo"), ...probe("/health")].join("\n")}`;
}

async function main() {
  const m = machine();
  const startedAt = new Date().toISOString();
  const command = `npm run bench:load -- ${process.argv.slice(2).join(" ")}`.trim();
  const results: DbResult[] = [];
  for (const db of dbs) results.push(await loadOne(db));
  console.log(`### Load (RELIABILITY.md §16, §17), ${startedAt.slice(0, 10)}

\`${command}\`: ${connections} connections for ${duration} s (after ${warmup} s of reads), two tenants of ${productCount.toLocaleString("en")} products each.
Machine: nproc ${m.nproc}, ${m.cpuModel}, ${m.memGiB} GiB, node ${m.node}, PGlite ${m.pglite}; load average ${m.loadavg} at start, ${loadAvg()} at end.

${results.map(report).join("\n\n")}`);
  const file = join(benchDataDir, `load-${startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ startedAt, command, machine: m, args, results }, null, 2));
  console.log(`\nraw figures: ${file}`);
  const failed = results.some((r) => r.errors > 0 || Object.values(r.checks).some((c) => !c.ok));
  if (failed) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
