// The live progress stream (GET /api/events) read over a real socket as server-sent events, for the tests that watch it
// (server/modules/events/events.test.ts, e2e/pooler.test.ts): SSE cannot go through inject.
import { EVENTS_PATH, type ProgressEvent } from "#shared/contract/events.ts";

export type Frame = { event: string; id: string | null; data: unknown };

export type EventStream = {
  status: number;
  frames: Frame[];
  progress(): ProgressEvent[];
  /** Waits until a frame matches; fails after `ms`. */
  waitFor(match: (f: Frame) => boolean, ms?: number): Promise<Frame>;
  ended: Promise<void>;
  close(): void;
};

/** Opens the stream of the server at `baseUrl` with `token` (none: unauthenticated) and reads its frames as they come. */
export async function openEventStream(baseUrl: string, token: string | null, headers: Record<string, string> = {}): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(baseUrl + EVENTS_PATH, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    signal: abort.signal,
  });
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const f: Frame = { event: "message", id: null, data: null };
            let data: string | null = null;
            for (const line of block.split("\n")) {
              if (line.startsWith("id: ")) f.id = line.slice(4);
              else if (line.startsWith("event: ")) f.event = line.slice(7);
              else if (line.startsWith("data: ")) data = line.slice(6);
            }
            if (data === null) continue; // a comment or the retry field
            f.data = JSON.parse(data);
            frames.push(f);
            for (const w of waiters) w();
          }
        }
      } catch {
        // aborted
      }
      resolveEnded();
    })();
  } else resolveEnded();
  return {
    status: res.status,
    frames,
    progress: () => frames.filter((f) => f.event === "progress").map((f) => f.data as ProgressEvent),
    waitFor(match, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = frames.find(match);
          if (!hit) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(frames.slice(-20))}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    ended,
    close: () => abort.abort(),
  };
}
