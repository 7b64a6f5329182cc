// RELIABILITY.md scenario 6, the row-level security backstop: every table in public with a tenant_id column has RLS
// enabled and forced under a policy on app.tenant_id; the app's role (erp_app) owns nothing and bypasses nothing; as
// erp_app, no tenant set sees 0 rows, tenant A sees exactly A's rows, and a row written for B under A is refused.
// Tables are read from the catalogue, so tables added by later migrations are covered; every table gets rows for A
// and B first (through the API where calls exist, else a generic insert built from the catalogue).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tx } from "../db/client.ts";
import { hostAllScope, inScope } from "../db/scope.ts";
import { startTestServer, type TestServer, type TestTenant } from "../testing/harness.ts";
import { rowsOf, settleTasks, tenantTables, within } from "../testing/security-kit.ts";

let s: TestServer;
let A: TestTenant;
let B: TestTenant;
let tables: string[];
const seeded: Record<string, "api" | "generic" | "none"> = {};
const report: Record<string, string> = {};

class Rollback extends Error {}

/** Runs fn in a transaction as erp_app with the given settings, and always rolls it back. */
async function asApp<T>(
  settings: { tenantId?: string | null; role?: "erp_app" | "erp_host"; extra?: Record<string, string> },
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  let out: T | undefined;
  try {
    await s.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', ${settings.role ?? "erp_app"}, true)`);
      if (settings.tenantId !== undefined && settings.tenantId !== null)
        await tx.execute(sql`select set_config('app.tenant_id', ${settings.tenantId}, true)`);
      for (const [k, v] of Object.entries(settings.extra ?? {})) await tx.execute(sql`select set_config(${k}, ${v}, true)`);
      out = await fn(tx);
      throw new Rollback();
    });
  } catch (e) {
    if (!(e instanceof Rollback)) throw e;
  }
  return out as T;
}

/** The error a statement raises as erp_app under a scope, or null when it succeeds (rolled back either way). */
async function errorOf(
  settings: { tenantId?: string | null },
  q: ReturnType<typeof sql>,
): Promise<{ code?: string; message: string } | null> {
  try {
    await asApp(settings, (tx) => tx.execute(q));
    return null;
  } catch (e) {
    const err = e as { code?: string; cause?: { code?: string; message?: string }; message: string };
    return { code: err.code ?? err.cause?.code, message: err.cause?.message ?? err.message };
  }
}

type Column = {
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: string;
  column_default: string | null;
  is_identity: string;
  is_generated: string;
};

async function columnsOf(table: string): Promise<Column[]> {
  return rowsOf<Column>(
    await s.database.db.execute(sql`
      select column_name, data_type, udt_name, is_nullable, column_default, is_identity, is_generated
      from information_schema.columns where table_schema = 'public' and table_name = ${table} order by ordinal_position`),
  );
}

/** An INSERT of one row for a tenant, built from the catalogue: every NOT NULL column without a default gets a value of its type. */
async function genericInsert(table: string, tenantId: string) {
  const cols = await columnsOf(table);
  const names: ReturnType<typeof sql.identifier>[] = [];
  const values: ReturnType<typeof sql>[] = [];
  for (const c of cols) {
    const needed =
      c.column_name === "tenant_id" ||
      (c.is_nullable === "NO" && c.column_default === null && c.is_identity !== "YES" && c.is_generated !== "ALWAYS");
    if (!needed) continue;
    let v: ReturnType<typeof sql>;
    if (c.column_name === "tenant_id") v = sql`${tenantId}::uuid`;
    else if (c.data_type === "uuid") v = sql`gen_random_uuid()`;
    else if (/char|text/.test(c.data_type)) v = sql`'rls-' || md5(random()::text)`;
    else if (/int/.test(c.data_type)) v = sql`1`;
    else if (/numeric|real|double/.test(c.data_type)) v = sql`0`;
    else if (c.data_type === "boolean") v = sql`false`;
    else if (/timestamp|date/.test(c.data_type)) v = sql`now()`;
    else if (/json/.test(c.data_type)) v = sql`'{}'::jsonb`;
    else if (c.data_type === "ARRAY") v = sql`'{}'`;
    else if (c.data_type === "USER-DEFINED") v = sql`(enum_range(null::${sql.identifier(c.udt_name)}))[1]`;
    else if (c.data_type === "bytea") v = sql`'\\x00'::bytea`;
    else v = sql`null`;
    names.push(sql.identifier(c.column_name));
    values.push(v);
  }
  return sql`insert into ${sql.identifier(table)} (${sql.join(names, sql`, `)}) values (${sql.join(values, sql`, `)})`;
}

