// PGlite in a worker thread (pglite-worker.mjs), behind the part of PGlite's API this server uses: drizzle
// (query with rowMode/parsers, transaction), drizzle's migrator, pg-boss's fromPglite (query, exec, listen),
// dumpDataDir/loadDataDir for the test templates, close. PGlite is WASM in-process, so in the server's thread every
// statement blocked HTTP; in the worker it runs on a second core while the event loop keeps serving.
//
// Semantics are PGlite's own, because the worker calls the real PGlite: statements are serialized, a transaction holds
// the connection until it commits or rolls back (others wait), an error inside it rolls back and reaches the caller
// unchanged, and database errors keep their PostgreSQL fields (code, detail, constraint…) and class.
//
// PGlite's `@electric-sql/pglite/worker` does not fit: it is written for browser Web Workers (navigator.locks, which
// Node 20 lacks; the worker side uses the global postMessage/addEventListener, not worker_threads' parentPort) and its
// RPC errors carry only `message`, losing the SQLSTATE the server maps to 409/400.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { protocol, TransactionAbortedError, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import { query as templateQuery } from "@electric-sql/pglite/template";
import { userIsWaiting } from "../user-waiting.ts";

/** The part of PGlite's API the server uses; the proxy answers each of these exactly as PGlite would. */
type PGliteClient = Pick<PGlite, "query" | "sql" | "exec" | "transaction" | "listen" | "dumpDataDir" | "close" | "waitReady">;

export type PGliteProxyOptions = {
  dataDir?: string;
  loadDataDir?: Blob;
  /** Parsers by type oid; only "keep the text" (identity) and `Number(v)` can cross to the worker. */
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
  /** Contrib extensions by name (`@electric-sql/pglite/contrib/<name>`), loaded in the worker. */
  extensions?: string[];
};

type ParserCodes = Record<number, "raw" | "number">;
type WireOptions = { rowMode?: "array" | "object"; paramTypes?: number[]; parsers?: ParserCodes };
type WireError = {
  kind: "DatabaseError" | "TransactionAbortedError" | "Error";
  name?: string;
  message: string;
  fields: Record<string, unknown>;
};
/** The answer to the statement that opened a transaction (it rode with BEGIN). */
type FirstResult = { ok: true; value: unknown } | { ok: false; error: WireError };
type Reply = { type: "reply"; id: number; ok: true; value: unknown } | { type: "reply"; id: number; ok: false; error: WireError };
type FromWorker = Reply | { type: "ready" } | { type: "failed"; error: WireError } | { type: "notify"; listener: number; payload: string };

/**
 * PGlite's WASM compiled once per process and shared with every worker (a WebAssembly.Module crosses threads without
 * being compiled again), as in-process PGlite caches it; compiling overlaps the worker's start.
 */
let pgliteWasm: Promise<WebAssembly.Module> | undefined;
function compiledPgliteWasm(): Promise<WebAssembly.Module> {
  const path = join(dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), "pglite.wasm");
  pgliteWasm ??= readFile(path).then((bytes) => WebAssembly.compile(bytes));
  return pgliteWasm;
}

const PROBE = "\u0001pglite-proxy 42.5\u0002";
const parserCodeCache = new WeakMap<object, ParserCodes>();

/**
 * Functions cannot cross threads, so a parser travels as what it does. drizzle passes identity parsers (timestamps,
 * dates, intervals and numeric/timestamp arrays stay text) and the server reads bigint with Number; anything else is
 * refused loudly rather than silently parsed differently.
 */
export function encodeParsers(parsers: Record<number, (value: string, typeId: number) => unknown> | undefined): ParserCodes | undefined {
  if (!parsers) return undefined;
  const cached = parserCodeCache.get(parsers);
  if (cached) return cached;
  const codes: ParserCodes = {};
  for (const [oid, fn] of Object.entries(parsers)) {
    const typeId = Number(oid);
    let code: "raw" | "number" | null = null;
    try {
      if (fn(PROBE, typeId) === PROBE && fn("12", typeId) === "12") code = "raw";
      else if (fn("12", typeId) === 12 && fn("-1.5e3", typeId) === -1500 && Number.isNaN(fn(PROBE, typeId))) code = "number";
    } catch {
      // a parser that rejects the probe is neither
    }
    if (!code) throw new Error(`PGlite worker: the parser for type ${oid} is neither identity nor Number, so it cannot run in the worker`);
    codes[typeId] = code;
  }
  parserCodeCache.set(parsers, codes);
  return codes;
}

function encodeOptions(options: QueryOptions | undefined): WireOptions | undefined {
  if (!options) return undefined;
  if (options.serializers || options.blob || options.onNotice) {
    throw new Error("PGlite worker: the serializers, blob and onNotice query options are not supported");
  }
  return { rowMode: options.rowMode, paramTypes: options.paramTypes, parsers: encodeParsers(options.parsers) };
}

