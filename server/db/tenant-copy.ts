// Copying a tenant's rows from one PostgreSQL database to another (issue 31: a tenant moved to its own database and
// back). Both ends are connections inside their own transactions as erp_host (every row, no tenant filter forgotten by
// the policy); the source is read through a cursor in chunks, each chunk sent as one JSON parameter and inserted by one
// statement (json_populate_recordset), so a table of any size costs a round trip per CHUNK rows, not per row. The
// tables are found in the database itself: every table with a tenant_id column is the tenant's (a table added later
// moves without a change here).
import type pg from "pg";

const CHUNK = 2000;

/** Rollups kept by triggers on insert (products → product_counts and tenant_product_days, listings →
 *  tenant_listing_days): copied after the rows that fire them, replacing what the triggers wrote on the way. */
const TRIGGER_KEPT = ["product_counts", "tenant_product_days", "tenant_listing_days"];

/** Host tables a tenant's calls read (categories, fees, currencies, settings, packages, picture sizes), copied whole to
 *  the tenant's database. Not tenants (its own row is handled apart), nor this router's table, nor the shared rate state. */
const NOT_REFERENCE = ["tenants", "tenant_databases", "meli_rate_buckets"];

type Client = pg.Client | pg.PoolClient;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function tablesOf(c: Client): Promise<{ name: string; tenantOwned: boolean }[]> {
  const r = await c.query<{ name: string; tenantOwned: boolean }>(`select c.relname as name,
      exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as "tenantOwned"
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`);
  return r.rows;
}

/** The tenant's tables, in copy order: those whose inserts fire rollup triggers before the rollups. */
async function tenantTablesOf(c: Client): Promise<string[]> {
  const owned = (await tablesOf(c)).filter((t) => t.tenantOwned).map((t) => t.name);
  return [...owned.filter((t) => !TRIGGER_KEPT.includes(t)), ...owned.filter((t) => TRIGGER_KEPT.includes(t))];
}

async function referenceTablesOf(c: Client): Promise<string[]> {
  return (await tablesOf(c)).filter((t) => !t.tenantOwned && !NOT_REFERENCE.includes(t.name)).map((t) => t.name);
}

/** Opens a transaction as erp_host (repeatable read for a source, so every table is read at one moment). */
export async function beginAsHost(c: Client, source = false): Promise<void> {
  await c.query(`begin${source ? " isolation level repeatable read" : ""}; select set_config('role', 'erp_host', true)`);
}

async function columnsOf(c: Client, table: string): Promise<string> {
  const r = await c.query<{ name: string }>(
    `select a.attname as name from pg_attribute a where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
      and a.attgenerated = '' order by a.attnum`,
    [ident(table)],
  );
  return r.rows.map((x) => ident(x.name)).join(", ");
}

/** Copies the rows of `table` matching `where` (SQL over the table as x, values inlined by the caller); answers how many. */
export async function copyRows(from: Client, to: Client, table: string, where: string): Promise<number> {
  const cols = await columnsOf(to, table);
  const cursor = `erp_copy_${table}`;
  await from.query(`declare ${ident(cursor)} no scroll cursor for select to_json(x)::text as j from ${ident(table)} x where ${where}`);
  let n = 0;
  for (;;) {
    const chunk = await from.query<{ j: string }>(`fetch ${CHUNK} from ${ident(cursor)}`);
    if (!chunk.rows.length) break;
    await to.query(
      `insert into ${ident(table)} (${cols}) overriding system value
        select ${cols} from json_populate_recordset(null::${ident(table)}, $1::json)`,
      [`[${chunk.rows.map((r) => r.j).join(",")}]`],
    );
    n += chunk.rows.length;
  }
  await from.query(`close ${ident(cursor)}`);
  return n;
}

const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function tenantWhere(tenantId: string): string {
  if (!guid.test(tenantId)) throw new Error("not a tenant id");
  return `x.tenant_id = '${tenantId}'::uuid`;
}

/** Deletes the tenant's rows of every tenant table (children and rollups last, as the triggers need). */
export async function deleteTenantRows(c: Client, tenantId: string): Promise<number> {
  let n = 0;
  for (const table of await tenantTablesOf(c)) {
    n += (await c.query(`delete from ${ident(table)} x where ${tenantWhere(tenantId)}`)).rowCount ?? 0;
  }
  return n;
}

/**
 * Copies every row of the tenant from `from` to `to`, replacing what `to` had of it; `onTable` hears each table done.
 * Answers the rows copied.
 */
export async function copyTenantRows(
  from: Client,
  to: Client,
  tenantId: string,
  onTable?: (done: number, total: number) => Promise<void>,
): Promise<number> {
  await deleteTenantRows(to, tenantId);
  const tables = await tenantTablesOf(to);
  let n = 0;
  for (const [i, table] of tables.entries()) {
    // What the triggers wrote while the rows above went in is replaced by the source's own rollup.
    if (TRIGGER_KEPT.includes(table)) await to.query(`delete from ${ident(table)} x where ${tenantWhere(tenantId)}`);
    n += await copyRows(from, to, table, tenantWhere(tenantId));
    await onTable?.(i + 1, tables.length);
  }
  return n;
}

/** Replaces `to`'s host reference tables with `from`'s. */
export async function copyReferenceTables(from: Client, to: Client): Promise<void> {
  for (const table of await referenceTablesOf(to)) {
    await to.query(`delete from ${ident(table)}`);
    await copyRows(from, to, table, "true");
  }
}

/** Moves `to`'s sequences at least as far as `from`'s (the wallet's entry numbers keep their order after a move). */
export async function catchUpSequences(from: Client, to: Client): Promise<void> {
  const read = `select sequencename as name, last_value as v from pg_sequences where schemaname = 'public' and last_value is not null`;
  await from.query("select set_config('role', 'none', true)");
  const source = (await from.query<{ name: string; v: number }>(read)).rows;
  await from.query("select set_config('role', 'erp_host', true)");
  await to.query("select set_config('role', 'none', true)");
  for (const s of source) {
    await to.query(
      `select setval($1::regclass, greatest($2::bigint, coalesce((select last_value from pg_sequences where schemaname = 'public' and sequencename = $3), 1)))`,
      [ident(s.name), s.v, s.name],
    );
  }
  await to.query("select set_config('role', 'erp_host', true)");
}
