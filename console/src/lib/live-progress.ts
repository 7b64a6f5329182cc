// Live progress (issue 15): one stream per session (GET /api/events, shared/api/progress-stream.ts) that tells which tasks and publish batches changed. A query shows live
// progress by declaring `meta: liveProgressMeta("task")` and polling with `pollUnlessLive(ms)`: while the stream is
// live an event refetches it and it does not poll; while the stream is down (not started, refused, dropped) it polls
// as before (and, as a backstop, every LIVE_BACKSTOP_MS while live). Every change of state refetches those queries, so nothing shown is left behind by a gap.
import type { QueryClient, Query } from "@tanstack/react-query";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import type { ProgressEvent, ProgressKind } from "#shared/contract/events.ts";
import { openProgressStream } from "#shared/api/progress-stream.ts";
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

export type LiveProgressOptions = {
  queryClient: QueryClient;
  getToken: () => string | null;
  fetch?: typeof fetch;
  /** Called when the stream goes live or down (tests). */
  onState?: (live: boolean) => void;
};

/** Opens the stream and keeps it open (shared/api/progress-stream.ts); answers the stop. */
export function connectLiveProgress(o: LiveProgressOptions): () => void {
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

  const stop = openProgressStream({
    getToken: o.getToken,
    fetch: o.fetch,
    onEvent: onProgress,
    onReset: () => refetch("all"),
    onLive: setLive,
  });
  return () => {
    stop();
    if (timer) clearTimeout(timer);
  };
}

/** Keeps the session's one stream open while the main layout is shown (that is, while logged in). */
export function useLiveProgress() {
  const queryClient = useQueryClient();
  useEffect(() => connectLiveProgress({ queryClient, getToken: () => useUserStore.getState().access_token }), [queryClient]);
}
