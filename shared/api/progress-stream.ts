// The live progress stream's client (GET /api/events, server-sent events) for the console and the extension: read
// with fetch so the bearer token goes in the Authorization header as on every call, reconnecting with Last-Event-ID
// after a gap. The caller says what an event, a reset and going live or down mean to it (the console refetches its
// queries; the extension's worker tells its side panel).
import { EVENTS_PATH, StreamEvent, type ProgressEvent } from "../contract/events.ts";

const PROGRESS_RETRY_MIN_MS = 3000;
const RETRY_MAX_MS = 60_000;

export type ProgressStreamOptions = {
  /** The stream's address: EVENTS_PATH on the caller's server (the console's own origin by default). */
  url?: () => string | Promise<string>;
  /** The session's token; none: wait and ask again. */
  getToken: () => string | null | Promise<string | null>;
  fetch?: typeof fetch;
  onEvent: (e: ProgressEvent) => void;
  /** Events were missed: everything shown should be read again. */
  onReset: () => void;
  /** The stream went live (it delivers) or down (refused, dropped, not started). */
  onLive: (live: boolean) => void;
};

/** The frames of an event stream's body, as they arrive. */
async function readFrames(body: ReadableStream<Uint8Array>, onFrame: (event: string, id: string | null, data: string) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message";
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = text;
        else if (field === "id") id = text;
        else if (field === "data") data.push(text);
      }
      if (data.length) onFrame(event, id, data.join("\n"));
    }
  }
}

/** Opens the stream and keeps it open until the answered stop is called. */
export function openProgressStream(o: ProgressStreamOptions): () => void {
  const doFetch = o.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let stopped = false;
  let live = false;
  let abort: AbortController | null = null;
  let wake: (() => void) | null = null;
  let lastEventId: string | null = null;

  const setLive = (value: boolean) => {
    if (live === value) return;
    live = value;
    o.onLive(value);
  };
  const onFrame = (event: string, id: string | null, data: string) => {
    if (id !== null) lastEventId = id;
    if (event === StreamEvent.Ready) setLive(true);
    else if (event === StreamEvent.Reset) o.onReset();
    else if (event === StreamEvent.Progress) o.onEvent(JSON.parse(data) as ProgressEvent);
  };

  /** Reads one connection to its end; answers its HTTP status. */
  async function readOnce(token: string): Promise<number> {
    abort = new AbortController();
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "text/event-stream" };
    if (lastEventId) headers["last-event-id"] = lastEventId;
    const url = o.url ? await o.url() : EVENTS_PATH;
    const res = await doFetch(url, { headers, signal: abort.signal, cache: "no-store" });
    if (!res.ok || !res.body) return res.status;
    await readFrames(res.body, onFrame);
    return res.status;
  }

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });

  void (async () => {
    let delay = PROGRESS_RETRY_MIN_MS;
    while (!stopped) {
      let status = 0;
      try {
        const token = await o.getToken();
        if (token && !stopped) status = await readOnce(token);
      } catch {
        status = 0; // the network, or stop()
      }
      const wasLive = live;
      setLive(false);
      if (stopped) break;
      // A stream that was live reconnects soon; a refused or failing one waits longer each time (too many tabs: a minute).
      delay = wasLive ? PROGRESS_RETRY_MIN_MS : status === 429 ? RETRY_MAX_MS : Math.min(RETRY_MAX_MS, delay * 2);
      await pause(delay);
    }
  })();

  return () => {
    stopped = true;
    abort?.abort();
    wake?.();
  };
}
