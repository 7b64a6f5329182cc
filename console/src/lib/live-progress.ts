// Live progress (issue 15): one stream per session (GET /api/events, read with fetch so the bearer token goes in the
// Authorization header as on every call) that tells which tasks and publish batches changed. A query shows live
// progress by declaring `meta: liveProgressMeta("task")` and polling with `pollUnlessLive(ms)`: while the stream is
// live an event refetches it and it does not poll; while the stream is down (not started, refused, dropped) it polls
// as before (and, as a backstop, every LIVE_BACKSTOP_MS while live). Every change of state refetches those queries, so nothing shown is left behind by a gap.
import type { QueryClient, Query } from "@tanstack/react-query";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { EVENTS_PATH, StreamEvent, type ProgressEvent, type ProgressKind } from "@shared/contract/events.ts";
import { useUserStore } from "../stores/user.ts";

let live = false;
const watchers = new Set<() => void>();

/** Whether the stream is open and delivering (then queries need not poll). */
export const isProgressLive = () => live;

/** The same, for a component (a list's "following" note says 实时更新 instead of 每 N 秒自动刷新). */
export const useProgressLive = () =>
  useSyncExternalStore((onChange) => (watchers.add(onChange), () => void watchers.delete(onChange)), isProgressLive);

/** While the stream is live, running work is still asked for this rarely: an event lost on the way (a proxy, a busy
 *  listener) leaves a screen behind for seconds, not until the next event. */
export const LIVE_BACKSTOP_MS = 15_000;

/** A refetchInterval for progress: `ms` while the stream is down, the slow backstop while it is live. */
export const pollUnlessLive = (ms: number): number => (live ? Math.max(ms, LIVE_BACKSTOP_MS) : ms);

/** The meta of a query that shows progress of these kinds: an event of one of them refetches it. */
export const liveProgressMeta = (...kinds: ProgressKind[]) => ({ liveProgress: kinds });

const kindsOf = (q: Query) => (q.meta?.liveProgress as ProgressKind[] | undefined) ?? [];

/** Events are gathered this long and refetched together (a job may report many steps a second). */
const COALESCE_MS = 250;
const RETRY_MIN_MS = 3000;
const RETRY_MAX_MS = 60_000;

export type LiveProgressOptions = {
  queryClient: QueryClient;
  getToken: () => string | null;
  fetch?: typeof fetch;
  /** Called when the stream goes live or down (tests). */
  onState?: (live: boolean) => void;
};

/** Opens the stream and keeps it open (reconnecting with Last-Event-ID after a gap); answers the stop. */
export function connectLiveProgress(o: LiveProgressOptions): () => void {
  const doFetch = o.fetch ?? fetch;
  let stopped = false;
  let abort: AbortController | null = null;
  let wake: (() => void) | null = null;
  let lastEventId: string | null = null;
  let waiting = new Set<ProgressKind>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const refetch = (kinds: ProgressKind[] | "all") =>
    void o.queryClient.invalidateQueries({
      predicate: (q) => kindsOf(q).some((k) => kinds === "all" || kinds.includes(k)),
    });
  const setLive = (value: boolean) => {
    if (live === value) return;
    live = value;
    o.onState?.(value);
    for (const w of watchers) w();
    // Up: catch what changed before the stream opened, and stop polling. Down: start polling again (a query's
    // refetchInterval is looked at again after each fetch).
    refetch("all");
  };
  const onProgress = (e: ProgressEvent) => {
    waiting.add(e.kind);
    timer ??= setTimeout(() => {
      timer = null;
      const kinds = [...waiting];
      waiting = new Set();
      refetch(kinds);
    }, COALESCE_MS);
  };

  function onFrame(event: string, id: string | null, data: string) {
    if (id !== null) lastEventId = id;
    if (event === StreamEvent.Ready) setLive(true);
    else if (event === StreamEvent.Reset) refetch("all");
    else if (event === StreamEvent.Progress) onProgress(JSON.parse(data) as ProgressEvent);
  }

  /** Reads one connection to its end; answers its HTTP status. */
  async function readOnce(token: string): Promise<{ status: number }> {
    abort = new AbortController();
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "text/event-stream" };
    if (lastEventId) headers["last-event-id"] = lastEventId;
    const res = await doFetch(EVENTS_PATH, { headers, signal: abort.signal, cache: "no-store" });
    if (!res.ok || !res.body) return { status: res.status };
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, "\n");
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
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") event = value;
          else if (field === "id") id = value;
          else if (field === "data") data.push(value);
        }
        if (data.length) onFrame(event, id, data.join("\n"));
      }
    }
    return { status: res.status };
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
    let delay = RETRY_MIN_MS;
    while (!stopped) {
      const token = o.getToken();
      let status = 0;
      if (token) {
        try {
          status = (await readOnce(token)).status;
        } catch {
          status = 0; // the network, or stop()
        }
      }
      const wasLive = live;
      setLive(false);
      if (stopped) break;
      // A stream that was live reconnects soon; a refused or failing one waits longer each time (too many tabs: a minute).
      delay = wasLive ? RETRY_MIN_MS : status === 429 ? RETRY_MAX_MS : Math.min(RETRY_MAX_MS, delay * 2);
      await pause(delay);
    }
  })();

  return () => {
    stopped = true;
    abort?.abort();
    wake?.();
    if (timer) clearTimeout(timer);
  };
}

/** Keeps the session's one stream open while the main layout is shown (that is, while logged in). */
export function useLiveProgress() {
  const queryClient = useQueryClient();
  useEffect(() => connectLiveProgress({ queryClient, getToken: () => useUserStore.getState().access_token }), [queryClient]);
}
