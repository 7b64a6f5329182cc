// Seeds one tenant with many sub-accounts in one set-based statement (INSERT … SELECT generate_series) with one
// precomputed password hash: seconds for 10,000 users, where 10,000 API calls would take minutes of scrypt.
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database } from "../server/db/client.ts";
import { createPasswordHasher } from "../server/modules/identity/passwords.ts";

/** Adds `count` sub-accounts bench1…benchN (password `password`) to the tenant named `tenantName`; answers its id. */
export async function seedSubUsers(database: Database, tenantName: string, count: number, password: string) {
  const hash = await createPasswordHasher().hash(password);
  const started = Date.now();
  const tenantId = await database.db.transaction(async (tx) => {
    const found = (await tx.execute(sql`select id from tenants where normalized_name = upper(${tenantName})`)) as unknown as {
      rows: { id: string }[];
    };
    const tenant = found.rows[0];
    if (!tenant) throw new Error(`tenant ${tenantName} not found`);
    // The owner connection (a superuser here) inserts outside the tenant policy.
    await tx.execute(sql`
      insert into users (tenant_id, id, user_name, normalized_user_name, email, normalized_email, password_hash,
                         security_stamp, is_main_account, remark, creation_time)
      select ${tenant.id}::uuid, gen_random_uuid(), 'bench' || g, 'BENCH' || g, 'bench' || g || '@example.com',
             'BENCH' || g || '@EXAMPLE.COM', ${hash}, gen_random_uuid()::text, false, 'seeded ' || g,
             now() - make_interval(secs => ${count} - g)
      from generate_series(1, ${count}) as g`);
    // Keep the tenant's sub-account counter true, as insertUser does for one user.
    await tx.execute(sql`update tenants set sub_account_count = sub_account_count + ${count} where id = ${tenant.id}::uuid`);
    return tenant.id;
  });
  await database.db.execute(sql`analyze users`);
  return { tenantId, ms: Date.now() - started };
}

/** Shop group k's id and its account on site s, as SQL expressions of k and s (deterministic, md5 based). */
export const groupIdSql = (k: string) => `md5('group-' || (${k}))::uuid`;
export const accountIdSql = (k: string, s: string) => `md5('account-' || (${k}) || '-' || (${s}))::uuid`;

/**
 * The list benchmarks' tenant (the one named `tenantName`): 2 sub-accounts (bench1, bench2, password `subPassword`)
 * and 12 shop groups (10 local, 2 cross-border) of 4 sites each, bench1 owning group 0's site 2. Answers the tenant's
 * id and its main account's and bench1's user ids.
 */
export async function seedShopTenant(url: string, tenantName: string, subPassword: string) {
  const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
  const { tenantId } = await seedSubUsers(database, tenantName, 2, subPassword);
  await database.close();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const users = (
      await c.query<{ id: string; user_name: string; is_main_account: boolean }>(
        `select id, user_name, is_main_account from users where tenant_id = $1 and (is_main_account or user_name = 'bench1')`,
        [tenantId],
      )
    ).rows;
    const main = users.find((u) => u.is_main_account)!.id;
    const sub = users.find((u) => u.user_name === "bench1")!.id;
    const T = `'${tenantId}'::uuid`;
    await c.query(`insert into meli_account_groups (tenant_id, id, owner_id, cust_id, site_code, is_cbt, name, sites, access_token, refresh_token, token_expires_at)
      select ${T}, ${groupIdSql("k")}, '${main}', 'cust-' || k, case when k >= 10 then 'CBT' else 'MLM' end, k >= 10,
        case when k >= 10 then '跨境店' else '本地店' end || k, '[1,2,3,4]', 'x', 'x', now() + interval '1 day'
      from generate_series(0, 11) k`);
    await c.query(`insert into meli_accounts (tenant_id, id, group_id, owner_id, site, site_code, cust_id, is_cbt, name, currency)
      select ${T}, ${accountIdSql("k", "s")}, ${groupIdSql("k")}, case when k = 0 and s = 2 then '${sub}'::uuid else '${main}'::uuid end,
        s, (array['MLM','MLB','MLC','MCO'])[s], 'site-' || k || '-' || s, k >= 10, 'shop ' || k || '-' || s,
        (array['MXN','BRL','CLP','COP'])[s]
      from generate_series(0, 11) k, generate_series(1, 4) s`);
    return { tenantId, main, sub };
  } finally {
    await c.end();
  }
}

/**
 * Drops the tables' secondary indexes (every index but the primary keys) before a bulk insert, which is much faster
 * than keeping them up row by row; `rebuild` builds them again as they were and answers how many and how long.
 */
export async function dropSecondaryIndexes(c: pg.Client, tables: string[]) {
  const idx = (
    await c.query<{ indexname: string; indexdef: string }>(
      `select i.indexname, i.indexdef from pg_indexes i
       where i.schemaname = current_schema() and i.tablename = any($1)
         and not exists (select 1 from pg_constraint k where k.conname = i.indexname and k.contype = 'p')`,
      [tables],
    )
  ).rows;
  for (const i of idx) await c.query(`drop index ${i.indexname}`);
  return {
    /** Builds the indexes again, then VACUUM ANALYZE of the seeded tables (and `alsoSeeded`) and ANALYZE of the shops. */
    async rebuild(alsoSeeded: string[] = []) {
      let t = Date.now();
      for (const i of idx) await c.query(i.indexdef);
      const ms = Date.now() - t;
      t = Date.now();
      for (const table of [...tables, ...alsoSeeded]) await c.query(`vacuum analyze ${table}`);
      await c.query("analyze meli_accounts; analyze meli_account_groups; analyze users");
      return { count: idx.length, ms, vacuumMs: Date.now() - t };
    },
  };
}