async function countAs(superuser: boolean, table: string, tenantId?: string): Promise<number> {
  const q = tenantId
    ? sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenantId}`
    : sql`select count(*)::int as n from ${sql.identifier(table)}`;
  if (superuser) return rowsOf<{ n: number }>(await inScope(s.database.db, hostAllScope, (tx) => tx.execute(q)))[0].n;
  return rowsOf<{ n: number }>(await asApp({}, (tx) => tx.execute(q)))[0].n;
}

beforeAll(async () => {
  s = await startTestServer();
  A = await s.createTenant();
  B = await s.createTenant();
  // Rows through the API: users, sessions (logins), tasks, password reset codes.
  for (const t of [A, B]) {
    const sub = await s.createSubUser(t);
    const clear = await within(
      s.api("POST", "/api/User/ClearSubAccountInfo", { token: t.token, query: { id: sub.id } }),
      15_000,
      "ClearSubAccountInfo",
    );
    expect(clear.status, clear.raw).toBe(200);
    const sub2 = await s.createSubUser(t);
    expect((await s.api("GET", "/api/User/GetResetPwdToken", { token: t.token, query: { userId: sub2.id } })).status).toBe(200);
  }
  expect(await settleTasks(s.database.db, [A.tenantId, B.tenantId])).toBe(0);
  tables = await tenantTables(s.database.db);
  // Any table still without rows for A or B gets one generic row each, written as erp_app in that tenant's scope.
  for (const table of tables) {
    const have = (await countAs(true, table, A.tenantId)) > 0 && (await countAs(true, table, B.tenantId)) > 0;
    if (have) {
      seeded[table] = "api";
      continue;
    }
    let ok = true;
    for (const t of [A, B]) {
      if ((await countAs(true, table, t.tenantId)) > 0) continue;
      const insert = await genericInsert(table, t.tenantId);
      try {
        await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.execute(insert));
      } catch {
        ok = false;
      }
    }
    seeded[table] = ok ? "generic" : "none";
  }
});

afterAll(async () => {
  console.log(
    "[security] row-level security\n" +
      Object.entries(report)
        .map(([k, v]) => `  ${k}: ${v}`)
        .join("\n"),
  );
  await s?.close();
});

describe("row-level security backstop (scenario 6)", () => {
  it("finds the tenant tables and rows of A and B in each", async () => {
    expect(tables).toEqual(expect.arrayContaining(["users", "user_sessions", "task_infos", "password_reset_codes"]));
    const unseeded = Object.entries(seeded)
      .filter(([, how]) => how === "none")
      .map(([t]) => t);
    report["tenant tables"] = `${tables.length}: ${tables.map((t) => `${t}(${seeded[t]})`).join(", ")}`;
    expect(unseeded, "tables that could not be given a row for A and B").toEqual([]);
    for (const t of tables) {
      expect(await countAs(true, t, A.tenantId), t).toBeGreaterThan(0);
      expect(await countAs(true, t, B.tenantId), t).toBeGreaterThan(0);
    }
  });

  it("has RLS enabled and forced on every tenant table, under a policy on app.tenant_id for every command", async () => {
    const rows = rowsOf<{ relname: string; rls: boolean; forced: boolean; owner: string }>(
      await s.database.db.execute(sql`
        select c.relname, c.relrowsecurity as rls, c.relforcerowsecurity as forced, pg_get_userbyid(c.relowner) as owner
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relname in (${sql.join(
          tables.map((t) => sql`${t}`),
          sql`, `,
        )})`),
    );
    const policies = rowsOf<{
      tablename: string;
      cmd: string;
      qual: string | null;
      with_check: string | null;
      permissive: string;
      roles: string;
    }>(
      await s.database.db.execute(
        sql`select tablename, cmd, qual, with_check, permissive, roles::text as roles from pg_policies where schemaname = 'public'`,
      ),
    );
    const bad: string[] = [];
    for (const t of tables) {
      const r = rows.find((x) => x.relname === t);
      if (!r?.rls) bad.push(`${t}: RLS not enabled`);
      if (!r?.forced) bad.push(`${t}: RLS not forced`);
      if (r?.owner === "erp_app" || r?.owner === "erp_host") bad.push(`${t}: owned by ${r.owner}`);
      const mine = policies.filter((p) => p.tablename === t);
      if (!mine.length) bad.push(`${t}: no policy`);
      const all = mine.find((p) => p.cmd === "ALL" && p.qual?.includes("app.tenant_id") && p.with_check?.includes("app.tenant_id"));
      if (!all) bad.push(`${t}: no ALL policy reading app.tenant_id in USING and WITH CHECK`);
      // A permissive policy that does not read the tenant would widen what the tenant policy allows: only the host's
      // own role (erp_host, the explicit opt-out) may have one.
      for (const p of mine) {
        const roles = p.roles.replace(/[{}]/g, "").split(",");
        if (p.permissive === "PERMISSIVE" && !p.qual?.includes("app.tenant_id") && !(roles.length === 1 && roles[0] === "erp_host")) {
          bad.push(`${t}: permissive policy ${p.cmd} for ${p.roles} without app.tenant_id`);
        }
      }
    }
    report["RLS enabled+forced+policy"] = `${tables.length - new Set(bad.map((b) => b.split(":")[0])).size}/${tables.length} tables`;
    expect(bad).toEqual([]);
  });

  it("runs the app as erp_app, which owns no table, is no superuser and cannot bypass RLS", async () => {
    const role = rowsOf<{ rolsuper: boolean; rolbypassrls: boolean }>(
      await s.database.db.execute(sql`select rolsuper, rolbypassrls from pg_roles where rolname = 'erp_app'`),
    );
    expect(role).toEqual([{ rolsuper: false, rolbypassrls: false }]);
    const owned = rowsOf<{ n: number }>(
      await s.database.db.execute(
        sql`select count(*)::int as n from pg_class where relowner = (select oid from pg_roles where rolname = 'erp_app')`,
      ),
    );
    expect(owned[0].n).toBe(0);
    const who = await inScope(
      s.database.db,
      { tenantId: A.tenantId },
      async (tx) =>
        rowsOf<{ u: string; t: string }>(await tx.execute(sql`select current_user as u, current_setting('app.tenant_id') as t`))[0],
    );
    expect(who).toEqual({ u: "erp_app", t: A.tenantId });
    // And the app's requests go through that scope: a call sees its tenant's rows only.
    const res = await s.api("GET", "/api/User/GetSubUsers", { token: A.token, query: { MaxResultCount: 1000 } });
    expect(res.status).toBe(200);
    expect(res.body.result.totalCount).toBe(2);
  });

  it("answers an unscoped SELECT as erp_app with 0 rows from every tenant table", async () => {
    const leaking: string[] = [];
    for (const t of tables) {
      const total = await countAs(true, t);
      expect(total, t).toBeGreaterThan(0);
      const none = await countAs(false, t);
      const empty = rowsOf<{ n: number }>(
        await asApp({ tenantId: "" }, (tx) => tx.execute(sql`select count(*)::int as n from ${sql.identifier(t)}`)),
      )[0].n;
      // A stray setting is no way around the policy: only the erp_host role opts out.
      const off = rowsOf<{ n: number }>(
        await asApp({ extra: { "app.host_all": "on" } }, (tx) => tx.execute(sql`select count(*)::int as n from ${sql.identifier(t)}`)),
      )[0].n;
      if (none || empty || off) leaking.push(`${t}: ${none}/${empty}/${off} of ${total} rows visible without a tenant`);
    }
    report["unscoped SELECT returns 0 rows"] = `${tables.length - leaking.length}/${tables.length} tables`;
    expect(leaking).toEqual([]);
  });

  it("shows tenant A exactly A's rows, and the host opt-out every row", async () => {
    const bad: string[] = [];
    for (const t of tables) {
      const aRows = await countAs(true, t, A.tenantId);
      const seen = rowsOf<{ n: number; foreign: number }>(
        await asApp({ tenantId: A.tenantId }, (tx) =>
          tx.execute(
            sql`select count(*)::int as n, count(*) filter (where tenant_id <> ${A.tenantId})::int as foreign from ${sql.identifier(t)}`,
          ),
        ),
      )[0];
      if (seen.foreign !== 0 || seen.n !== aRows) bad.push(`${t}: A sees ${seen.n} rows (${seen.foreign} foreign), owns ${aRows}`);
      const hostSees = rowsOf<{ n: number }>(
        await asApp({ role: "erp_host" }, (tx) => tx.execute(sql`select count(*)::int as n from ${sql.identifier(t)}`)),
      )[0].n;
      if (hostSees !== (await countAs(true, t))) bad.push(`${t}: host opt-out sees ${hostSees}`);
    }
    report["tenant A sees only A's rows"] = `${tables.length - bad.length}/${tables.length} tables`;
    expect(bad).toEqual([]);
  });

  it("refuses, under A's scope, to insert a row for B, to move A's row to B, and to touch B's rows", async () => {
    const bad: string[] = [];
    let insertsTested = 0;
    for (const t of tables) {
      // The same generic row is accepted for A (so the refusal below is the policy, not a constraint).
      const forA = await errorOf({ tenantId: A.tenantId }, await genericInsert(t, A.tenantId));
      const forB = await errorOf({ tenantId: A.tenantId }, await genericInsert(t, B.tenantId));
      if (!forA) {
        insertsTested++;
        if (!forB) bad.push(`${t}: INSERT with B's tenant_id accepted under A`);
        else if (forB.code !== "42501" && !/row-level security/i.test(forB.message))
          bad.push(`${t}: INSERT for B failed but not by the policy: ${forB.code} ${forB.message}`);
      } else if (!forB) {
        bad.push(`${t}: INSERT with B's tenant_id accepted under A`);
      }
      const moved = await errorOf(
        { tenantId: A.tenantId },
        sql`update ${sql.identifier(t)} set tenant_id = ${B.tenantId}::uuid where tenant_id = ${A.tenantId}`,
      );
      if (!moved) bad.push(`${t}: UPDATE moving A's rows to B accepted`);
      const touched = await asApp({ tenantId: A.tenantId }, async (tx) => {
        const u = rowsOf(
          await tx.execute(sql`update ${sql.identifier(t)} set tenant_id = tenant_id where tenant_id = ${B.tenantId} returning 1`),
        );
        const d = rowsOf(await tx.execute(sql`delete from ${sql.identifier(t)} where tenant_id = ${B.tenantId} returning 1`));
        return u.length + d.length;
      });
      if (touched) bad.push(`${t}: ${touched} of B's rows updated/deleted under A`);
    }
    report["foreign INSERT refused (generic row accepted for A)"] = `${insertsTested}/${tables.length} tables`;
    report["foreign UPDATE/DELETE refused"] = `${tables.length}/${tables.length} tables`;
    expect(bad).toEqual([]);
    expect(insertsTested).toBe(tables.length);
  });
});
