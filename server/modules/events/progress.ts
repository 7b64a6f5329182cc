// Live progress (issue 15): work announces its progress with emitProgress (jobs/progress.ts), a NOTIFY in the
// writer's transaction. Each API process keeps one LISTEN (one dedicated connection on PostgreSQL, to
// DATABASE_DIRECT_URL when DATABASE_URL is a transaction pooler, where a LISTEN would stay on a server connection others
// use; PGlite's own listen), numbers what it hears and keeps the recent part in a ring, from which a reconnecting
// stream replays what it missed (routes.ts). Nothing is stored in a table: a resume the ring cannot serve tells the
// client to fetch again.
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { PROGRESS_CHANNEL, type ProgressNotice } from "../../jobs/progress.ts";

export type { ProgressNotice } from "../../jobs/progress.ts";

/** What a stream receives: an event with its id, or a reset (events may have been lost: fetch everything again). */
export type HubEntry = { type: "event"; id: string; notice: ProgressNotice } | { type: "reset" };

/** The ring keeps at most this many events, none older than RING_MAX_AGE_MS. */
const RING_SIZE = 2000;
const RING_MAX_AGE_MS = 10 * 60_000;
const RECONNECT_MS = 2000;

export type ProgressHub = {
  /**
   * Starts listening if not yet (the first stream starts it) and subscribes. Answers, taken at the moment the listener
   * joins (so nothing is missed or sent twice): the events after `lastEventId` (null when they cannot be replayed: too
   * old, or another process's id), the id a stream opened now resumes from, and the unsubscribe.
   */
  subscribe(
    listener: (entry: HubEntry) => void,
    lastEventId: string | null,
  ): Promise<{ replay: { id: string; notice: ProgressNotice }[] | null; lastId: string; unsubscribe: () => void }>;
  close(): Promise<void>;
};

function parseNotice(payload: string): ProgressNotice | null {
  try {
    const n = JSON.parse(payload) as ProgressNotice;
    return typeof n?.tenantId === "string" && typeof n.id === "string" && typeof n.kind === "string" ? n : null;
  } catch {
    return null;
  }
}

export function createProgressHub(database: Database, log: FastifyBaseLogger): ProgressHub {
  // Ids are `<epoch>-<seq>`: the epoch names this process's numbering, so an id from another process (or from before
  // a restart) is recognised and answered with a reset rather than a wrong replay.
  const epoch = randomBytes(4).toString("hex");
  let seq = 0;
  const ring: { seq: number; at: number; notice: ProgressNotice }[] = [];
  const listeners = new Set<(entry: HubEntry) => void>();
  let started: Promise<void> | null = null;
  let stopListening: (() => Promise<void>) | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const idOf = (n: number) => `${epoch}-${n}`;

  function since(lastEventId: string): { id: string; notice: ProgressNotice }[] | null {
    const m = /^([0-9a-f]+)-(\d+)$/.exec(lastEventId.trim());
    if (!m || m[1] !== epoch) return null;
    const after = Number(m[2]);
    if (after > seq) return null;
    // Resumable when nothing after `after` has left the ring.
    const oldest = ring.length ? ring[0].seq : seq + 1;
    if (oldest > after + 1) return null;
    return ring.filter((e) => e.seq > after).map((e) => ({ id: idOf(e.seq), notice: e.notice }));
  }

  function deliver(entry: HubEntry) {
    for (const l of listeners) {
      try {
        l(entry);
      } catch (err) {
        log.warn({ err }, "live progress: a stream's listener failed");
      }
    }
  }

  function hear(payload: string) {
    const notice = parseNotice(payload);
    if (!notice) return;
    const now = Date.now();
    ring.push({ seq: ++seq, at: now, notice });
    while (ring.length > RING_SIZE || (ring.length && now - ring[0].at > RING_MAX_AGE_MS)) ring.shift();
    deliver({ type: "event", id: idOf(seq), notice });
  }

  async function listenPostgres(): Promise<void> {
    const client = new pg.Client({ connectionString: database.sessionUrl });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      stopListening = null;
      client.end().catch(() => {});
      if (closed) return;
      log.warn({ err }, "live progress: the LISTEN connection was lost; reconnecting");
      // Whatever was sent while no one listened is lost: the streams' clients fetch again.
      deliver({ type: "reset" });
      retry = setTimeout(() => {
        retry = null;
        listenPostgres().catch((e: Error) => onRetryFailed(e));
      }, RECONNECT_MS);
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (m) => {
      if (m.channel === PROGRESS_CHANNEL && m.payload) hear(m.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${PROGRESS_CHANNEL}`);
    } catch (err) {
      lost = true;
      client.end().catch(() => {});
      throw err;
    }
    stopListening = async () => {
      lost = true;
      await client.end().catch(() => {});
    };
  }

  function onRetryFailed(err: Error) {
    if (closed) return;
    log.warn({ err }, "live progress: LISTEN failed; trying again");
    retry = setTimeout(() => {
      retry = null;
      listenPostgres().catch((e: Error) => onRetryFailed(e));
    }, RECONNECT_MS);
  }

  async function start(): Promise<void> {
    if (database.kind === "postgres") return listenPostgres();
    const unlisten = await database.pglite!.listen(PROGRESS_CHANNEL, hear);
    stopListening = async () => void (await unlisten().catch(() => {}));
  }

  return {
    async subscribe(listener, lastEventId) {
      if (closed) throw new Error("live progress is closed");
      started ??= start().catch((err: Error) => {
        started = null;
        throw err;
      });
      await started;
      listeners.add(listener);
      return {
        replay: lastEventId === null ? [] : since(lastEventId),
        lastId: idOf(seq),
        unsubscribe: () => void listeners.delete(listener),
      };
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      listeners.clear();
      await started?.catch(() => {});
      await stopListening?.();
    },
  };
}
