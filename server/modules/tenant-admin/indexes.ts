// CreateTenantMongoIndex, here: the big tables' indexes and statistics, and one tenant's kept counters. For each big
// table, the indexes the schema declares are looked up in the catalog: a missing one is created again from the
// migration that made it (its own statement, INCLUDE and WHERE as migrated), an invalid one (a failed concurrent
// build) is rebuilt, and the table is ANALYZEd so the planner's estimates are fresh. With a tenant, the counters that
// writers and triggers keep for it are counted again and corrected: live products per owner (product_counts, read by
// the product limit and the list totals) and the tenant's sub-account count. The statistics rollups are histories of
// events (products purged since still count), so they are reported, never recounted. Index builds and ANALYZE run as
// the tables' owner (the app's role owns nothing), inside the call's transaction: a missing index's build holds writes
// on its table until the call ends, which is what a repair of a broken table should do.
import { readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { rowsOf, type Tx } from "../../db/client.ts";
import {
  aquiredUrls,
  collections,
  collectTasks,
  listings,
  meliCallLogs,
  orderItems,
  orders,
  productCounts,
  products,
  publishBatches,
  taskInfos,
  tenantListingDays,
  tenantProductDays,
} from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import type { CreateTenantMongoIndexResult } from "#shared/contract/tenant-admin.ts";

const BIG_TABLES: PgTable[] = [
  products,
  productCounts,
  collections,
  collectTasks,
  aquiredUrls,
  listings,
  publishBatches,
  orders,
  orderItems,
  meliCallLogs,
  taskInfos,
  tenantProductDays,
  tenantListingDays,
];

const migrationsDir = new URL("../../db/migrations/", import.meta.url);
let definitions: Map<string, string> | null = null;

/** Each index's CREATE statement as the migrations last wrote it, by index name. */
function indexDefinitions(): Map<string, string> {
  if (definitions) return definitions;
  const out = new Map<string, string>();
  const files = readdirSync(migrationsDir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  for (const file of files) {
    const text = readFileSync(new URL(file, migrationsDir), "utf8");
    for (const statement of text.split("--> statement-breakpoint")) {
      const body = statement.replace(/^\s*--.*$/gm, "").trim();
      const m = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([A-Za-z0-9_]+)"?\s+ON\s/i.exec(body);
      if (m) out.set(m[1], body.replace(/;\s*$/, ""));
    }
  }
  definitions = out;
  return out;
}

type TableCheck = CreateTenantMongoIndexResult["tables"][number];

/** Runs `fn` as the login role that owns the tables, then returns to the call's role. */
async function asOwner<T>(tx: Tx, fn: () => Promise<T>): Promise<T> {
  const [{ role }] = rowsOf<{ role: string }>(await tx.execute(sql`select current_setting('role') as role`));
  await tx.execute(sql`select set_config('role', 'none', true)`);
  try {
    return await fn();
  } finally {
    await tx.execute(sql`select set_config('role', ${role}, true)`);
  }
}

async function checkTable(tx: Tx, table: PgTable): Promise<TableCheck> {
  const config = getTableConfig(table);
  const expected = config.indexes.map((i) => i.config.name).filter((n): n is string => !!n);
  const present = rowsOf<{ name: string; valid: boolean }>(
    await tx.execute(sql`select c.relname as name, i.indisvalid as valid from pg_index i
      join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and t.relname = ${config.name}`),
  );
  const byName = new Map(present.map((p) => [p.name, p.valid]));
  const missing = expected.filter((n) => !byName.has(n));
  const recreated: string[] = [];
  const reindexed: string[] = [];
  for (const name of missing) {
    const statement = indexDefinitions().get(name);
    if (!statement) continue;
    await tx.execute(sql.raw(statement));
    recreated.push(name);
  }
  for (const p of present) {
    if (p.valid) continue;
    await tx.execute(sql`reindex index ${sql.identifier(p.name)}`);
    reindexed.push(p.name);
  }
  await tx.execute(sql`analyze ${sql.identifier(config.name)}`);
  const [stats] = rowsOf<{ rows: number }>(
    await tx.execute(sql`select greatest(reltuples, 0)::float8 as rows from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relname = ${config.name}`),
  );
  return {
    table: config.name,
    rows: Math.round(Number(stats?.rows ?? 0)),
    indexes: expected.length - missing.length + recreated.length,
    missing: missing.filter((n) => !recreated.includes(n)),
    recreated,
    reindexed,
  };
}

/** product_counts against a count of the tenant's live products per owner; wrong or missing rows are set right. */
async function fixProductCounts(tx: Tx, tenantId: string) {
  const [r] = rowsOf<{ checked: number; fixed: number }>(
    await tx.execute(sql`with actual as (
        select user_id, count(*)::int as n from products where tenant_id = ${tenantId}::uuid and is_deleted = false group by user_id
      ), kept as (
        select user_id, count from product_counts where tenant_id = ${tenantId}::uuid
      ), compared as (
        select coalesce(a.user_id, k.user_id) as user_id, coalesce(a.n, 0) as n, coalesce(k.count, 0) as kept
        from actual a full join kept k on k.user_id = a.user_id
      ), fixed as (
        insert into product_counts as c (tenant_id, user_id, count)
        select ${tenantId}::uuid, user_id, n from compared where n <> kept
        on conflict (tenant_id, user_id) do update set count = excluded.count returning 1
      )
      select (select count(*) from compared)::int as checked, (select count(*) from fixed)::int as fixed`),
  );
  return { name: "product_counts（每个用户的在售商品数）", checked: Number(r?.checked ?? 0), fixed: Number(r?.fixed ?? 0) };
}

async function fixSubAccountCount(tx: Tx, tenantId: string) {
  const [r] = rowsOf<{ fixed: number }>(
    await tx.execute(sql`with actual as (
        select count(*)::int as n from users where tenant_id = ${tenantId}::uuid
          and is_main_account = false and is_host = false and is_deleted = false
      ), fixed as (
        update tenants t set sub_account_count = actual.n from actual
        where t.id = ${tenantId}::uuid and t.sub_account_count <> actual.n returning 1
      )
      select (select count(*) from fixed)::int as fixed`),
  );
  return { name: "sub_account_count（子账号数）", checked: 1, fixed: Number(r?.fixed ?? 0) };
}

export async function createTenantMongoIndex(
  ctx: CallContext,
  tenant: Promise<{ id: string; name: string }> | null,
): Promise<CreateTenantMongoIndexResult> {
  const target = tenant ? await tenant : null;
  const tables = await asOwner(ctx.tx, async () => {
    const out: TableCheck[] = [];
    for (const table of BIG_TABLES) out.push(await checkTable(ctx.tx, table));
    return out;
  });
  const counters = target ? [await fixProductCounts(ctx.tx, target.id), await fixSubAccountCount(ctx.tx, target.id)] : [];
  const messages = tables.map((t) => {
    const parts = [`${t.table}：${t.indexes} 个索引正常，约 ${t.rows} 行，统计信息已更新`];
    if (t.recreated.length) parts.push(`已重建缺失的索引 ${t.recreated.join("、")}`);
    if (t.reindexed.length) parts.push(`已重建无效的索引 ${t.reindexed.join("、")}`);
    if (t.missing.length) parts.push(`缺少索引 ${t.missing.join("、")}（迁移中找不到其定义）`);
    return parts.join("；");
  });
  for (const c of counters) messages.push(`${target!.name} 的 ${c.name}：检查 ${c.checked} 项，修正 ${c.fixed} 项`);
  return { tables, counters, messages };
}
