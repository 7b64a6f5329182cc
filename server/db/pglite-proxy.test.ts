// The worker proxy answers exactly as in-process PGlite: the same script of queries (every type the app reads, drizzle's
// parsers, errors, transactions, concurrent callers, notifications) runs against both and the logs must be equal.
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { bigint, jsonb, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { fromPglite } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./client.ts";
import { encodeParsers, PGliteProxy } from "./pglite-proxy.ts";
import { tenants } from "./schema.ts";
import { TEMPLATE_ENV } from "../testing/templates.ts";
import { whileUserWaits } from "../user-waiting.ts";

type Client = PGlite; // the proxy is handed around as PGlite, as openDatabase does
type Log = unknown[];

// drizzle-orm/pglite's query config: timestamps, dates, intervals and numeric/timestamp arrays stay text.
const identity = (v: string) => v;
const drizzleParsers = Object.fromEntries([1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, identity]));
const drizzleArray: QueryOptions = { rowMode: "array", parsers: drizzleParsers };
const drizzleObject: QueryOptions = { rowMode: "object", parsers: drizzleParsers };

const everyType = `select
  1::int2 as i2, 2147483647::int4 as i4, 9007199254740991::int8 as i8, 12345678901234567890::int8::numeric as big,
  1.5::float4 as f4, 0.1::float8 as f8, 12.3400::numeric(10,4) as money, 'NaN'::numeric as nan, true as yes, false as no,
  'text ñ 中文'::text as t, 'a'::varchar(3) as v, 'c'::char(2) as ch, '6f1c2ab0-7d3e-4a6b-9c1d-2e3f4a5b6c7d'::uuid as id,
  '{"a":[1,{"b":null}],"c":"d"}'::json as js, '{"x":1.50,"y":[true,"z"]}'::jsonb as jb, 'null'::jsonb as jnull,
  '2024-02-29 23:59:58.123456+08'::timestamptz as tz, '2024-02-29 23:59:58'::timestamp as ts, '2024-02-29'::date as d,
  '1 day 02:03:04'::interval as iv, '12:34:56'::time as tm, '\\x00ff10'::bytea as bin, 'abc'::bytea as bin2,
  array[1,2,null]::int4[] as ia, array[1,2]::int8[] as ba, array['a','b c','"q"',null]::text[] as ta,
  array[1.10, 2]::numeric[] as na, array['2024-01-01 00:00:00+00']::timestamptz[] as tza,
  array['2024-01-01 00:00:00']::timestamp[] as tsa, array['2024-01-01']::date[] as da, array['1 hour']::interval[] as iva,
  array['{"k":1}']::jsonb[] as jba, array[true,false] as boa, '{{1,2},{3,4}}'::int4[][] as ia2,
  null::text as nt, null::int8 as ni, null::jsonb as nj, null::timestamptz as ntz, 'a b'::tsvector as tsv,
  'A'::"char" as qc, 16::oid as o, '192.168.0.1'::inet as ip, point(1,2) as pt`;

/** An error as data: its class, message and every own field (PGlite's query options are checked by identity). */
function errorData(e: unknown, options?: QueryOptions): Record<string, unknown> {
  const err = e as Error & Record<string, unknown>;
  const { queryOptions, cause, ...fields } = Object.fromEntries(Object.entries(err));
  if ("query" in fields && options) expect(queryOptions).toBe(options);
  // drizzle wraps the driver's error; its query options hold drizzle's own parser functions, new on every query.
  const wrapped = cause instanceof Error ? { cause: errorData(cause) } : {};
  return { class: Object.getPrototypeOf(err).constructor.name, message: err.message, ...fields, ...wrapped };
}

async function attempt<T>(log: Log, label: string, fn: () => Promise<T>, options?: QueryOptions): Promise<T | undefined> {
  try {
    const value = await fn();
    log.push([label, "ok", value]);
    return value;
  } catch (e) {
    log.push([label, "error", errorData(e, options)]);
    return undefined;
  }
}

