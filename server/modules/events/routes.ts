// GET /api/events (not in the spec): the live progress stream, as server-sent events. Not a registered call: a call
// runs inside one transaction, and a stream stays open for hours, so it is a plain route with the same token check
// (readPrincipal) and the same session check (loadSessionUser, in a short transaction at the start and again every
// SESSION_CHECK_MS). It holds no database connection while open. The caller sees what the task centre would show it:
// its tenant's events, and a sub-account only those of the work it started.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { readPrincipal, type Principal, type TokenSigner } from "../../http/auth.ts";
import { tooManyRequests, unauthorized } from "../../http/errors.ts";
import { loadSessionUser, type SessionUser } from "../../http/session-user.ts";
import { EVENTS_PATH, StreamEvent, type ProgressEvent } from "#shared/contract/events.ts";
import type { HubEntry, ProgressHub, ProgressNotice } from "./progress.ts";

export type EventStreamOptions = {
  /** A comment line this often keeps proxies from closing a quiet stream. */
  heartbeatMs: number;
  /** How often an open stream re-reads the session (a logout, a disabled user or a password change ends it). */
  sessionCheckMs: number;
  /** Open streams per user (tabs); one more is a 429 and that console polls instead. */
  maxStreamsPerUser: number;
};

const eventStreamDefaults: EventStreamOptions = { heartbeatMs: 15_000, sessionCheckMs: 60_000, maxStreamsPerUser: 6 };

/** A client that reads slower than this much buffered output is dropped; it reconnects and resumes. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** How long the client waits before reconnecting (the SSE retry field). */
const RETRY_MS = 3000;

/** The task centre's rule (modules/tasks/service.ts visibleTasks): a main account sees its tenant's, a sub-account its own. */
function maySee(user: Pick<SessionUser, "id" | "tenantId" | "isMainAccount">, n: ProgressNotice): boolean {
  return n.tenantId === user.tenantId && (user.isMainAccount || n.creatorId === user.id);
}

function frame(event: string, id: string | null, data: unknown): string {
  return `${id ? `id: ${id}\n` : ""}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function publicEvent(n: ProgressNotice): ProgressEvent {
  const { tenantId, creatorId, ...event } = n;
  void tenantId;
  void creatorId;
  return event;
}

export function registerEventStream(
  app: FastifyInstance,
  deps: { database: Database; tokens: TokenSigner; hub: ProgressHub },
  options: EventStreamOptions = eventStreamDefaults,
) {
  const perUser = new Map<string, number>();
  const open = new Set<() => void>();

  const checkSession = (p: Principal) =>
    inScope(deps.database.db, { tenantId: p.tenantId ?? HOST_TENANT_ID }, (tx) => loadSessionUser(tx, p));

  // Open streams end before the server waits for its connections to close.
  app.addHook("preClose", async () => {
    for (const end of [...open]) end();
  });
  app.addHook("onClose", async () => deps.hub.close());

  app.get(EVENTS_PATH, { schema: { hide: true } }, async (req: FastifyRequest, reply: FastifyReply) => {
    const principal = await readPrincipal(req, deps.tokens);
    if (!principal) throw unauthorized();
    const user = await checkSession(principal);
    const count = perUser.get(user.id) ?? 0;
    if (count >= options.maxStreamsPerUser) throw tooManyRequests("打开的实时进度连接过多，请关闭多余的页面");
    perUser.set(user.id, count + 1);

    const raw = reply.raw;
    let ended = false;
    let unsubscribe: (() => void) | null = null;
    const timers: NodeJS.Timeout[] = [];
    const end = () => {
      if (ended) return;
      ended = true;
      open.delete(end);
      for (const t of timers) clearInterval(t);
      unsubscribe?.();
      const left = (perUser.get(user.id) ?? 1) - 1;
      if (left > 0) perUser.set(user.id, left);
      else perUser.delete(user.id);
      if (!raw.writableEnded) raw.end();
    };
    open.add(end);
    // The response closes when the client goes (or the stream ends).
    raw.on("close", end);
    const write = (chunk: string) => {
      if (ended) return;
      raw.write(chunk);
      if (raw.writableLength > MAX_BUFFERED_BYTES) end();
    };

    const send = (entry: HubEntry) => {
      if (entry.type === "reset") write(frame(StreamEvent.Reset, null, {}));
      else if (maySee(user, entry.notice)) write(frame(StreamEvent.Progress, entry.id, publicEvent(entry.notice)));
    };
    // Events heard before the headers are out wait here.
    let pending: HubEntry[] | null = [];
    const lastEventId = req.headers["last-event-id"];
    let subscription;
    try {
      subscription = await deps.hub.subscribe(
        (entry) => (pending ? pending.push(entry) : send(entry)),
        typeof lastEventId === "string" && lastEventId ? lastEventId : null,
      );
    } catch (err) {
      end();
      throw err;
    }
    unsubscribe = subscription.unsubscribe;
    if (ended) {
      // The client left while we subscribed.
      unsubscribe();
      reply.hijack();
      return reply;
    }

    reply.hijack();
    // CORS and the other headers set by hooks so far, then the stream's own.
    const headers: Record<string, string | number | string[]> = {};
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string;
    raw.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    write(`retry: ${RETRY_MS}\n\n`);
    if (subscription.replay === null) write(frame(StreamEvent.Reset, null, {}));
    else for (const e of subscription.replay) send({ type: "event", ...e });
    // `ready` carries the id a reconnect resumes from, also when no event of this caller came yet.
    write(frame(StreamEvent.Ready, subscription.lastId, {}));
    const heard = pending;
    pending = null;
    for (const entry of heard) send(entry);

    timers.push(setInterval(() => write(": ping\n\n"), options.heartbeatMs));
    timers.push(
      setInterval(() => {
        checkSession(principal).catch((err: unknown) => {
          // Only a refused session ends the stream; a database hiccup is tried again at the next check.
          if ((err as { status?: number }).status === 401) end();
        });
      }, options.sessionCheckMs),
    );
    for (const t of timers) t.unref();
    return reply;
  });
}
