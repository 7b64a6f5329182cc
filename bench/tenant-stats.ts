// GetTenantStatisticsInfo over 1,000 tenants and 1,000,000 products on PostgreSQL (issue 31): the call alone (p50 of
// requests one after the other over HTTP) against the same SQL replayed directly (bench/replay.ts), per scenario; and,
// beside them, what the same figures cost counted from the products and listings themselves (the rollups' reason).
//
//   npm run bench:tenant-stats                                       # 1,000 tenants × 1,000 products, 30 requests each
//   npm run bench:tenant-stats -- --tenants=1000 --per-tenant=1000 --alone=50 --keep
//
// A fresh database on --pg-url (dropped after unless --keep); the real server (`node scripts/start.mjs`) started once
// for its migrations, the host administrator and the demo tenant; then, on the owner connection with set-based SQL:
// tenants st1…stN, each with a main account copied from the demo's and one sub-account, 3 shop groups with a shop
// each, --per-tenant products (70 % the main account's, 5 % deleted) created on 20 active days of the last 180, 30 %
// as many published listings on the same days, and 5 % as many paid orders; the rollups fill through their triggers as
// the rows are inserted. VACUUM ANALYZE, then the server again, the host's token, and per scenario: the statements the
// service issues captured in this process inside the host's transaction shape (the server's answer checked equal to
// the service's), then --alone requests over HTTP and as many replays of the statements on one connection.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { accessToken } from "../e2e/app-process.ts";
import { HOST_TENANT_ID } from "../server/db/schema.ts";
import { hostAllScope, scopeStatement, setScope } from "../server/db/scope.ts";
import { sessionQuery } from "../server/http/session-user.ts";
import { getTenantStatisticsInfo } from "../server/modules/tenant-admin/statistics.ts";
import { getTenantStatisticsInfoQuery } from "#shared/contract/tenant-admin.ts";
import { loadAvg, machine } from "./measure.ts";
import { aloneHttp, aloneSql, capture, principalOf } from "./replay.ts";
import { BENCH_ADMIN_PASSWORD, benchDataDir, benchServer, serverOptions } from "./server.ts";

const { values: args } = parseArgs({
  options: {
    ...serverOptions,
    tenants: { type: "string", default: "1000" },
    "per-tenant": { type: "string", default: "1000" },
    alone: { type: "string", default: "30" },
  },
});

const TENANTS = Number(args.tenants);
const PER_TENANT = Number(args["per-tenant"]);
const log = (line: string) => console.error(line);
const f = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : "–");
const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.parse(today) - n * DAY_MS).toISOString().slice(0, 10);