/** Rebuilds the worker's error as PGlite would have thrown it in this thread. */
function rebuildError(e: WireError, options?: QueryOptions): Error {
  let err: Error;
  if (e.kind === "TransactionAbortedError") err = new TransactionAbortedError();
  else if (e.kind === "DatabaseError") err = new protocol.messages.DatabaseError(e.message, 0, "error");
  else err = new Error(e.message);
  // DatabaseError's name and length are readonly in its type only; the values are plain own properties.
  Object.assign(err, e.fields, e.name !== undefined ? { name: e.name } : {});
  if (e.kind !== "Error" && "query" in e.fields) (err as { queryOptions?: QueryOptions }).queryOptions = options;
  return err;
}

export class PGliteProxy implements PGliteClient {
  readonly dataDir?: string;
  readonly waitReady: Promise<void>;
  #worker: Worker;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; options?: QueryOptions }>();
  #nextId = 1;
  #listeners = new Map<number, (payload: string) => void>();
  #nextListener = 1;
  #ready = false;
  #closed = false;
  #closing: Promise<void> | null = null;
  #dead: Error | null = null;

  private constructor(worker: Worker, dataDir: string | undefined) {
    this.dataDir = dataDir;
    this.#worker = worker;
    worker.unref(); // like an in-process PGlite, an idle database keeps nothing alive; #call refs it while waiting
    this.waitReady = new Promise<void>((resolve, reject) => {
      worker.on("message", (m: FromWorker) => {
        if (m.type === "reply") this.#settle(m);
        else if (m.type === "notify") this.#listeners.get(m.listener)?.(m.payload);
        else if (m.type === "ready") {
          this.#ready = true;
          resolve();
        } else if (m.type === "failed") reject(rebuildError(m.error));
      });
      const die = (err: Error) => {
        this.#dead ??= err;
        reject(err);
        for (const p of this.#pending.values()) p.reject(err);
        this.#pending.clear();
        worker.unref();
      };
      worker.on("error", die);
      worker.on("exit", (code) => die(new Error(this.#closed ? "PGlite is closed" : `PGlite worker exited (code ${code})`)));
    });
    this.waitReady.catch(() => {}); // observed by create(); a later failure reaches every call instead
  }

  /** Starts the worker and waits until its PGlite is ready (migrations are not run here). */
  static async create(options: PGliteProxyOptions = {}): Promise<PGliteProxy> {
    const workerData = {
      dataDir: options.dataDir,
      // A Blob crosses to the worker without a copy; PGlite reads it there, as it would here.
      loadDataDir: options.loadDataDir,
      wasmModule: await compiledPgliteWasm(),
      parsers: encodeParsers(options.parsers),
      extensions: options.extensions ?? [],
    };
    const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), {
      workerData,
      // vitest and tsx pass their loaders in execArgv; the worker is plain JavaScript and needs none of them.
      execArgv: [],
    });
    const proxy = new PGliteProxy(worker, options.dataDir);
    worker.ref(); // until ready
    try {
      await proxy.waitReady;
    } catch (e) {
      await worker.terminate();
      throw e;
    } finally {
      if (!proxy.#pending.size) worker.unref();
    }
    return proxy;
  }

  get ready(): boolean {
    return this.#ready && !this.#closed;
  }

  get closed(): boolean {
    return this.#closed;
  }

  #settle(m: Reply) {
    const p = this.#pending.get(m.id);
    if (!p) return;
    this.#pending.delete(m.id);
    if (!this.#pending.size) this.#worker.unref();
    if (m.ok) p.resolve(m.value);
    else p.reject(rebuildError(m.error, p.options));
  }

  #call<T>(message: Record<string, unknown>, options?: QueryOptions): Promise<T> {
    if (this.#dead) return Promise.reject(this.#dead);
    if (this.#closed || (this.#closing && message.op !== "close")) return Promise.reject(new Error("PGlite is closed"));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      if (!this.#pending.size) this.#worker.ref();
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, options });
      try {
        this.#worker.postMessage({ ...message, id });
      } catch (e) {
        // a parameter that cannot be cloned (a function, a symbol)
        this.#pending.delete(id);
        if (!this.#pending.size) this.#worker.unref();
        reject(e as Error);
      }
    });
  }

  async #query<T>(tx: number | undefined, text: string, params: unknown[] | undefined, options: QueryOptions | undefined) {
    return this.#call<Results<T>>({ op: "query", tx, text, params, options: encodeOptions(options), urgent: userIsWaiting() }, options);
  }

