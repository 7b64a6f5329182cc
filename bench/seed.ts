// Seeds one tenant with many sub-accounts in one set-based statement (INSERT … SELECT generate_series) with one
// precomputed password hash: seconds for 10,000 users, where 10,000 API calls would take minutes of scrypt.
import { sql } from "drizzle-orm";
import type { Database } from "../server/db/client.ts";
import { hashPassword } from "../server/modules/identity/passwords.ts";

/** Adds `count` sub-accounts bench1…benchN (password `password`) to the tenant named `tenantName`; answers its id. */
export async function seedSubUsers(database: Database, tenantName: string, count: number, password: string) {
  const hash = await hashPassword(password);
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