/** The script: everything the app does with PGlite, logged. */
async function script(p: Client): Promise<Log> {
  const log: Log = [];
  await attempt(log, "types default", () => p.query(everyType));
  await attempt(log, "types drizzle array", () => p.query(everyType, [], drizzleArray), drizzleArray);
  await attempt(log, "types drizzle object", () => p.query(everyType, [], drizzleObject), drizzleObject);
  await attempt(log, "ddl", () =>
    p.exec(`
      create table proxy_t (id int primary key, name text not null unique, doc jsonb, amount numeric(12,2), at timestamptz,
        raw bytea, tags text[], n int8);
      create index on proxy_t using gin (name gin_trgm_ops);`),
  );
  const params = [
    1,
    "one",
    { a: [1, "x"], b: null },
    "12.50",
    new Date("2024-05-06T07:08:09.010Z"),
    new Uint8Array([0, 1, 255]),
    ["a", "b"],
    42,
  ];
  await attempt(log, "insert returning", () => p.query("insert into proxy_t values ($1, $2, $3, $4, $5, $6, $7, $8) returning *", params));
  await attempt(log, "insert nulls", () =>
    p.query("insert into proxy_t values ($1, $2, $3, $4, $5, $6, $7, $8)", [2, "two", null, null, null, null, null, null]),
  );
  await attempt(log, "update", () => p.query("update proxy_t set amount = amount + 1 where id > $1", [0]));
  await attempt(log, "select params", () =>
    p.query("select * from proxy_t where at < $1 and doc @> $2 and tags && $3", [new Date("2030-01-01"), { a: [1] }, ["b"]]),
  );
  await attempt(log, "trgm", () => p.query("select name from proxy_t where name % $1 order by name", ["one"]));
  await attempt(log, "exec multi", () =>
    p.exec("select 1 as a; update proxy_t set n = n where false; select name from proxy_t order by id"),
  );
  await attempt(log, "paramTypes", () => p.query("select $1 as x", ["5"], { paramTypes: [20] }));
  await attempt(log, "sql template", () => p.sql`select ${"tpl"}::text as t, ${7}::int as n`);
  await attempt(log, "empty", () => p.query("select * from proxy_t where false"));

  // Errors with PostgreSQL's fields: unique (23505 with detail/constraint), not null, division, syntax, unknown table.
  const opts: QueryOptions = { rowMode: "array", parsers: drizzleParsers };
  await attempt(log, "unique", () => p.query("insert into proxy_t (id, name) values ($1, $2)", [3, "one"], opts), opts);
  await attempt(log, "not null", () => p.query("insert into proxy_t (id) values (9)"));
  await attempt(log, "division", () => p.query("select 1 / $1::int", [0]));
  await attempt(log, "syntax", () => p.exec("selec 1"));
  await attempt(log, "no table", () => p.query("select * from nowhere"));
  await attempt(log, "bad json", () => p.query("select $1::jsonb", ["{nope"]));

  // A transaction whose function throws: rolled back, and the very error thrown comes back.
  const thrown = new Error("stop here");
  await attempt(log, "tx throws", async () => {
    try {
      await p.transaction(async (tx) => {
        await tx.query("insert into proxy_t (id, name) values (10, 'ten')");
        throw thrown;
      });
    } catch (e) {
      expect(e).toBe(thrown);
      throw e;
    }
  });
  // A statement error inside: rolled back, the database error rethrown.
  await attempt(log, "tx statement error", () =>
    p.transaction(async (tx) => {
      await tx.query("insert into proxy_t (id, name) values (11, 'eleven')");
      await tx.query("insert into proxy_t (id, name) values (12, 'one')");
    }),
  );
  // An error swallowed inside: COMMIT turns into ROLLBACK and PGlite says so (25P02).
  await attempt(log, "tx swallowed error", () =>
    p.transaction(async (tx) => {
      await tx.query("insert into proxy_t (id, name) values (13, 'thirteen')");
      await tx.query("select 1/0").catch(() => {});
      return "returned";
    }),
  );
  // The first statement fails (it opens the transaction, so its error comes with BEGIN's answer): swallowed, COMMIT
  // turns into ROLLBACK; thrown, the transaction rolls back and the error comes back.
  await attempt(log, "tx first statement swallowed", () =>
    p.transaction(async (tx) => {
      await tx.query("select 1/0").catch(() => {});
      return "returned";
    }),
  );
  await attempt(log, "tx first statement thrown", () =>
    p.transaction(async (tx) => {
      await tx.exec("insert into proxy_t (id, name) values (16, 'one')");
    }),
  );
  // No statement, or a throw before any: nothing to commit or roll back; rollback() as the only call closes it.
  await attempt(log, "tx without statements", () => p.transaction(async () => "nothing"));
  await attempt(log, "tx throws first", () =>
    p.transaction(async () => {
      throw new Error("before any statement");
    }),
  );
  await attempt(log, "tx only rollback", () =>
    p.transaction(async (tx) => {
      await tx.rollback();
      return tx.closed;
    }),
  );
  // Statements sent together before the first answers: they run in the order sent.
  await attempt(log, "tx statements at once", () =>
    p.transaction(async (tx) =>
      Promise.all([
        tx.query("insert into proxy_t (id, name) values (17, 'seventeen') returning id"),
        tx.query("update proxy_t set n = 17 where id = 17 returning n"),
        tx.exec("select count(*)::int as c from proxy_t where id = 17"),
      ]),
    ),
  );
  // rollback() inside, then the transaction object is closed.
  await attempt(log, "tx rollback", () =>
    p.transaction(async (tx) => {
      await tx.exec("insert into proxy_t (id, name) values (14, 'fourteen')");
      await tx.rollback();
      log.push(["closed after rollback", tx.closed]);
      await attempt(log, "query after rollback", () => tx.query("select 1"));
      return "rolled back";
    }),
  );
  // A committed one, with the result and a leaked tx used afterwards.
  let leaked: { query: Client["query"] } | undefined;
  await attempt(log, "tx commit", () =>
    p.transaction(async (tx) => {
      leaked = tx;
      await tx.query("insert into proxy_t (id, name, n) values ($1, $2, $3)", [15, "fifteen", 15]);
      const r = await tx.sql`select count(*) as c from proxy_t`;
      return r.rows;
    }),
  );
  await attempt(log, "leaked tx", () => leaked!.query("select 1"));
  await attempt(log, "after transactions", () => p.query("select id, name from proxy_t order by id"));

  // Concurrent callers while a transaction holds the connection: they wait until it commits, in arrival order.
  const order: string[] = [];
  let inside!: () => void;
  const started = new Promise<void>((r) => (inside = r));
  const tx = p.transaction(async (t) => {
    order.push("tx begin");
    inside();
    await t.query("insert into proxy_t (id, name) values (20, 'twenty')");
    await sleep(150);
    await t.query("update proxy_t set n = 20 where id = 20");
    order.push("tx end");
    return "tx done";
  });
  await started;
  const others = [
    p.query<{ n: number }>("select n from proxy_t where id = 20").then((r) => (order.push(`reader saw ${r.rows[0]?.n}`), r.rows)),
    p.exec("update proxy_t set n = n + 1 where id = 20").then((r) => (order.push("writer"), r)),
    p.transaction(async (t) => (await t.query("select n from proxy_t where id = 20")).rows).then((r) => (order.push("second tx"), r)),
  ];
  log.push(["concurrent", await Promise.all([tx, ...others]), order]);

  // Notifications (pg-boss's notifier listens) and pg-boss's adapter.
  const heard: string[] = [];
  const unlisten = await p.listen("proxy_channel", (payload) => heard.push(payload));
  await p.query("select pg_notify('proxy_channel', 'hello')");
  await p.transaction(async (t) => void (await t.exec("notify proxy_channel, 'in tx'")));
  await sleep(20);
  await unlisten();
  await p.query("select pg_notify('proxy_channel', 'after unlisten')");
  await sleep(20);
  log.push(["notifications", heard]);
  const boss = fromPglite(p);
  await attempt(log, "pg-boss executeSql", () => boss.executeSql("select $1::int + 1 as two", [1]));
  await attempt(log, "pg-boss block", () =>
    boss.executeSql("begin; insert into proxy_t (id, name) values (30, 'thirty') returning id; commit;"),
  );
  await attempt(log, "pg-boss error", () => boss.executeSql("begin; select 1/0; commit;"));
  await attempt(log, "after pg-boss error", () => p.query("select count(*)::int as c from proxy_t"));
  return log;
}

