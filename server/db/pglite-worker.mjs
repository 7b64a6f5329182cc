// The PGlite worker thread: one PGlite instance, driven by messages from PGliteProxy (pglite-proxy.ts), so SQL runs on
// its own core and the server's event loop stays free for HTTP. Plain JavaScript on purpose: on Node 20 neither tsx's
// register() nor `--import tsx` reaches a worker thread, so a .ts worker would not load under `npm start` or vitest.
//
// Every request is handed to PGlite as it arrives; PGlite's own mutexes serialize statements and keep a transaction's
// connection exclusive, exactly as in-process. Values cross the thread boundary by structured clone.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, protocol, TransactionAbortedError } from "@electric-sql/pglite";

/** @typedef {Record<string, "raw" | "number">} ParserCodes oid → how the value is read (see encodeParsers). */

/** @param {ParserCodes | undefined} codes */
function decodeParsers(codes) {
  if (!codes) return undefined;
  /** @type {Record<number, (v: string) => unknown>} */
  const parsers = {};
  for (const [oid, code] of Object.entries(codes)) parsers[Number(oid)] = code === "number" ? (v) => Number(v) : (v) => v;
  return parsers;
}

/** @param {{ rowMode?: "array" | "object"; paramTypes?: number[]; parsers?: ParserCodes } | undefined} o */
function decodeOptions(o) {
  if (!o) return undefined;
  return { rowMode: o.rowMode, paramTypes: o.paramTypes, parsers: decodeParsers(o.parsers) };
}

/** An error as plain data: PostgreSQL's fields (code, detail, constraint…) and PGlite's query/params. */
function serializeError(e) {
  if (!(e instanceof Error)) return { kind: "Error", message: String(e), fields: {} };
  const kind =
    e instanceof TransactionAbortedError
      ? "TransactionAbortedError"
      : e instanceof protocol.messages.DatabaseError
        ? "DatabaseError"
        : "Error";
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [k, v] of Object.entries(e)) {
    if (k === "queryOptions" || typeof v === "function") continue; // the caller still holds its options
    fields[k] = v;
  }
  return { kind, name: e.name, message: e.message, fields };
}

const { dataDir, loadDataDir, wasmModule, parsers, extensions } = workerData;
/** @type {Record<string, unknown>} */
const loaded = {};
for (const name of extensions ?? []) loaded[name] = (await import(`@electric-sql/pglite/contrib/${name}`))[name];

/** @type {PGlite} */
let pglite;
try {
  pglite = await PGlite.create({
    dataDir,
    loadDataDir,
    pgliteWasmModule: wasmModule,
    parsers: decodeParsers(parsers),
    extensions: loaded,
  });
} catch (e) {
  parentPort.postMessage({ type: "failed", error: serializeError(e) });
  throw e;
}

/** Open transactions: PGlite's transaction callback is held open until the main thread commits or aborts. */
const transactions = new Map();
let nextTransaction = 1;
const ABORT = Symbol("abort");
/** Listen subscriptions by the main thread's id → PGlite's unsubscribe. */
const listeners = new Map();

function txOf(id) {
  const t = transactions.get(id);
  if (!t) throw new Error("Transaction is closed"); // PGlite's own message for a finished transaction
  return t.tx;
}

/** A statement's outcome as data, its error as one that crosses to the other thread. */
async function settled(run) {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    return { ok: false, error: cloneableError(serializeError(e)) };
  }
}

/** The error, or without its fields when one of them cannot be cloned (a parameter value): it still reaches the caller. */
function cloneableError(error) {
  try {
    structuredClone(error);
    return error;
  } catch {
    return { ...error, fields: { code: error.fields.code } };
  }
}

/**
 * The connection's turns. A transaction, or a statement outside one, holds the one connection; when it frees, a caller
 * a user waits on (`urgent`, a request) goes before queued background work (jobs, the job queue's polls), so a large
 * job does not put every screen behind its statements. After 8 urgent turns in a row a waiting background caller gets
 * one, so jobs are slowed by screens, never stopped. Statements inside a transaction already hold the turn.
 */
const turns = { busy: false, urgent: [], background: [], urgentInARow: 0 };
const URGENT_IN_A_ROW = 8;

