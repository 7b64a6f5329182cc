// Where the time of one GetMyInfo goes: each step of a request timed alone, sequentially, in-process (no concurrency,
// no TCP to the API), on a fresh database seeded like the load benchmark.
//
//   npx tsx bench/profile.ts [--db=postgres|pglite] [--pg-url=postgres://root@127.0.0.1:5432/test] [--users=10000] [--n=2000]
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { and, count, eq, sql } from "drizzle-orm";
import { buildApp, createDeps } from "../server/app.ts";
import { loadConfig } from "../server/config.ts";
import { bootstrap } from "../server/db/bootstrap.ts";
import { openDatabase, type Database } from "../server/db/client.ts";
import { tenants, userSessions, users } from "../server/db/schema.ts";
import { inScope } from "../server/db/scope.ts";
import { loadSessionUser } from "../server/http/calls.ts";
import { createJobs } from "../server/jobs/queue.ts";
import { accountSummary } from "../server/modules/users/service.ts";
import { createFreshPostgresDatabase } from "../e2e/app-process.ts";
import { seedSubUsers } from "./seed.ts";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "postgres" },
    "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://root@127.0.0.1:5432/test" },
    users: { type: "string", default: "10000" },
    n: { type: "string", default: "2000" },
  },
});
const N = Number(args.n);
const userCount = Number(args.users);

type Step = { name: string; meanUs: number; p50Us: number; p99Us: number; nodeCpuUs: number; pgCpuUs: number | null };

/** utime+stime of a process in µs (USER_HZ 100). */
function procCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10_000;
}

/** The one PostgreSQL backend of the profile's pool (pool size 1), whose CPU time is read around each step. */
let backendPid: number | null = null;

