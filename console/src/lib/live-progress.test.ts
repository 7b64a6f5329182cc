// The console's live progress: progress queries poll while the stream is down and stop once it is live; an event
// refetches the queries of its kind only; a dropped stream brings polling back and reconnects with Last-Event-ID.
// The server side is tested over a real socket in server/modules/events/events.test.ts; here a stand-in fetch plays
// the stream so each state change can be stepped through.
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { connectLiveProgress, isProgressLive, LIVE_BACKSTOP_MS, liveProgressMeta, pollUnlessLive } from "./live-progress.ts";

type Served = { headers: Record<string, string>; push(text: string): void; end(): void };

function streamServer(statuses: number[] = []) {
  const served: Served[] = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    const status = statuses.shift() ?? 200;
    if (status !== 200) return new Response("{}", { status });
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const encoder = new TextEncoder();
    init.signal?.addEventListener("abort", () => controller.error(new Error("aborted")));
    served.push({
      headers: init.headers as Record<string, string>,
      push: (text) => controller.enqueue(encoder.encode(text)),
      end: () => controller.close(),
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, served };
}

const until = async (check: () => boolean, ms = 8000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

describe("live progress", () => {
  it("stops polling while live, refetches on events of its kind, and polls again when the stream drops", async () => {
    const queryClient = new QueryClient();
    const fetched = { task: 0, batch: 0, other: 0 };
    const observe = (key: string, meta: Record<string, unknown> | undefined) =>
      new QueryObserver(queryClient, {
        queryKey: [key],
        queryFn: async () => ++fetched[key as keyof typeof fetched],
        meta,
        staleTime: Infinity,
      }).subscribe(() => {});
    const unsubscribe = [
      observe("task", liveProgressMeta("task")),
      observe("batch", liveProgressMeta("publishBatch")),
      observe("other", undefined),
    ];
    await until(() => fetched.task === 1 && fetched.batch === 1 && fetched.other === 1);

    const server = streamServer();
    stop = connectLiveProgress({ queryClient, getToken: () => "tok", fetch: server.fetch });
    await until(() => server.served.length === 1);
    expect(server.served[0].headers.authorization).toBe("Bearer tok");
    expect(isProgressLive()).toBe(false);
    expect(pollUnlessLive(2000)).toBe(2000);

    server.served[0].push("retry: 3000\n\n: ping\n\nid: e1-4\nevent: ready\ndata: {}\n\n");
    await until(() => isProgressLive());
    // Live: only the slow backstop.
    expect(pollUnlessLive(2000)).toBe(LIVE_BACKSTOP_MS);
    // Going live refetches every progress query once (what changed before the stream opened).
    await until(() => fetched.task === 2 && fetched.batch === 2);

    server.served[0].push('id: e1-5\nevent: progress\ndata: {"kind":"task","id":"t1","progress":50}\n\n');
    server.served[0].push('id: e1-6\nevent: progress\ndata: {"kind":"task","id":"t1","progress":60}\n\n');
    await until(() => fetched.task === 3);
    await new Promise((r) => setTimeout(r, 400));
    // Two events close together refetch once; other kinds and queries without the meta are left alone.
    expect(fetched).toEqual({ task: 3, batch: 2, other: 1 });

    server.served[0].end();
    await until(() => !isProgressLive());
    expect(pollUnlessLive(2000)).toBe(2000);
    // Down: the progress queries fetch again, so their refetchInterval (now polling) is looked at again.
    await until(() => fetched.task === 4 && fetched.batch === 3);
    // The reconnect resumes after the last event seen.
    await until(() => server.served.length === 2);
    expect(server.served[1].headers["last-event-id"]).toBe("e1-6");
    expect(fetched.other).toBe(1);
    for (const u of unsubscribe) u();
  }, 20_000);

  it("stays down (polling) when the stream is refused", async () => {
    const queryClient = new QueryClient();
    const server = streamServer([401]);
    let states = 0;
    stop = connectLiveProgress({ queryClient, getToken: () => "expired", fetch: server.fetch, onState: () => states++ });
    await new Promise((r) => setTimeout(r, 300));
    expect(isProgressLive()).toBe(false);
    expect(states).toBe(0);
    expect(server.served).toEqual([]);
  });
});
