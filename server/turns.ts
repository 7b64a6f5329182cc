// Long synchronous work gives the event loop back every few milliseconds (issue 29, RELIABILITY.md §17: while one
// tenant's publish of thousands of products was planned and written, /health and other tenants' calls waited seconds).
// A loop awaits its pause after each unit of work; the pause yields a turn (setImmediate: the I/O that arrived runs
// first) once TURN_MS of work has run since the last one, and costs nothing otherwise.
import { setImmediate as nextTurn } from "node:timers/promises";

/** Synchronous work between two turns given back, in ms. */
export const TURN_MS = 10;

/** A pause for one loop: `await pause()` after each unit of work. */
export function turnPause(ms = TURN_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < ms) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}