function takeTurn(urgent) {
  if (!turns.busy) {
    turns.busy = true;
    return Promise.resolve();
  }
  return new Promise((resolve) => (urgent ? turns.urgent : turns.background).push(resolve));
}

function giveTurn() {
  const backgroundsTurn = turns.background.length && (!turns.urgent.length || turns.urgentInARow >= URGENT_IN_A_ROW);
  const next = backgroundsTurn ? turns.background.shift() : turns.urgent.shift();
  turns.urgentInARow = backgroundsTurn ? 0 : next ? turns.urgentInARow + 1 : 0;
  if (next) next();
  else turns.busy = false;
}

/** Runs a statement outside a transaction in its turn. */
async function inTurn(m, run) {
  await takeTurn(m.urgent);
  try {
    return await run();
  } finally {
    giveTurn();
  }
}

const handlers = {
  query: (m) =>
    m.tx
      ? txOf(m.tx).query(m.text, m.params, decodeOptions(m.options))
      : inTurn(m, () => pglite.query(m.text, m.params, decodeOptions(m.options))),
  exec: (m) => (m.tx ? txOf(m.tx).exec(m.text, decodeOptions(m.options)) : inTurn(m, () => pglite.exec(m.text, decodeOptions(m.options)))),
  // BEGIN, the transaction's `init` (a request's scope) and its first statement arrive as one message and answer as one:
  // the transaction holds the connection from its first statement on, never idle waiting for the next message to come.
  begin: async (m) => {
    await takeTurn(m.urgent);
    return new Promise((started, failed) => {
      const id = nextTransaction++;
      const done = pglite.transaction(async (tx) => {
        if (m.init) await tx.exec(m.init);
        const held = new Promise((resolve, reject) => transactions.set(id, { tx, resolve, reject, done }));
        started({ id, first: m.first ? await settled(() => handlers[m.first.op]({ ...m.first, tx: id })) : null });
        return held;
      });
      done.then(
        () => {
          transactions.delete(id);
          giveTurn();
        },
        (e) => {
          transactions.delete(id);
          giveTurn();
          failed(e); // BEGIN or the init failed (no-op once started)
        },
      );
    });
  },
  commit: async (m) => {
    const t = transactions.get(m.tx);
    if (!t) throw new Error("Transaction is closed");
    t.resolve();
    await t.done;
  },
  // The caller's function threw: PGlite rolls back (unless tx.rollback() already did) and we report only a failure of
  // the rollback itself; the caller rethrows its own error.
  abort: async (m) => {
    const t = transactions.get(m.tx);
    if (!t) return;
    t.reject(ABORT);
    try {
      await t.done;
    } catch (e) {
      if (e !== ABORT) throw e;
    }
  },
  rollback: (m) => txOf(m.tx).rollback(),
  listen: async (m) => {
    const unsubscribe = await pglite.listen(
      m.channel,
      (payload) => parentPort.postMessage({ type: "notify", listener: m.listener, payload }),
      m.tx ? txOf(m.tx) : undefined,
    );
    listeners.set(m.listener, unsubscribe);
  },
  unlisten: async (m) => {
    const unsubscribe = listeners.get(m.listener);
    listeners.delete(m.listener);
    if (unsubscribe) await unsubscribe(m.tx ? txOf(m.tx) : undefined);
  },
  dumpDataDir: async (m) => {
    const file = await pglite.dumpDataDir(m.compression);
    return { bytes: await file.arrayBuffer(), name: file instanceof File ? file.name : undefined, type: file.type };
  },
  close: () => pglite.close(),
};

parentPort.on("message", async (m) => {
  let value;
  try {
    value = await handlers[m.op](m);
    const transfer = m.op === "dumpDataDir" ? [value.bytes] : [];
    parentPort.postMessage({ type: "reply", id: m.id, ok: true, value }, transfer);
  } catch (e) {
    // a transaction whose opening answer could not cross is rolled back: its caller never learns its id
    if (m.op === "begin" && value) transactions.get(value.id)?.reject(ABORT);
    parentPort.postMessage({ type: "reply", id: m.id, ok: false, error: cloneableError(serializeError(e)) });
  }
});
parentPort.postMessage({ type: "ready" });
