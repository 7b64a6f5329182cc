// Opens the database: PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set. Both speak the same SQL
// and share one drizzle schema and one migrations folder.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { getTableColumns, getTableName, sql, type SQL, type Table } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema.ts";
import { closeTenantRouter, registerScopedRunner } from "./scope.ts";
import { PGliteProxy } from "./pglite-proxy.ts";
import { rowsOf, type Db, type Tx } from "./types.ts";

export { rowsOf };

export type { Db, Tx };

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

export type Database = {
  kind: "pglite" | "postgres";
  db: Db;
  /**
   * PGlite: by default a PGliteProxy to the instance in the database worker thread, which answers the part of PGlite's
   * API the server uses (query, sql, exec, transaction, listen, dumpDataDir, close) as PGlite does; typed as PGlite so
   * drizzle and pg-boss take it. With `inProcess` the PGlite itself.
   */
  pglite?: PGlite;
  pool?: pg.Pool;
  /**
   * PostgreSQL: the connection string for work that needs a session of its own (a LISTEN, a session advisory lock):
   * the direct one (DATABASE_DIRECT_URL) when the pool goes through a transaction pooler, else the pool's.
   */
  sessionUrl?: string;
  /** Applies the migrations not yet applied; on PostgreSQL one process at a time (the others wait, then find none). */
  migrate(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions =
  | {
      kind: "pglite";
      dataDir?: string;
      loadDataDir?: Blob;
      /**
       * Run PGlite (WASM) in this thread instead of in its worker thread. In this thread every statement holds up HTTP
       * work; only for a caller that needs PGlite's whole API.
       */
      inProcess?: boolean;
    }
  | {
      kind: "postgres";
      url: string;
      /**
       * A direct connection to the same database when `url` goes through a transaction pooler (PgBouncer
       * pool_mode=transaction, where a connection's session is not the client's from one transaction to the next):
       * the pool then sends no startup options and prepares no named statements, and session work uses this.
       */
      directUrl?: string;
      poolSize?: number;
    };

const POOL_WAIT_MS = 10_000;

/** The session advisory lock one migrating process holds (the others wait on it): hashtext('erp:migrations'). */
const MIGRATION_LOCK = "hashtext('erp:migrations')";

// Timestamps come back as Date objects and numeric stays a string (exact money); bigint counts become numbers.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") {
    // JIT off: a request's statements are short, and a bulk edit's single statement spent 0.3-0.6 s compiling its
    // expressions before touching a row (bench/RESULTS.md). Through a transaction pooler it goes with each transaction's
    // scope instead: PgBouncer refuses the startup option, and a session setting would stay on its server connection.
    const pooled = !!options.directUrl && options.directUrl !== options.url;
    const sessionUrl = options.directUrl ?? options.url;
    const jitOff = pooled ? ", set_config('jit', 'off', true)" : "";
    // A checkout waits at most POOL_WAIT_MS: past it the call answers 503 rather than queueing without bound (calls
    // already wait their turn in the process before they ask for a connection: server/http/admission.ts).
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 20,
      connectionTimeoutMillis: POOL_WAIT_MS,
      ...(pooled ? {} : { options: "-c jit=off" }),
    });
    pool.on("error", () => {}); // an idle client's error is retried by the next checkout; never crash the process
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    // BEGIN and the scope go out as one simple query: one round trip less on every request.
    registerScopedRunner(db, async (scopeStatement, fn, prelude) => {
      const client = await pool.connect().catch((err: Error) => {
        throw Object.assign(new Error(`no database connection: ${err.message}`, { cause: err }), { code: "57P03" });
      });
      let broken = false;
      try {
        const opened = await client.query(`begin; ${scopeStatement}${jitOff}${prelude ? `; ${prelude}` : ""}`);
        const tx = pgTxOn(client, !pooled);
        const result = await fn(tx, prelude ? (opened as unknown as pg.QueryResult[]).at(-1)!.rows : []);
        await client.query("commit");
        return result;
      } catch (err) {
        await client.query("rollback").catch(() => {
          broken = true;
        });
        throw err;
      } finally {
        client.release(broken);
      }
    });
    return {
      kind: "postgres",
      db,
      pool,
      sessionUrl,
      migrate: () => migratePostgres(sessionUrl),
      // The tenants' own databases' pools (issue 31) close with the shared one.
      close: async () => {
        await closeTenantRouter(db);
        await pool.end();
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const parsers = { 20: (v: string) => Number(v) };
  // In the worker thread by default, so SQL runs on a second core and a long statement does not stall HTTP.
  const proxy = options.inProcess
    ? null
    : await PGliteProxy.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, parsers, extensions: ["pg_trgm"] });
  const pglite =
    (proxy as unknown as PGlite | null) ??
    (await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, parsers, extensions: { pg_trgm } }));
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  if (proxy) {
    // BEGIN, the scope and the prelude (the session check) cross to the worker as one message, as they go to PostgreSQL
    // as one query: the proxy opens the transaction with its first statement. The prelude goes as a simple query (its
    // values are inlined): PGlite's extended protocol costs a statement five more steps.
    registerScopedRunner(db, (scopeStatement, fn, prelude) =>
      proxy.transaction(
        async (tx) => {
          const scoped = drizzlePglite(tx as unknown as PGlite) as unknown as Tx;
          return fn(scoped, prelude ? rowsOf(await drizzlePglite(simpleQueriesOf(tx)).execute(sql.raw(prelude))) : []);
        },
        { init: scopeStatement },
      ),
    );
  }
  return {
    kind: "pglite",
    db,
    pglite,
    migrate: () => migratePglite(drizzlePglite(pglite), { migrationsFolder }),
    close: () => pglite.close(),
  };
}

