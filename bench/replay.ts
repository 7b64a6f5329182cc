// A call against its own SQL (the list benchmarks' method, first written in bench/listings.ts): the statements the
// service issues for a request are captured by running the service in the benchmark's process on a recording
// connection, inside the transaction the server opens (one round trip: `begin; set role erp_app, app.tenant_id;` and
// the session check), then replayed on a pg connection as the whole database work of one request; the HTTP call is
// timed the same way, alone (one after the other) and under load (autocannon vs as many replaying workers).
import type { EventEmitter } from "node:events";
import autocannon from "autocannon";
import pg from "pg";
import type { AppProcess } from "../e2e/app-process.ts";
import { pgTxOn } from "../server/db/client.ts";
import { scopeStatement } from "../server/db/scope.ts";
import type { Principal } from "../server/http/auth.ts";
import type { CallContext } from "../server/http/calls.ts";
import { sessionQuery, sessionUserOf } from "../server/http/session-user.ts";
import { cpuMeter, sequentialGets, sequentialPosts, stats } from "./measure.ts";

export type Statement = { text: string; params: unknown[] };

/** The command-line options every list benchmark of this method takes (parseArgs), with their defaults. */
export const replayOptions = {
  "pg-url": { type: "string", default: process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test" },
  duration: { type: "string", default: "5" },
  warmup: { type: "string", default: "1" },
  connections: { type: "string", default: "50" },
  alone: { type: "string", default: "30" },
  "page-size": { type: "string", default: "20" },
  "probe-limit": { type: "string", default: "500" },
  only: { type: "string" },
  "log-level": { type: "string", default: "warn" },
  keep: { type: "boolean", default: false },
  /** a V8 CPU profile of the measured server into bench/.data/prof */
  "cpu-prof": { type: "boolean", default: false },
} as const;
export type Load = { connections: number; duration: number; warmup: number };

/** The principal an access token names (the claims the server's auth reads). */
export function principalOf(token: string): Principal {
  const p = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as Record<string, unknown>;
  return {
    userId: String(p.sub),
    tenantId: (p.tid as string | null) ?? null,
    tenantName: (p.tname as string | null) ?? null,
    userName: String(p.uname ?? ""),
    isMainAccount: p.main === true,
    isHost: p.host === true,
    sessionId: String(p.sid),
    securityStamp: String(p.sst),
  };
}

/** The benchmark's own connection (captures, version) and the replay's pool of `connections`. */
export async function openReplay(url: string, connections: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const pgVersion = (await client.query<{ v: string }>("select version() as v")).rows[0].v;
  const pool = new pg.Pool({ connectionString: url, max: connections });
  pool.on("error", () => {});
  return { client, pool, pgVersion };
}

/** What the server sends first for a call: BEGIN, the tenant scope and the session check, in one round trip. */
export const beginOf = (tenantId: string, principal: Principal) => `begin; ${scopeStatement({ tenantId })}; ${sessionQuery(principal)}`;

/** Runs `run` (the service) in this process inside the server's transaction shape: the statements it ran, its answer. */
export async function capture<T>(client: pg.Client, tenantId: string, principal: Principal, run: (ctx: CallContext) => Promise<T>) {
  const statements: Statement[] = [];
  const begin = beginOf(tenantId, principal);
  const opened = (await client.query(begin)) as unknown as pg.QueryResult[];
  // Every statement the service sends on the connection, as sent (drizzle's rendered ones and those it sends as text).
  const recording = Object.create(client) as pg.Client;
  recording.query = ((config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === "string" ? config : config.text;
    statements.push({ text, params: values ?? (typeof config === "string" ? [] : (config.values ?? [])) });
    return client.query(config as string, values);
  }) as pg.Client["query"];
  try {
    const user = sessionUserOf(opened.at(-1)!.rows, principal);
    const ctx = { tx: pgTxOn(recording), user, tenantId, principal } as unknown as CallContext;
    return { begin, statements, result: await run(ctx) };
  } finally {
    await client.query("rollback");
  }
}

async function replayOnce(client: pg.PoolClient, begin: string, statements: Statement[]) {
  await client.query(begin);
  for (const q of statements) {
    await client.query({ text: q.text, values: q.params, rowMode: "array" });
  }
  await client.query("commit");
}

/** The captured statements replayed n times one after the other on one connection. */
export async function aloneSql(pool: pg.Pool, begin: string, statements: Statement[], n: number) {
  const client = await pool.connect();
  const lat: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await replayOnce(client, begin, statements);
      lat.push(performance.now() - t0);
    }
  } finally {
    client.release();
  }
  return stats(lat);
}

