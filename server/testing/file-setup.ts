// Runs before every test file (vitest.config.ts setupFiles). Test files share their workers (isolate: false), so what a
// file may leave in the worker is put back after it, as a fresh worker would have it: real timers, unstubbed globals
// and environment variables, and in a DOM an empty body and empty storage. Mocks are restored by vitest itself.
import { afterAll, vi } from "vitest";

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  if (typeof document !== "undefined") {
    document.body.replaceChildren();
    localStorage.clear();
    sessionStorage.clear();
  }
});
