// RELIABILITY.md scenario 7, Citus readiness: every tenant-owned table (a table in public with a tenant_id column) can
// be distributed by tenant_id: its primary key starts with tenant_id, every unique index and unique constraint holds
// tenant_id, and every foreign key between tenant tables carries tenant_id on both sides. Read from the catalogue, so
// tables added by later migrations are checked too.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { globalTables, rowsOf, tenantTables } from "../testing/security-kit.ts";

let s: TestServer;
let tables: string[];
const report: string[] = [];

type IndexRow = {
  table_name: string;
  index_name: string;
  is_primary: boolean;
  is_unique: boolean;
  columns: string[] | string;
  partial: boolean;
};

const asList = (v: string[] | string): string[] =>
  Array.isArray(v)
    ? v
    : String(v)
        .replace(/^\{|\}$/g, "")
        .split(",")
        .filter(Boolean);

beforeAll(async () => {
  s = await startTestServer();
  tables = await tenantTables(s.database.db);
});
afterAll(async () => {
  console.log("[security] Citus readiness\n  " + report.join("\n  "));
  await s?.close();
});

async function indexes(): Promise<IndexRow[]> {
  return rowsOf<IndexRow>(
    await s.database.db.execute(sql`
      select t.relname as table_name, ic.relname as index_name, i.indisprimary as is_primary, i.indisunique as is_unique,
             i.indpred is not null as partial,
             array(select coalesce(a.attname, '(expression)') from unnest(i.indkey::int2[]) with ordinality k(attnum, ord)
                   left join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.ord)::text[] as columns
      from pg_index i
      join pg_class t on t.oid = i.indrelid
      join pg_class ic on ic.oid = i.indexrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public'`),
  );
}

describe("Citus readiness (scenario 7)", () => {
  it("finds the tenant tables", () => {
    expect(tables).toEqual(expect.arrayContaining(["users", "user_sessions", "task_infos"]));
  });

  it("gives every tenant table a primary key that starts with tenant_id and tenant_id in every unique index", async () => {
    const all = await indexes();
    const problems: string[] = [];
    for (const t of tables) {
      const mine = all.filter((i) => i.table_name === t);
      const pk = mine.find((i) => i.is_primary);
      if (!pk) problems.push(`${t}: no primary key`);
      else if (asList(pk.columns)[0] !== "tenant_id")
        problems.push(`${t}: primary key (${asList(pk.columns).join(", ")}) does not start with tenant_id`);
      for (const u of mine.filter((i) => i.is_unique && !i.is_primary)) {
        if (!asList(u.columns).includes("tenant_id"))
          problems.push(`${t}: unique index ${u.index_name} (${asList(u.columns).join(", ")}) lacks tenant_id`);
      }
    }
    const bad = [...new Set(problems.map((p) => p.split(":")[0]))];
    report.push(`tenant tables: ${tables.length} (${tables.join(", ")})`);
    report.push(`non-compliant tables: ${bad.length}${problems.length ? " — " + problems.join("; ") : ""}`);
    expect(problems).toEqual([]);
  });

  it("keeps tenant_id in every foreign key between tenant tables (Citus co-location)", async () => {
    const fks = rowsOf<{ table_name: string; ref_table: string; name: string; cols: string[] | string; ref_cols: string[] | string }>(
      await s.database.db.execute(sql`
        select t.relname as table_name, r.relname as ref_table, c.conname as name,
               array(select a.attname from unnest(c.conkey) k(n) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n)::text[] as cols,
               array(select a.attname from unnest(c.confkey) k(n) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n)::text[] as ref_cols
        from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class r on r.oid = c.confrelid
        join pg_namespace n on n.oid = t.relnamespace
        where c.contype = 'f' and n.nspname = 'public'`),
    );
    const problems = fks
      .filter((f) => tables.includes(f.table_name) && tables.includes(f.ref_table))
      .filter((f) => !asList(f.cols).includes("tenant_id") || !asList(f.ref_cols).includes("tenant_id"))
      .map((f) => `${f.table_name}.${f.name} -> ${f.ref_table}`);
    report.push(`foreign keys between tenant tables without tenant_id: ${problems.length}`);
    expect(problems).toEqual([]);
  });

  it("lists the global tables (no tenant_id) for the record: they become Citus reference tables", async () => {
    const globals = await globalTables(s.database.db);
    // A global table with a user_id column is probably tenant data that forgot its tenant_id: reported for review.
    const suspicious = rowsOf<{ table_name: string }>(
      await s.database.db.execute(sql`
        select distinct table_name from information_schema.columns
        where table_schema = 'public' and column_name in ('user_id', 'owner_id', 'seller_id')
          and table_name not in (select table_name from information_schema.columns where table_schema = 'public' and column_name = 'tenant_id')`),
    ).map((r) => r.table_name);
    report.push(
      `global (reference) tables: ${globals.join(", ")}${suspicious.length ? `; with a user column, to review: ${suspicious.join(", ")}` : ""}`,
    );
    expect(globals).toEqual(expect.arrayContaining(["tenants"]));
  });
});
