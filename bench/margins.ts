// The margin recompute after a rate change (issue 32), PostgreSQL: 1,000,000 listings of one tenant on Mexico priced
// from yuan; the host's peso rate moves, and the recompute job's handler (listings/margin-job.ts runMarginJob: every
// tenant, its listings in primary-key ranges of MARGIN_CHUNK per transaction, only the rows whose margin moved written,
// then the automatic repricing's look for shops that turned it on) is timed against one bare UPDATE computing the same
// expression (margin-sql.ts marginSelect) over every listing in one statement, in the same run, alternating, each after
// its own rate change so that every row moves. Both run as the server runs them (role erp_app in the tenant's scope).
//
//   npm run bench:margins -- [--pg-url=postgres://root@127.0.0.1:5432/test] [--listings=1000000] [--rounds=2] [--keep]
//
// A fresh database on --pg-url (dropped after unless --keep), migrated; one tenant with a main account, 4 shops, 2,000
// products priced in CNY, 50 leaf categories with fees (half with cached listing_prices rows, fixed fee under 299),
// then the listings in one set-based statement, VACUUM ANALYZE and a first computation of every margin. Prints a
// markdown table; writes it as JSON into bench/.data/margins.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import { createFreshPostgresDatabase, repoRoot } from "../e2e/app-process.ts";
import { migratePostgres, openDatabase } from "../server/db/client.ts";
import { inScope } from "../server/db/scope.ts";
import type { Jobs } from "../server/jobs/queue.ts";
import { createMarginService, MARGIN_CHUNK } from "../server/modules/listings/margin-job.ts";
import { marginSelect } from "../server/modules/listings/margin-sql.ts";
import { sql } from "drizzle-orm";
import { loadAvg, machine } from "./measure.ts";

const { values: args } = parseArgs({
  options: {
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
    listings: { type: "string", default: "1000000" },
    rounds: { type: "string", default: "2" },
    keep: { type: "boolean", default: false },
  },
});
const LISTINGS = Number(args.listings);
const outDir = join(repoRoot, "bench", ".data");
const log = (line: string) => console.error(line);
const seconds = (t0: number) => (performance.now() - t0) / 1000;
const TENANT = "6d1a0b1e-0000-4000-8000-000000000001";
const USER = "6d1a0b1e-0000-4000-8000-000000000002";
const GROUP = "6d1a0b1e-0000-4000-8000-000000000003";