/** The call n times one after the other over HTTP (a GET when body is null); any answer but 200 throws. */
export async function aloneHttp(url: string, token: string, body: unknown, n: number) {
  const r = body === null ? await sequentialGets(url, token, n) : await sequentialPosts(url, token, body, n);
  if (r.statuses.some((st) => st !== 200)) throw new Error(`${url}: ${r.statuses.join(", ")}`);
  return r;
}

/**
 * autocannon at `load.connections` for `load.duration` s after a warm-up: requests per second and latencies. `settle`
 * runs between the two (drain: the warm-up's requests autocannon gave up on still run in the server, and a slow call's
 * measured requests would otherwise queue behind them).
 */
export async function httpLoad(url: string, token: string, body: unknown, pid: number, load: Load, settle?: () => Promise<void>) {
  const opts = {
    url,
    method: body === null ? ("GET" as const) : ("POST" as const),
    connections: load.connections,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === null ? {} : { "content-type": "application/json" }),
    } as Record<string, string>,
    ...(body === null ? {} : { body: JSON.stringify(body) }),
  };
  if (load.warmup > 0) await autocannon({ ...opts, duration: load.warmup });
  await settle?.();
  const lat: number[] = [];
  const meter = cpuMeter(pid);
  const inst = autocannon({ ...opts, duration: load.duration });
  (inst as unknown as EventEmitter).on("response", (_c: unknown, _s: number, _b: number, ms: number) => lat.push(ms));
  const r = await inst;
  const m = meter();
  const s = stats(lat);
  return { ...s, rps: s.n / m.wall, non2xx: r.non2xx, errors: r.errors + r.timeouts, serverCpuPct: m.processCpuPct };
}

/** The captured statements replayed by `load.connections` workers on a pool of that size for the same time. */
export async function sqlLoad(pool: pg.Pool, begin: string, statements: Statement[], load: Load, log: (line: string) => void) {
  const runFor = async (seconds: number, lat: number[] | null) => {
    let errors = 0;
    const deadline = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const client = await pool.connect();
        try {
          await replayOnce(client, begin, statements);
        } catch (e) {
          if (errors++ === 0) log(`[sql] ${(e as Error).message}`);
          await client.query("rollback").catch(() => {});
        } finally {
          client.release();
        }
        lat?.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: load.connections }, worker));
    return errors;
  };
  if (load.warmup > 0) await runFor(load.warmup, null);
  const lat: number[] = [];
  const meter = cpuMeter();
  const errors = await runFor(load.duration, lat);
  const m = meter();
  const s = stats(lat);
  return { ...s, rps: s.n / m.wall, errors };
}

/** Waits until the server has no statement running any more (requests autocannon gave up on still run), ≤ 120 s. */
export async function drain(pgUrl: string | undefined, app: AppProcess, log: (line: string) => void) {
  const t0 = Date.now();
  if (!pgUrl) {
    await fetch(`${app.url}/health`).then((r) => r.arrayBuffer());
  } else {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    try {
      for (;;) {
        const r = await c.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active'
             and pid <> pg_backend_pid() and query not ilike '%pgboss%'`,
        );
        if (r.rows[0].n === 0 || Date.now() - t0 > 120_000) break;
        await new Promise((res) => setTimeout(res, 200));
      }
    } finally {
      await c.end();
    }
  }
  const ms = Date.now() - t0;
  if (ms > 1000) log(`  (waited ${ms} ms for the server to finish the requests autocannon had given up on)`);
}

/** EXPLAIN (ANALYZE, BUFFERS) of each statement inside the tenant's scope. */
export async function explain(url: string, tenantId: string, statements: Statement[]) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const out: string[] = [];
  try {
    for (const q of statements) {
      await c.query(`begin; ${scopeStatement({ tenantId })}`);
      try {
        const r = await c.query<{ "QUERY PLAN": string }>({ text: `explain (analyze, buffers) ${q.text}`, values: q.params });
        out.push(`${q.text}\n-- params: ${JSON.stringify(q.params)}\n${r.rows.map((x) => x["QUERY PLAN"]).join("\n")}`);
      } finally {
        await c.query("rollback");
      }
    }
  } finally {
    await c.end();
  }
  return out.join("\n\n");
}
