// A tenant on its own PostgreSQL database (issue 31). The shared database keeps, in tenant_databases, which tenants
// live elsewhere (their connection strings encrypted) and where each move stands; this router reads that table (again
// when it is older than `ttlMs`) and sends each of a tenant's transactions (inScope with its tenant) to the tenant's
// database, through one pool per database, opened when first needed and closed when idle. While a tenant is being moved
// its transactions are refused (503, retried by the caller or the job queue) and the move waits for those under way.
// Host-wide work and the host's own rows stay on the shared database. PostgreSQL only: PGlite is one embedded database.
import pg from "pg";
import { openDatabase, type Database, type Db } from "./client.ts";
import { registerTenantRouter, type TenantRouter } from "./scope.ts";

type TenantDatabaseState = "moving" | "active" | "returning";

export type TenantDatabaseRow = { tenant: string; connection: string; masked: string; state: TenantDatabaseState; taskId: string | null };

export type TenantDatabases = {
  /** The database of a tenant's transactions (the shared one unless it is on its own), as inScope asks. */
  route: TenantRouter["route"];
  /** Reads tenant_databases again now (after this process changed it). */
  refresh(): Promise<void>;
  /** Waits until no transaction of the tenant is under way in this process (after its state changed). */
  drained(tenantId: string): Promise<void>;
  /** The pool of a database by its connection string (opened if needed; closed when idle). */
  open(url: string): Promise<Database>;
  /** How long another process may still route by what it read before: a move waits this long after it changed state. */
  ttlMs: number;
  close(): Promise<void>;
};

/** The connection string of a row (decrypted with the server's key). */
export type Decrypt = (row: TenantDatabaseRow) => string;

const SELECT_ROWS = `select tenant::text as tenant, connection, masked, state, task_id::text as "taskId" from tenant_databases`;

/** tenant_databases as the router reads it (no tenant policy: host data). */
async function readTenantDatabases(shared: Database): Promise<TenantDatabaseRow[]> {
  return (await shared.pool!.query<TenantDatabaseRow>(SELECT_ROWS)).rows;
}

function tenantMoving(): Error {
  // 57P03 answers 503 (the database is not available to this call yet): the client and the job queue try again.
  return Object.assign(new Error("该公司的数据正在迁移，请稍后再试"), { code: "57P03" });
}

/**
 * The router of a PostgreSQL database's tenants, registered on it (inScope consults it). `idleMs`: a tenant database's
 * pool with nothing running this long is closed; `poolSize`: connections per tenant database.
 */
export function createTenantDatabases(
  shared: Database,
  o: { decrypt: Decrypt; ttlMs?: number; idleMs?: number; poolSize?: number },
): TenantDatabases {
  if (shared.kind !== "postgres") throw new Error("a tenant database needs PostgreSQL");
  const ttlMs = o.ttlMs ?? 1000;
  const idleMs = o.idleMs ?? 5 * 60_000;
  let rows = new Map<string, TenantDatabaseRow>();
  let urls = new Map<string, string>();
  let loadedAt = -Infinity;
  let loading: Promise<void> | null = null;
  const running = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();
  const pools = new Map<string, { opening: Promise<Database>; users: number; lastUsed: number }>();
  let closed = false;

  async function load() {
    const next = new Map<string, TenantDatabaseRow>();
    const nextUrls = new Map<string, string>();
    for (const r of await readTenantDatabases(shared)) {
      next.set(r.tenant, r);
      let url = urls.get(r.tenant + r.connection);
      try {
        url ??= o.decrypt(r);
      } catch {
        url = ""; // made under another key: the tenant's calls say so (route) rather than every tenant's failing
      }
      nextUrls.set(r.tenant, url);
    }
    rows = next;
    // Keyed by tenant and ciphertext, so a changed string is decrypted again.
    urls = new Map([...next].map(([t, r]) => [t + r.connection, nextUrls.get(t)!]));
    loadedAt = Date.now();
  }

  function refresh(): Promise<void> {
    loading ??= load().finally(() => (loading = null));
    return loading;
  }

  function open(url: string): Promise<Database> {
    let p = pools.get(url);
    if (!p) {
      p = { opening: openDatabase({ kind: "postgres", url, poolSize: o.poolSize ?? 5 }), users: 0, lastUsed: Date.now() };
      pools.set(url, p);
      p.opening.catch(() => pools.delete(url));
    }
    p.lastUsed = Date.now();
    return p.opening;
  }

  async function closeIdle() {
    const now = Date.now();
    for (const [url, p] of pools) {
      if (p.users > 0 || now - p.lastUsed < idleMs) continue;
      pools.delete(url);
      await (await p.opening).close().catch(() => {});
    }
  }
  const sweeper = setInterval(() => void closeIdle(), Math.max(1000, Math.floor(idleMs / 2)));
  sweeper.unref();

  async function route(tenantId: string) {
    if (closed) throw new Error("the tenant databases are closed");
    if (Date.now() - loadedAt > ttlMs) await refresh();
    const row = rows.get(tenantId);
    if (row && row.state !== "active") throw tenantMoving();
    running.set(tenantId, (running.get(tenantId) ?? 0) + 1);
    let pool: { users: number; lastUsed: number } | undefined;
    let db: Db = shared.db;
    try {
      if (row) {
        const url = urls.get(tenantId + row.connection);
        if (!url) throw new Error("连接字符串无法解密（服务器密钥已更换？）");
        db = (await open(url)).db;
        pool = pools.get(url);
        if (pool) pool.users++;
      }
    } catch (err) {
      release();
      throw Object.assign(new Error(`该公司的独立数据库无法连接：${(err as Error).message}`), { code: "57P03", cause: err });
    }
    function release() {
      if (pool) {
        pool.users--;
        pool.lastUsed = Date.now();
        pool = undefined;
      }
      const n = (running.get(tenantId) ?? 1) - 1;
      if (n > 0) return void running.set(tenantId, n);
      running.delete(tenantId);
      for (const w of waiting.get(tenantId) ?? []) w();
      waiting.delete(tenantId);
    }
    return { db, release };
  }

  function drained(tenantId: string): Promise<void> {
    if (!running.get(tenantId)) return Promise.resolve();
    return new Promise((resolve) => waiting.set(tenantId, [...(waiting.get(tenantId) ?? []), resolve]));
  }

  async function close() {
    closed = true;
    clearInterval(sweeper);
    const all = [...pools.values()];
    pools.clear();
    await Promise.all(all.map(async (p) => (await p.opening.catch(() => null))?.close().catch(() => {})));
  }

  const databases: TenantDatabases = { route, refresh, drained, open, ttlMs, close };
  registerTenantRouter(shared.db, { route, close });
  return databases;
}

/** The connection string with its password hidden ("postgres://user:***@host:5432/db"): what any answer shows of it. */
export function maskConnectionString(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    for (const key of [...u.searchParams.keys()]) if (/pass|secret|key/i.test(key)) u.searchParams.set(key, "***");
    return u.toString().replace("%2A%2A%2A", "***");
  } catch {
    return "***";
  }
}

/** A connection of its own to a database (checking it answers), ended by the caller. */
export async function connectTo(url: string, timeoutMs = 5000): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return client;
}