/** drizzle on either client: typed columns (Date timestamps, jsonb, numeric as text, bigint as number), transactions. */
const items = pgTable("proxy_items", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  doc: jsonb("doc"),
  price: numeric("price", { precision: 12, scale: 2 }),
  count: bigint("count", { mode: "number" }),
  at: timestamp("at", { withTimezone: true, mode: "date" }),
});

async function drizzleScript(p: Client): Promise<Log> {
  const log: Log = [];
  const db = drizzle(p, { schema: { items, tenants } });
  await db.execute(
    sql`create table proxy_items (id uuid primary key, name text not null, doc jsonb, price numeric(12,2), count int8, at timestamptz)`,
  );
  const id = "0b0e7a8c-6a3e-4f7e-9a41-0a1b2c3d4e5f";
  const at = new Date("2024-03-04T05:06:07.089Z");
  log.push([
    "insert",
    await db
      .insert(items)
      .values({ id, name: "x", doc: { k: [1, "2"] }, price: "9.90", count: 3, at })
      .returning(),
  ]);
  log.push(["select", await db.select().from(items).where(eq(items.id, id))]);
  log.push(["execute", await db.execute(sql`select ${items.at}, ${items.doc}, count(*) over () as total from ${items}`)]);
  log.push(["relational", await db.query.items.findFirst({ where: eq(items.name, "x") })]);
  await attempt(log, "drizzle duplicate", () => db.insert(items).values({ id, name: "dup" }));
  await attempt(log, "drizzle tx", () =>
    db.transaction(async (tx) => {
      await tx.update(items).set({ count: 4 }).where(eq(items.id, id));
      await tx.transaction(async (inner) => {
        await inner.update(items).set({ name: "savepoint" });
        inner.rollback();
      });
      return tx.select({ name: items.name, count: items.count }).from(items);
    }),
  );
  log.push(["tenants (migrated schema)", (await db.select({ id: tenants.id }).from(tenants)).length >= 0]);
  return log;
}