/** The benchmark's tenants and their rows, each table in one statement per 100 tenants. */
async function seed(c: pg.Client, demoTenant: string) {
  const t0 = Date.now();
  const ms: Record<string, number> = {};
  const step = async (name: string, run: () => Promise<unknown>) => {
    const s = Date.now();
    await run();
    ms[name] = (ms[name] ?? 0) + (Date.now() - s);
  };
  await step("tenants", () =>
    c.query(
      `insert into tenants (id, name, normalized_name) select md5('stat-' || g)::uuid, 'st' || g, 'ST' || g from generate_series(1, $1) g`,
      [TENANTS],
    ),
  );
  const columns = (
    await c.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'users' and table_schema = current_schema() order by ordinal_position`,
    )
  ).rows.map((r) => r.column_name);
  const copy = (kind: "main" | "sub") =>
    columns.map((col) =>
      col === "tenant_id"
        ? "t.id"
        : col === "id"
          ? `md5('${kind}-' || t.id)::uuid`
          : col === "security_stamp"
            ? "gen_random_uuid()::text"
            : kind === "sub" && col === "user_name"
              ? "'bsub'"
              : kind === "sub" && col === "normalized_user_name"
                ? "'BSUB'"
                : kind === "sub" && col === "is_main_account"
                  ? "false"
                  : `u.${col}`,
    );
  for (const kind of ["main", "sub"] as const) {
    await step("users", () =>
      c.query(
        `insert into users (${columns.join(", ")}) select ${copy(kind).join(", ")} from users u, tenants t
         where u.tenant_id = (select id from tenants where name = $1) and u.is_main_account and t.name ~ '^st[0-9]+$'`,
        [demoTenant],
      ),
    );
  }
  await step("shops", async () => {
    await c.query(`insert into meli_account_groups (tenant_id, id, owner_id, cust_id, site_code, name, access_token, refresh_token, token_expires_at)
      select t.id, md5('group-' || t.id || '-' || s)::uuid, md5('main-' || t.id)::uuid, t.name || '-' || s, 'MLM', t.name || '-' || s, 'x', 'x', now()
      from tenants t, generate_series(0, 2) s where t.name ~ '^st[0-9]+$'`);
    await c.query(`insert into meli_accounts (tenant_id, id, group_id, owner_id, site, site_code, cust_id, name, currency)
      select g.tenant_id, md5('account-' || g.id)::uuid, g.id, g.owner_id, 1, 'MLM', g.cust_id, g.name, 'MXN' from meli_account_groups g
      where g.tenant_id in (select id from tenants where name ~ '^st[0-9]+$')`);
  });
  // A tenant's n-th active day: 20 of the last 180, different per tenant.
  const activeDay = (k: string) => `date_trunc('day', now()) - make_interval(days => ((t.n * 7 + (${k} % 20) * 9) % 180))`;
  for (let from = 1; from <= TENANTS; from += 100) {
    const to = Math.min(TENANTS, from + 99);
    const ts = `(select md5('stat-' || n)::uuid as id, n from generate_series(${from}, ${to}) n) t`;
    await step("products", () =>
      c.query(`insert into products (tenant_id, id, user_id, title, sku, price, creation_time, is_deleted, deletion_time)
        select t.id, gen_random_uuid(), case when g % 10 < 7 then md5('main-' || t.id)::uuid else md5('sub-' || t.id)::uuid end,
          jsonb_build_object('zh', '统计商品 ' || g), 'sku' || g, 10 + g % 90,
          ${activeDay("g")} + make_interval(secs => (g * 37) % 86400), g % 20 = 0,
          case when g % 20 = 0 then now() - interval '1 day' end
        from ${ts}, generate_series(1, ${PER_TENANT}) g`),
    );
    await step("listings", () =>
      c.query(`insert into listings (tenant_id, id, batch_id, account_group_id, account_id, user_id, site, item_id, status, creation_time)
        select t.id, gen_random_uuid(), md5('batch-' || t.id)::uuid, md5('group-' || t.id || '-' || (g % 3))::uuid,
          md5('account-' || md5('group-' || t.id || '-' || (g % 3))::uuid)::uuid, md5('main-' || t.id)::uuid, 1,
          'MLM' || t.n || 'x' || g, 3, ${activeDay("g")} + interval '1 hour'
        from ${ts}, generate_series(1, ${Math.round(PER_TENANT * 0.3)}) g`),
    );
    await step("orders", () =>
      c.query(`insert into orders (tenant_id, id, meli_order_id, account_group_id, account_id, user_id, site, currency, status, meli_status,
          total_amount, sale_fee, freight_fee, cost, profit, order_time)
        select t.id, gen_random_uuid(), t.n || '-' || g, md5('group-' || t.id || '-' || (g % 3))::uuid,
          md5('account-' || md5('group-' || t.id || '-' || (g % 3))::uuid)::uuid,
          case when g % 2 = 0 then md5('main-' || t.id)::uuid else md5('sub-' || t.id)::uuid end, 1, 'MXN', 2, 'paid',
          100 + g % 50, 0, 0, 0, 0, ${activeDay("g")} + interval '2 hours'
        from ${ts}, generate_series(1, ${Math.round(PER_TENANT * 0.05)}) g`),
    );
  }
  await step("vacuum analyze", () => c.query("vacuum analyze"));
  const counts = (
    await c.query<{ products: string; listings: string; productDays: string; listingDays: string }>(
      `select (select count(*) from products) as products, (select count(*) from listings) as listings,
        (select count(*) from tenant_product_days) as "productDays", (select count(*) from tenant_listing_days) as "listingDays"`,
    )
  ).rows[0];
  return { ms, totalMs: Date.now() - t0, counts };
}

type Scenario = { key: string; name: string; query: Record<string, string> };

const scenarios = (tenantId: string): Scenario[] => [
  { key: "all-30", name: "every tenant, last 30 days, first 100 by products", query: { MaxResultCount: "100" } },
  {
    key: "all-180",
    name: "every tenant, 180 days, first 100 by products",
    query: { StartDate: daysAgo(179), EndDate: today, MaxResultCount: "100" },
  },
  {
    key: "all-366",
    name: "every tenant, 366 days, a page of 1,000",
    query: { StartDate: daysAgo(365), EndDate: today, MaxResultCount: "1000" },
  },
  { key: "name", name: "name contains st1, 180 days", query: { TenantName: "st1", StartDate: daysAgo(179), MaxResultCount: "100" } },
  { key: "one", name: "one tenant with its users, 180 days", query: { TenantId: tenantId, StartDate: daysAgo(179) } },
];

/** The same figures counted from the rows themselves (no rollups): every tenant over 180 days. */
const rawCount = (from: string) => [
  {
    text: `select tenant_id, count(*) from products where creation_time >= $1::date group by tenant_id`,
    params: [from],
  },
  {
    text: `select tenant_id, count(*), count(distinct account_id) from listings
      where creation_time >= $1::date and item_id is not null and batch_id is not null group by tenant_id`,
    params: [from],
  },
  {
    text: `select to_char(creation_time at time zone 'UTC', 'YYYY-MM-DD'), count(*) from products where creation_time >= $1::date group by 1`,
    params: [from],
  },
];

async function main() {
  mkdirSync(benchDataDir, { recursive: true });
  const m = machine();
  const server = await benchServer("tenant-stats", "postgres", {
    pgUrl: args["pg-url"]!,
    logLevel: args["log-level"]!,
    keep: args.keep!,
    log,
  });
  const out: string[] = [];
  let client: pg.Client | undefined;
  let pool: pg.Pool | undefined;
  try {
    const first = await server.start();
    const demo = first.firstStart.demo;
    if (!demo) throw new Error(`no demo tenant printed:\n${first.stdout()}`);
    await server.stop();
    client = new pg.Client({ connectionString: server.pgUrl });
    await client.connect();
    const pgVersion = (await client.query<{ v: string }>("select version() as v")).rows[0].v;
    const loadBefore = loadAvg();
    log(`seeding ${TENANTS} tenants × ${PER_TENANT} products…`);
    const seeded = await seed(client, demo.tenant);
    log(`seeded in ${f(seeded.totalMs / 1000, 0)} s: ${JSON.stringify(seeded.counts)} ${JSON.stringify(seeded.ms)}`);
    const app = await server.start();
    const token = await accessToken(app.url, "admin", BENCH_ADMIN_PASSWORD);
    const principal = principalOf(token);
    // The host's calls run as erp_host across tenants: the transaction the server opens for them.
    const hostBegin = `begin; ${scopeStatement(hostAllScope)}; ${sessionQuery(principal)}`;
    pool = new pg.Pool({ connectionString: server.pgUrl, max: 2 });
    pool.on("error", () => {});
    const oneTenant = (await client.query<{ id: string }>(`select md5('stat-' || 1)::uuid as id`)).rows[0].id;
    const n = Number(args.alone);
    const rows: { name: string; tenants: number; http: number; sql: number; statements: number }[] = [];
    for (const sc of scenarios(oneTenant)) {
      // Opened as the server opens any call (its session check reads the host's own rows), then across tenants.
      const cap = await capture(client, HOST_TENANT_ID, principal, async (ctx) => {
        await setScope(ctx.tx, hostAllScope);
        return getTenantStatisticsInfo(ctx, getTenantStatisticsInfoQuery.parse(sc.query));
      });
      // The scope switch above stands in for the host's BEGIN, which the replay opens with instead.
      const statements = cap.statements.slice(1);
      const url = `${app.url}/api/Hosted/GetTenantStatisticsInfo?${new URLSearchParams(sc.query)}`;
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const answer = (await res.json()) as { result: unknown };
      if (res.status !== 200 || JSON.stringify(answer.result) !== JSON.stringify(cap.result))
        throw new Error(`${sc.name}: the server's answer (${res.status}) differs from the service's in this process`);
      const http = await aloneHttp(url, token, null, n);
      const direct = await aloneSql(pool, hostBegin, statements, n);
      const tenants = (cap.result as { tenants: { totalCount: number } }).tenants.totalCount;
      rows.push({ name: sc.name, tenants, http: http.p50, sql: direct.p50, statements: statements.length });
      log(`${sc.name}: HTTP p50 ${f(http.p50)} ms, SQL p50 ${f(direct.p50)} ms (${statements.length} statements)`);
    }
    const raw = await aloneSql(pool, hostBegin, rawCount(daysAgo(179)), Math.min(n, 10));
    log(`counted from the rows, every tenant over 180 days: p50 ${f(raw.p50)} ms`);
    const when = new Date().toISOString().slice(0, 16).replace("T", " ");
    out.push(
      `## Host statistics: GetTenantStatisticsInfo over ${TENANTS.toLocaleString("en")} tenants and ${Number(seeded.counts.products).toLocaleString("en")} products (issue 31) (${when} UTC)\n`,
    );
    out.push(
      `\`npm run bench:tenant-stats -- --tenants=${TENANTS} --per-tenant=${PER_TENANT} --alone=${n}\` — ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}; ${pgVersion.split(",")[0]}; load average before the seed ${loadBefore}, after the run ${loadAvg()}\n`,
    );
    out.push(
      `Seed: ${Number(seeded.counts.products).toLocaleString("en")} products, ${Number(seeded.counts.listings).toLocaleString("en")} published listings, 3 shops and 2 users a tenant; rollup rows ${seeded.counts.productDays} (products) and ${seeded.counts.listingDays} (listings), filled by the triggers as the rows went in (${Object.entries(
        seeded.ms,
      )
        .map(([k, v]) => `${k} ${f(v / 1000, 1)} s`)
        .join(", ")}).\n`,
    );
    out.push("| scenario | tenants matched | alone p50 HTTP (ms) | alone p50 SQL (ms) | HTTP / SQL | statements |");
    out.push("|---|---|---|---|---|---|");
    for (const r of rows) out.push(`| ${r.name} | ${r.tenants} | ${f(r.http)} | ${f(r.sql)} | ${f(r.http / r.sql)}× | ${r.statements} |`);
    out.push(
      `\nThe same figures counted from products and listings themselves (every tenant, 180 days, 3 grouped counts, no rollups): p50 ${f(raw.p50)} ms.`,
    );
    writeFileSync(join(benchDataDir, "tenant-stats.json"), JSON.stringify({ rows, raw, seeded }, null, 2));
  } finally {
    await pool?.end().catch(() => {});
    await client?.end().catch(() => {});
    await server.cleanup();
    console.log(out.join("\n") + "\n");
  }
}

await main();