  async #exec(tx: number | undefined, text: string, options: QueryOptions | undefined) {
    return this.#call<Results[]>({ op: "exec", tx, text, options: encodeOptions(options), urgent: userIsWaiting() }, options);
  }

  async #listen(
    tx: number | undefined,
    channel: string,
    callback: (payload: string) => void,
  ): Promise<(tx?: Transaction) => Promise<void>> {
    const listener = this.#nextListener++;
    this.#listeners.set(listener, callback);
    try {
      await this.#call({ op: "listen", tx, channel, listener });
    } catch (e) {
      this.#listeners.delete(listener);
      throw e;
    }
    return async (unlistenTx?: Transaction) => {
      this.#listeners.delete(listener);
      await this.#call({ op: "unlisten", listener, tx: unlistenTx ? await transactionIds.get(unlistenTx)?.() : undefined });
    };
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#query<T>(undefined, query, params, options);
  }

  sql<T>(sqlStrings: TemplateStringsArray, ...params: unknown[]): Promise<Results<T>> {
    const { query, params: values } = templateQuery(sqlStrings, ...params);
    return this.query<T>(query, values);
  }

  exec(query: string, options?: QueryOptions): Promise<Results[]> {
    return this.#exec(undefined, query, options);
  }

  async listen(channel: string, callback: (payload: string) => void, tx?: Transaction): Promise<(tx?: Transaction) => Promise<void>> {
    return this.#listen(tx ? await transactionIds.get(tx)?.() : undefined, channel, callback);
  }

  /**
   * PGlite's transaction: the worker opens it with PGlite's own transaction() and keeps it (and so the connection) until
   * `callback` settles here; then it commits, or rolls back and the callback's error is rethrown as it was. `init`
   * (simple-query SQL) runs first in the transaction.
   *
   * The transaction opens with its first statement: BEGIN, `init` and that statement cross to the worker as one message
   * and come back as one answer, so the connection is not held idle while this thread, between BEGIN's answer and the
   * first statement, serves other requests (issue 29's profile). A callback that sends no statement opens nothing.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>, options?: { init?: string }): Promise<T> {
    let opened: Promise<number> | null = null;
    let closed = false;
    const check = () => {
      if (closed) throw new Error("Transaction is closed");
    };
    /** Sends `message` in the transaction; the first one opens it (with no message, only opens it). */
    const send = <R>(message: Record<string, unknown> | null, queryOptions?: QueryOptions): Promise<R> => {
      if (opened) return opened.then((id) => this.#call<R>({ ...message, tx: id }, queryOptions));
      let first!: Promise<R>;
      opened = new Promise<number>((resolve, reject) => {
        const begun = this.#call<{ id: number; first: FirstResult | null }>({
          op: "begin",
          init: options?.init,
          first: message,
          urgent: userIsWaiting(), // a request's transaction goes before queued jobs (the worker's turns)
        });
        first = begun.then(
          (r) => {
            resolve(r.id);
            if (!r.first || r.first.ok) return r.first?.value as R;
            throw rebuildError(r.first.error, queryOptions);
          },
          (err: Error) => {
            reject(err); // BEGIN or `init` failed: the transaction is not open
            throw err;
          },
        );
      });
      opened.catch(() => {}); // the statement that opened it reports this; commit and abort look again
      return first;
    };
    const idOf = async () => {
      if (!opened) await send(null);
      return opened!;
    };
    const query = <R>(text: string, params: unknown[] | undefined, queryOptions: QueryOptions | undefined) =>
      send<Results<R>>({ op: "query", text, params, options: encodeOptions(queryOptions) }, queryOptions);
    const tx: Transaction = {
      query: async <R>(text: string, params?: unknown[], queryOptions?: QueryOptions) => (check(), query<R>(text, params, queryOptions)),
      sql: async <R>(sqlStrings: TemplateStringsArray, ...params: unknown[]) => {
        check();
        const { query: text, params: values } = templateQuery(sqlStrings, ...params);
        return query<R>(text, values, undefined);
      },
      exec: async (text: string, queryOptions?: QueryOptions) => (
        check(),
        send<Results[]>({ op: "exec", text, options: encodeOptions(queryOptions) }, queryOptions)
      ),
      rollback: async () => {
        check();
        if (opened) await this.#call({ op: "rollback", tx: await opened });
        closed = true;
      },
      listen: async (channel: string, callback: (payload: string) => void) => (check(), this.#listen(await idOf(), channel, callback)),
      get closed() {
        return closed;
      },
    };
    transactionIds.set(tx, idOf);
    let result: T;
    try {
      result = await callback(tx);
    } catch (err) {
      closed = true;
      const id = await (opened as Promise<number> | null)?.catch(() => null);
      if (id) await this.#call({ op: "abort", tx: id }); // a failed ROLLBACK replaces the error, as in PGlite
      throw err;
    }
    closed = true;
    if (opened) await this.#call({ op: "commit", tx: await opened });
    return result;
  }

  async dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<File | Blob> {
    const { bytes, name, type } = await this.#call<{ bytes: ArrayBuffer; name?: string; type: string }>({ op: "dumpDataDir", compression });
    return name !== undefined ? new File([bytes], name, { type }) : new Blob([bytes], { type });
  }

  /** Closes PGlite in the worker (waiting for statements in flight), then ends the thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        if (!this.#dead) await this.#call({ op: "close" });
      } finally {
        this.#closed = true;
        await this.#worker.terminate();
      }
    })();
    return this.#closing;
  }
}

/** A proxy transaction's id in the worker (opening it when no statement has yet). */
const transactionIds = new WeakMap<Transaction, () => Promise<number>>();