// The run on PostgreSQL names a template database there; these PGlite instances then migrate their own.
const template = process.env.DATABASE_URL ? undefined : process.env[TEMPLATE_ENV];
let inProcess: Database;
let proxied: Database;

beforeAll(async () => {
  const loadDataDir = template ? new Blob([readFileSync(template)]) : undefined;
  [inProcess, proxied] = await Promise.all([
    openDatabase({ kind: "pglite", inProcess: true, loadDataDir }),
    openDatabase({ kind: "pglite", loadDataDir }),
  ]);
  if (!template) await Promise.all([inProcess.migrate(), proxied.migrate()]);
});
afterAll(async () => {
  await inProcess?.close();
  await proxied?.close();
});

describe("PGlite in the worker thread", () => {
  it("is the worker proxy by default", () => {
    expect(proxied.pglite).toBeInstanceOf(PGliteProxy);
    expect(inProcess.pglite).toBeInstanceOf(PGlite);
  });

  it("answers the script exactly as in-process PGlite: rows, fields, counts, errors, transactions, waiting callers", async () => {
    const expected = await script(inProcess.pglite!);
    const actual = await script(proxied.pglite!);
    expect(actual).toStrictEqual(expected);
    // The script did reach the interesting cases.
    const text = JSON.stringify(expected);
    for (const code of ["23505", "23502", "22012", "42601", "42P01", "22P02", "25P02"]) expect(text).toContain(`"code":"${code}"`);
    expect(text).toContain('"constraint":"proxy_t_name_key"');
    expect(text).toContain("Transaction is closed");
    expect(expected.find((e) => Array.isArray(e) && e[0] === "concurrent")).toEqual([
      "concurrent",
      expect.anything(),
      ["tx begin", "tx end", "reader saw 20", "writer", "second tx"],
    ]);
    expect(expected.find((e) => Array.isArray(e) && e[0] === "notifications")).toEqual(["notifications", ["hello", "in tx"]]);
  });

  it("answers drizzle's queries exactly as in-process PGlite", async () => {
    expect(await drizzleScript(proxied.pglite!)).toStrictEqual(await drizzleScript(inProcess.pglite!));
  });

  it("dumps and loads a data directory across the thread boundary", async () => {
    const p = proxied.pglite!;
    await p.exec("create table proxy_dump (v text); insert into proxy_dump values ('kept')");
    const dump = await p.dumpDataDir("none");
    expect(dump).toBeInstanceOf(File);
    const fromDump = await PGliteProxy.create({ loadDataDir: dump, extensions: ["pg_trgm"] });
    expect((await fromDump.query("select v from proxy_dump")).rows).toEqual([{ v: "kept" }]);
    const inProcessFromDump = await PGlite.create({ loadDataDir: dump, extensions: { pg_trgm } });
    expect((await inProcessFromDump.query("select v from proxy_dump")).rows).toEqual([{ v: "kept" }]);
    await inProcessFromDump.close();
    await fromDump.close();
    expect(fromDump.closed).toBe(true);
    await expect(fromDump.query("select 1")).rejects.toThrow("PGlite is closed");
  });

  it("gives the connection to a request before queued background work when it frees, and a turn to the background after 8", async () => {
    const p = proxied.pglite!;
    const done: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // A background transaction holds the connection while background statements and requests queue behind it.
    let opened!: () => void;
    const isOpen = new Promise<void>((r) => (opened = r));
    const holder = p.transaction(async (tx) => {
      await tx.query("select 1");
      opened();
      await held;
    });
    await isOpen;
    const queued = [
      p.query("select 'job 1'").then(() => done.push("job 1")),
      p.query("select 'job 2'").then(() => done.push("job 2")),
      ...Array.from({ length: 9 }, (_, i) =>
        whileUserWaits(() => p.transaction(async (tx) => tx.query(`select ${i}`))).then(() => done.push(`request ${i + 1}`)),
      ),
    ];
    // Messages reach the worker in the order they were sent: all of these are queued before the holder's commit.
    release();
    await Promise.all([holder, ...queued]);
    expect(done).toEqual([...Array.from({ length: 8 }, (_, i) => `request ${i + 1}`), "job 1", "request 9", "job 2"]);
  });

  it("refuses a parser it cannot carry to the worker", async () => {
    expect(encodeParsers({ 20: (v) => Number(v), 1184: (v) => v })).toEqual({ 20: "number", 1184: "raw" });
    expect(() => encodeParsers({ 1184: (v) => new Date(v) })).toThrow(/type 1184/);
    await expect(proxied.pglite!.query("select 1", [], { parsers: { 25: (v) => v.toUpperCase() } })).rejects.toThrow(/type 25/);
  });

  it("keeps this thread's event loop free while a long statement runs", async () => {
    const heavy = "select sum(i % 7)::int8 as s from generate_series(1, 1000000) i";
    /** Runs the statement while counting the turns of this thread's event loop, and the longest gap between two timer ticks. */
    const watch = async (run: () => Promise<Results>) => {
      let turns = 0;
      let running = true;
      const turn = () => {
        if (!running) return;
        turns++;
        setImmediate(turn);
      };
      let last = performance.now();
      let longest = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 5);
      setImmediate(turn);
      const t0 = performance.now();
      await run();
      const took = performance.now() - t0;
      running = false;
      clearInterval(timer);
      return { turns, took, longest: Math.max(longest, performance.now() - last) };
    };
    const worker = await watch(() => proxied.pglite!.query(heavy));
    const local = await watch(() => inProcess.pglite!.query(heavy));
    console.log(
      `[pglite-proxy] a 1M-row sum: in the worker ${worker.took.toFixed(0)} ms, ${worker.turns} event loop turns meanwhile, longest timer gap ${worker.longest.toFixed(0)} ms; in process ${local.took.toFixed(0)} ms, ${local.turns} turns, longest gap ${local.longest.toFixed(0)} ms`,
    );
    // In-process the statement blocks the loop for its whole length; in the worker the loop keeps turning meanwhile.
    expect(local.longest).toBeGreaterThan(local.took * 0.8);
    expect(worker.turns).toBeGreaterThan(local.turns);
  });
});