async function time(name: string, fn: () => unknown | Promise<unknown>, n = N): Promise<Step> {
  for (let i = 0; i < Math.min(200, n); i++) await fn();
  const samples: number[] = [];
  const cpu0 = process.cpuUsage();
  const pg0 = backendPid ? procCpuUs(backendPid) : 0;
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  const cpu = process.cpuUsage(cpu0);
  const pgCpu = backendPid ? (procCpuUs(backendPid) - pg0) / n : null;
  samples.sort((a, b) => a - b);
  const step = {
    name,
    meanUs: samples.reduce((a, b) => a + b, 0) / n,
    p50Us: samples[Math.floor(n * 0.5)],
    p99Us: samples[Math.floor(n * 0.99)],
    nodeCpuUs: (cpu.user + cpu.system) / n,
    pgCpuUs: pgCpu,
  };
  console.error(
    `${name}: mean ${step.meanUs.toFixed(0)} µs, node CPU ${step.nodeCpuUs.toFixed(0)} µs, PostgreSQL CPU ${pgCpu?.toFixed(0) ?? "-"} µs`,
  );
  return step;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "erp-profile-"));
  const pg = args.db === "postgres" ? await createFreshPostgresDatabase(args["pg-url"]!, "erp_profile") : undefined;
  let database: Database | undefined;
  try {
    database = await openDatabase(pg ? { kind: "postgres", url: pg.url, poolSize: 1 } : { kind: "pglite" });
    await database.migrate();
    const boot = await bootstrap(database.db, { adminPassword: "Profile-Admin-1" });
    const demo = boot.demo!;
    const { tenantId } = await seedSubUsers(database, demo.tenantName, userCount, "Profile-Sub-1");
    if (pg) await database.db.execute(sql`vacuum analyze users`);

    const signingKey = randomBytes(48).toString("base64url");
    const config = loadConfig({
      DATA_DIR: dataDir,
      TOKEN_SIGNING_KEY: signingKey,
      LOG_LEVEL: "silent",
      LOGIN_RATE_LIMIT_PER_MINUTE: "1000000",
    });
    const deps = createDeps(
      config,
      database,
      createJobs(database, () => {}),
    );
    const app = await buildApp(deps);
    await app.ready();
    const login = await app.inject({
      method: "POST",
      url: "/connect/token",
      headers: { "content-type": "application/x-www-form-urlencoded", __tenant: demo.tenantName },
      payload: new URLSearchParams({
        grant_type: "password",
        client_id: "Erp_App",
        scope: "Erp",
        username: demo.userName,
        password: demo.password,
      }).toString(),
    });
    const token = (JSON.parse(login.body) as { access_token: string }).access_token;
    const principal = await deps.tokens.verify(token);
    const db = database.db;
    const scope = { tenantId };
    const key = new TextEncoder().encode(signingKey);
    const [h, p, s] = token.split(".");
    const sig = Buffer.from(s, "base64url");

    if (pg)
      backendPid = ((await database.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }).rows[0].pid;
    const steps: Step[] = [];
    steps.push(await time("jose jwtVerify HS256 (WebCrypto, as auth.ts does)", () => deps.tokens.verify(token)));
    steps.push(
      await time("node:crypto HMAC-SHA256 + compare + JSON.parse of the same token", () => {
        const mac = createHmac("sha256", key).update(`${h}.${p}`).digest();
        if (!timingSafeEqual(mac, sig)) throw new Error("bad signature");
        return JSON.parse(Buffer.from(p, "base64url").toString("utf8"));
      }),
    );
    steps.push(
      await time("drizzle: build the SQL of a loadSessionUser-like select (2 joins), no I/O", () =>
        db
          .select({ user: users, tenantName: tenants.name, tenantActive: tenants.isActive, revokedAt: userSessions.revokedAt })
          .from(users)
          .innerJoin(
            userSessions,
            and(eq(userSessions.tenantId, users.tenantId), eq(userSessions.id, principal.sessionId), eq(userSessions.userId, users.id)),
          )
          .leftJoin(tenants, eq(tenants.id, users.tenantId))
          .where(and(eq(users.tenantId, tenantId), eq(users.id, principal.userId)))
          .limit(1)
          .toSQL(),
      ),
    );
    steps.push(await time("1 round trip: select 1 (no transaction)", () => db.execute(sql`select 1`)));
    steps.push(await time("transaction: BEGIN + set_config + COMMIT (3 round trips)", () => inScope(db, scope, async () => {})));
    steps.push(
      await time("  + loadSessionUser (4 round trips) = every authenticated call", () =>
        inScope(db, scope, (tx) => loadSessionUser(tx, principal)),
      ),
    );
    steps.push(
      await time("  + accountSummary: tenant re-read + sub-account count (6 round trips) = GetMyInfo's database part", () =>
        inScope(db, scope, async (tx) => accountSummary(tx, await loadSessionUser(tx, principal))),
      ),
    );
    const subCount = (tx: typeof db) =>
      tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.isMainAccount, false), eq(users.isDeleted, false)));
    steps.push(
      await time(`count of ${userCount} sub-accounts alone, as erp_app under the RLS policy`, () =>
        inScope(db, scope, (tx) => subCount(tx as never)),
      ),
    );
    steps.push(await time(`the same count as the owner (no RLS), no transaction`, () => subCount(db)));
    const inject = (url: string) => () =>
      app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } }).then((r) => {
        if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
      });
    steps.push(await time("Fastify inject GetUserInfo (whole stack but TCP)", inject("/api/User/GetUserInfo")));
    steps.push(await time("Fastify inject GetMyInfo (whole stack but TCP)", inject("/api/User/GetMyInfo")));
    steps.push(await time("Fastify inject GetSubUsers page 1", inject("/api/User/GetSubUsers?SkipCount=0&MaxResultCount=20")));
    steps.push(
      await time(
        `Fastify inject GetSubUsers skip ${userCount - 1000}`,
        inject(`/api/User/GetSubUsers?SkipCount=${userCount - 1000}&MaxResultCount=20`),
        Math.min(N, 500),
      ),
    );
    await app.close();

    if (database.pool) {
      // Experiments on the raw connection (the same single backend): what fewer round trips, named statements and a
      // simpler tenant policy would save. They change only this throw-away database.
      const session = db
        .select({ user: users, tenantName: tenants.name, tenantActive: tenants.isActive, revokedAt: userSessions.revokedAt })
        .from(users)
        .innerJoin(
          userSessions,
          and(eq(userSessions.tenantId, users.tenantId), eq(userSessions.id, principal.sessionId), eq(userSessions.userId, users.id)),
        )
        .leftJoin(tenants, eq(tenants.id, users.tenantId))
        .where(and(eq(users.tenantId, tenantId), eq(users.id, principal.userId)))
        .limit(1)
        .toSQL();
      const setScopeSql =
        "select set_config('role', 'erp_app', true), set_config('app.tenant_id', $1, true), set_config('app.host_all', 'off', true)";
      const countSql = "select count(*) from users where tenant_id = $1 and is_main_account = false and is_deleted = false";
      const client = await database.pool.connect();
      try {
        steps.push(
          await time("raw pg as today: BEGIN; set_config; session select; COMMIT (4 round trips, unnamed statements)", async () => {
            await client.query("begin");
            await client.query(setScopeSql, [tenantId]);
            await client.query(session.sql, session.params as unknown[]);
            await client.query("commit");
          }),
        );
        steps.push(
          await time("raw pg: the same with named (prepared once) statements", async () => {
            await client.query("begin");
            await client.query({ name: "p_scope", text: setScopeSql, values: [tenantId] });
            await client.query({ name: "p_session", text: session.sql, values: session.params as unknown[] });
            await client.query("commit");
          }),
        );
        steps.push(
          await time("raw pg: BEGIN + set_config in one simple query, named session select, COMMIT (3 round trips)", async () => {
            // tenantId is a UUID read from the verified token, so it can be written into the text.
            await client.query(
              `begin; select set_config('role', 'erp_app', true), set_config('app.tenant_id', '${tenantId}', true), set_config('app.host_all', 'off', true)`,
            );
            await client.query({ name: "p_session", text: session.sql, values: session.params as unknown[] });
            await client.query("commit");
          }),
        );
        const scopedCount = async () => {
          await client.query("begin");
          await client.query({ name: "p_scope", text: setScopeSql, values: [tenantId] });
          await client.query(countSql, [tenantId]);
          await client.query("commit");
        };
        steps.push(
          await time(
            `sub-account count (${userCount}) in a scoped transaction, policy as migrated (OR of two current_setting tests)`,
            scopedCount,
            300,
          ),
        );
        const rule = "tenant_id = (select nullif(current_setting('app.tenant_id', true), '')::uuid)";
        await client.query(
          `drop policy tenant_isolation on users; create policy tenant_isolation on users using (${rule}) with check (${rule})`,
        );
        steps.push(
          await time("  same, policy a single equality with the setting as an InitPlan (host opt-out left out)", scopedCount, 300),
        );
        await client.query("create index users_tenant_subs_idx on users (tenant_id) where not is_main_account and not is_deleted");
        await client.query("vacuum analyze users");
        steps.push(
          await time(
            "  same, plus a partial index (tenant_id) where not is_main_account and not is_deleted: index-only count",
            scopedCount,
            300,
          ),
        );
      } finally {
        client.release();
      }
    }

    console.log(
      `\n${database.kind}, ${userCount} sub-users, ${N} sequential runs per step, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n`,
    );
    console.log("| step | wall mean µs | p50 µs | p99 µs | node CPU µs | PostgreSQL CPU µs |\n|---|---:|---:|---:|---:|---:|");
    for (const st of steps) {
      console.log(
        `| ${st.name} | ${st.meanUs.toFixed(0)} | ${st.p50Us.toFixed(0)} | ${st.p99Us.toFixed(0)} | ${st.nodeCpuUs.toFixed(0)} | ${st.pgCpuUs === null ? "–" : st.pgCpuUs.toFixed(0)} |`,
      );
    }
  } finally {
    await database?.close().catch(() => {});
    await pg?.drop().catch((e) => console.error("drop failed", e));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