/** A PGlite transaction for drizzle whose statements (without parameters) go as simple queries, read as drizzle reads. */
function simpleQueriesOf(tx: Transaction): PGlite {
  return {
    query: async (text: string, params: unknown[] | undefined, options?: QueryOptions) => {
      if (params?.length) throw new Error("a simple query takes no parameters");
      return (await tx.exec(text, options)).at(-1)!;
    },
  } as unknown as PGlite;
}

/**
 * The migrations on a connection of their own (DDL stays off a transaction pooler), under a session advisory lock:
 * of processes starting at once on one database, one migrates and the others wait, then find nothing to apply.
 */
export async function migratePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(${MIGRATION_LOCK})`);
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    // Ending the session releases the lock too (also when a migration failed).
    await client.end().catch(() => {});
  }
}

/** The PostgreSQL connection under a request's transaction, for statements sent as text without drizzle, and whether
 *  named prepared statements may be used on it (not through a transaction pooler). */
const pgClients = new WeakMap<Tx, { client: pg.PoolClient | pg.Client; named: boolean }>();

/** A drizzle transaction handle over a PostgreSQL connection inside its transaction (textRows use the connection). */
export function pgTxOn(client: pg.PoolClient | pg.Client, named = true): Tx {
  const tx = drizzlePg(client) as unknown as Tx;
  pgClients.set(tx, { client, named });
  return tx;
}

/**
 * Runs a statement written as text with $1… parameters in the transaction, for the hottest reads, where rendering a
 * drizzle statement costs more server CPU than the statement costs the database. With `name`, on PostgreSQL it is a
 * named prepared statement, planned once per connection (only for fixed text), except through a transaction pooler
 * (where the next transaction may find another server connection, without it); PGlite just executes it.
 */
export async function textRows<T>(tx: Tx, text: string, values: unknown[], name?: string): Promise<T[]> {
  const on = pgClients.get(tx);
  if (on) return (await on.client.query(name && on.named ? { name, text, values } : { text, values })).rows as T[];
  return rowsOf<T>(await tx.execute(sqlOfText(text, values)));
}

/**
 * A statement's $n parameters, for a hot read's WHERE written as text (the listing and order lists): rendering such a
 * statement with drizzle cost the server more CPU per call than the statement cost the database.
 */
export class Params {
  readonly values: unknown[] = [];
  /** The caller's tenant, always $1. */
  readonly tenant: string;
  constructor(tenantId: string) {
    this.tenant = this.add(tenantId);
  }
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  list(values: unknown[]): string {
    return values.map((v) => this.add(v)).join(", ");
  }
}

/** A table's columns as SQL text ("orders"."tenant_id"), named from the schema. */
export function columnsText<T extends Table>(table: T): Record<keyof T["$inferSelect"], string> {
  const name = getTableName(table);
  return Object.fromEntries(Object.entries(getTableColumns(table)).map(([key, c]) => [key, `"${name}"."${c.name}"`])) as Record<
    keyof T["$inferSelect"],
    string
  >;
}

/** Text with $1… parameters as a drizzle statement (a parameter used twice is sent twice). */
export function sqlOfText(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const out = sql.empty();
  parts.forEach((part, i) => out.append(i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`));
  return out;
}

export function databaseOptionsFromConfig(c: {
  databaseUrl?: string;
  databaseDirectUrl?: string;
  dataDir: string;
  dbPoolSize: number;
  pgliteWorker: boolean;
}): DatabaseOptions {
  return c.databaseUrl
    ? { kind: "postgres", url: c.databaseUrl, directUrl: c.databaseDirectUrl, poolSize: c.dbPoolSize }
    : { kind: "pglite", dataDir: join(c.dataDir, "pglite"), inProcess: !c.pgliteWorker };
}
