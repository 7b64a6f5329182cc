// The side panel's live publish progress: while a panel watches, the worker reads the same event stream as the console
// (GET /api/events, shared/api/progress-stream.ts) with the session's token (the panel never holds it) and tells the
// panel each event and whether the stream is live; the panel asks for its batch when told, and polls only while the
// stream is not live. A watch lasts WATCH_MS: the panel renews it while its batch runs (each renewal is a message, which
// also keeps the worker awake), and the stream closes when nobody renews it.
import { openProgressStream } from "#shared/api/progress-stream.ts";
import { EVENTS_PATH, type ProgressEvent } from "#shared/contract/events.ts";
import type { SessionService } from "./session.ts";

const WATCH_MS = 30_000;

export type ProgressDeps = {
  session: Pick<SessionService, "api" | "token">;
  /** Tells open panels: an event (null: a state change or missed events, read everything shown again) and liveness. */
  push: (live: boolean, event: ProgressEvent | null) => void;
  fetch?: typeof fetch;
  watchMs?: number;
};

export type ProgressService = ReturnType<typeof createProgressWatch>;

export function createProgressWatch({ session, push, fetch, watchMs = WATCH_MS }: ProgressDeps) {
  let stop: (() => void) | null = null;
  let live = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function close() {
    if (timer) clearTimeout(timer);
    timer = null;
    stop?.();
    stop = null;
  }

  /** Opens the stream if it is not open, for watchMs more; answers whether it is live now. */
  function watch(): { live: boolean } {
    stop ??= openProgressStream({
      url: () => session.api.client.url(EVENTS_PATH),
      getToken: () => session.token(),
      fetch,
      onEvent: (event) => push(live, event),
      onReset: () => push(live, null),
      onLive: (value) => {
        live = value;
        push(live, null);
      },
    });
    if (timer) clearTimeout(timer);
    timer = setTimeout(close, watchMs);
    return { live };
  }

  return { watch, close };
}