async function seed(c: pg.Client) {
  const q = (text: string, values: unknown[] = []) => c.query(text, values);
  await q(`insert into currencies (id, code, zh, rate) values (gen_random_uuid(), 'CNY', '人民币', 1),
    (gen_random_uuid(), 'MXN', '墨西哥比索', 0.38), (gen_random_uuid(), 'USD', '美元', 7.1) on conflict (code) do nothing`);
  await q(`insert into tenants (id, name, normalized_name) values ($1, 'margins', 'MARGINS')`, [TENANT]);
  await q(
    `insert into users (tenant_id, id, user_name, normalized_user_name, password_hash, security_stamp, is_main_account)
     values ($1, $2, 'boss', 'BOSS', 'x', gen_random_uuid()::text, true)`,
    [TENANT, USER],
  );
  await q(
    `insert into meli_account_groups (tenant_id, id, owner_id, cust_id, site_code, name, access_token, refresh_token, token_expires_at)
     values ($1, $2, $3, '1', 'MLM', 'BENCH', 'x', 'x', now() + interval '1 day')`,
    [TENANT, GROUP, USER],
  );
  await q(
    `insert into meli_accounts (tenant_id, id, group_id, owner_id, site, site_code, cust_id, name, currency, adjust_rate, min_margin)
     select $1, md5('shop' || g)::uuid, $2, $3, 1, 'MLM', g::text, 'SHOP' || g, 'MXN', 1.6, 10 from generate_series(1, 1) g`,
    [TENANT, GROUP, USER],
  );
  await q(
    `insert into meli_categories (site, cate_id, level, name, is_leaf, full_name, path_name, classic_fee, premium_fee)
     select 1, 'MLMB' || g, 1, 'Cat ' || g, true, 'Cat ' || g, 'MLMB' || g, 13 + g % 5, 17 + g % 5 from generate_series(1, 50) g`,
  );
  await q(`insert into meli_listing_fees (site, cate_id, listing_type, percentage_fee, fixed_fee, fixed_fee_under, listing_fee, currency)
     select 1, 'MLMB' || g, 'gold_special', 14 + g % 3, 25, 299, 0, 'MXN' from generate_series(1, 25) g`);
  await q(
    `insert into products (tenant_id, id, user_id, price, currency)
     select $1, md5('product' || g)::uuid, $2, 10 + (g % 300) + 0.37, 'CNY' from generate_series(1, 2000) g`,
    [TENANT, USER],
  );
  // Each listing priced by the formula's breakdown shape (price, currency, margin; a freight on every tenth).
  await q(
    `insert into listings (tenant_id, id, account_group_id, account_id, user_id, product_id, site, item_id, cate_id, status,
       price, currency, listing_type, price_content, creation_time)
     select $1, md5('listing' || g)::uuid, $2, md5('shop' || (1 + g % 1))::uuid, $3, md5('product' || (1 + g % 2000))::uuid, 1,
       'MLM' || (100000000 + g), 'MLMB' || (1 + g % 50), 2, 80 + (g % 900) + 0.99, 'MXN', 'gold_special',
       jsonb_build_object('price', (80 + (g % 900)) * 100 + 99, 'currency', 'MXN', 'margin', 1000 + g % 5000,
         'freight', case when g % 10 = 0 then 4500 else 0 end),
       now() - make_interval(secs => g)
     from generate_series(1, $4) g`,
    [TENANT, GROUP, USER, LISTINGS],
  );
  await q("vacuum analyze");
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const pgDatabase = await createFreshPostgresDatabase(args["pg-url"]!, "erp_bench_margins");
  const client = new pg.Client({ connectionString: pgDatabase.url });
  try {
    await migratePostgres(pgDatabase.url);
    const database = await openDatabase({ kind: "postgres", url: pgDatabase.url, poolSize: 2 });
    await client.connect();
    let t0 = performance.now();
    await seed(client);
    log(`seeded ${LISTINGS} listings in ${seconds(t0).toFixed(1)} s`);
    const noJobs = {} as Jobs;
    const service = createMarginService({
      database,
      jobs: noJobs,
      log: { info: () => {} } as unknown as FastifyBaseLogger,
      startBatch: () => Promise.reject(new Error("no shop reprices automatically in this benchmark")),
    });
    t0 = performance.now();
    await service.runMarginJob({ reason: "rate", currency: "CNY" });
    log(`first computation of every margin: ${seconds(t0).toFixed(1)} s`);
    const setRate = (rate: string) => client.query(`update currencies set rate = $1 where code = 'MXN'`, [rate]);
    const counted = async () =>
      (await client.query<{ n: number }>(`select count(*)::int as n from listings where margin_at is not null`)).rows[0].n;
    const bare = sql`update listings t set margin_priced = x.margin_priced, margin_now = x.margin, margin_now_percent = x.pct,
        margin_level = x.level, margin_at = coalesce(t.margin_at, now())
      from (${marginSelect(sql`l.tenant_id = ${TENANT}`)}) x where t.tenant_id = x.tenant_id and t.id = x.id`;
    const runs: { round: number; job: number; bare: number }[] = [];
    let rate = 0.38;
    for (let round = 1; round <= Number(args.rounds); round++) {
      rate += 0.01;
      await setRate(rate.toFixed(4));
      t0 = performance.now();
      await service.runMarginJob({ reason: "rate", currency: "MXN" });
      const job = seconds(t0);
      rate += 0.01;
      await setRate(rate.toFixed(4));
      t0 = performance.now();
      await inScope(database.db, { tenantId: TENANT }, (tx) => tx.execute(bare));
      const bareS = seconds(t0);
      runs.push({ round, job, bare: bareS });
      log(`round ${round}: job ${job.toFixed(2)} s, bare UPDATE ${bareS.toFixed(2)} s, ratio ${(job / bareS).toFixed(2)}`);
    }
    if ((await counted()) !== LISTINGS) throw new Error("not every listing has its margin stored");
    await database.close();
    const m = machine();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    const job = median(runs.map((r) => r.job));
    const bareMedian = median(runs.map((r) => r.bare));
    const pgVersion = (await client.query<{ v: string }>("select version() as v")).rows[0].v;
    console.log(`| listings | job (s) | bare UPDATE (s) | job ÷ bare |\n|---|---|---|---|`);
    for (const r of runs)
      console.log(`| ${LISTINGS} (round ${r.round}) | ${r.job.toFixed(2)} | ${r.bare.toFixed(2)} | ${(r.job / r.bare).toFixed(2)} |`);
    console.log(`| median | ${job.toFixed(2)} | ${bareMedian.toFixed(2)} | ${(job / bareMedian).toFixed(2)} |`);
    console.log(
      `\nchunk ${MARGIN_CHUNK} listings; ${m.nproc} cores ${m.cpuModel}, ${m.memGiB} GiB, node ${m.node}, ${pgVersion}; load ${loadAvg()}`,
    );
    writeFileSync(
      join(outDir, "margins.json"),
      JSON.stringify({ listings: LISTINGS, chunk: MARGIN_CHUNK, runs, machine: m, pgVersion }, null, 2),
    );
  } finally {
    await client.end().catch(() => {});
    if (!args.keep) await pgDatabase.drop();
  }
}

await main();
