// How the side panel follows a publish batch: it asks for the batch when the live progress stream (the worker's
// watchProgress, the console's stream) says the batch changed, and polls every pollMs only while the stream is not
// live (refused, dropped, not open yet), with a slow backstop while it is. Once the batch has ended it is asked once
// more (its listings' last writes) and the following stops.
import type { ProgressEvent } from "#shared/contract/events.ts";

export type BatchFollowOptions = {
  batchId: string;
  /** Asks for the batch; answers whether it has ended. */
  read: () => Promise<boolean>;
  /** Keeps the stream open a while more; answers whether it is live. */
  watch: () => Promise<{ live: boolean }>;
  /** Told when the following ends (the batch ended and was read once more). */
  onDone: () => void;
  pollMs: number;
  /** While live, the batch is still asked for this rarely (an event lost on the way). */
  backstopMs: number;
  /** How often the watch is renewed (under the worker's WATCH_MS). */
  renewMs: number;
};

export type BatchFollow = {
  /** The worker's push: the stream's state and an event (null: read again whatever is shown). */
  pushed(live: boolean, event: ProgressEvent | null): void;
  stop(): void;
  /** Whether the stream is live now (tests, and the note under the progress). */
  isLive(): boolean;
};

export function followBatch(o: BatchFollowOptions): BatchFollow {
  let live = false;
  let stopped = false;
  let ending = false;
  let reading = false;
  let again = false;
  let next: ReturnType<typeof setTimeout> | null = null;

  const schedule = (ms: number) => {
    if (next) clearTimeout(next);
    next = stopped ? null : setTimeout(() => void readNow(), ms);
  };
  async function readNow() {
    if (stopped) return;
    if (reading) return void (again = true);
    reading = true;
    let ended = false;
    try {
      ended = await o.read();
    } catch {
      // A failed read is retried at the next turn.
    } finally {
      reading = false;
    }
    if (stopped) return;
    if (ending) {
      stop();
      return o.onDone();
    }
    if (ended) ending = true;
    if (again || ended) {
      again = false;
      return schedule(ended ? o.pollMs : 0);
    }
    schedule(live ? o.backstopMs : o.pollMs);
  }
  const renew = () =>
    o.watch().then(
      (w) => setLive(w.live),
      () => setLive(false),
    );
  const setLive = (value: boolean) => {
    if (live === value) return;
    live = value;
    // Down: poll again at once; up: the next read waits for an event or the backstop.
    if (!live && !reading) schedule(o.pollMs);
  };
  const renewing = setInterval(() => void renew(), o.renewMs);
  function stop() {
    stopped = true;
    clearInterval(renewing);
    if (next) clearTimeout(next);
  }

  void renew();
  schedule(o.pollMs);
  return {
    pushed(value, event) {
      setLive(value);
      if (!event || (event.kind === "publishBatch" && event.id === o.batchId)) void readNow();
    },
    stop,
    isLive: () => live,
  };
}
