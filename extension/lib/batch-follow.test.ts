// The side panel's batch following: it reads the batch when the live stream says the batch changed and does not poll
// while the stream is live; it polls while the stream is down (refused or dropped), and reads once more after the
// batch ends. The stream itself is tested against the real server in entrypoints/background/progress.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { followBatch, type BatchFollow } from "./batch-follow.ts";

const until = async (check: () => boolean, ms = 5000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let follow: BatchFollow | null = null;
afterEach(() => follow?.stop());

function start(opts: { live: boolean; endAfter?: number }) {
  const state = { reads: 0, done: false, live: opts.live };
  follow = followBatch({
    batchId: "b1",
    read: async () => ++state.reads >= (opts.endAfter ?? Infinity),
    watch: async () => ({ live: state.live }),
    onDone: () => void (state.done = true),
    pollMs: 40,
    // Far beyond any test: while live, only events make it read.
    backstopMs: 60_000,
    renewMs: 30,
  });
  return state;
}

describe("following a publish batch", () => {
  it("reads the batch on its events and does not poll while the stream is live", async () => {
    const state = start({ live: true });
    follow!.pushed(true, null); // the stream went live: read once to catch up
    await until(() => state.reads >= 1);
    await pause(300);
    const settled = state.reads;
    expect(settled).toBeLessThanOrEqual(2); // the first turn may have read before the watch answered
    follow!.pushed(true, { kind: "publishBatch", id: "another" });
    follow!.pushed(true, { kind: "task", id: "b1" });
    await pause(100);
    expect(state.reads).toBe(settled);
    follow!.pushed(true, { kind: "publishBatch", id: "b1", success: 1, total: 2 });
    await until(() => state.reads === settled + 1);
  });

  it("polls while the stream is not live, and again when a live stream drops", async () => {
    const state = start({ live: false });
    await until(() => state.reads >= 4);
    expect(follow!.isLive()).toBe(false);

    state.live = true;
    follow!.pushed(true, null);
    await until(() => follow!.isLive());
    await pause(100);
    const whileLive = state.reads;
    await pause(300);
    expect(state.reads).toBe(whileLive);

    state.live = false;
    follow!.pushed(false, null);
    await until(() => state.reads >= whileLive + 4);
  });

  it("reads once more after the batch ended, then stops", async () => {
    const state = start({ live: false, endAfter: 2 });
    await until(() => state.done);
    expect(state.reads).toBe(3);
    await pause(200);
    expect(state.reads).toBe(3);
  });
});
