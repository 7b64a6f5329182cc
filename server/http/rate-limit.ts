// A fixed-window counter per key (the caller's IP). Kept in the process: the embedded default is one process, and on
// PostgreSQL each API process limits its own share (the account lockout, which matters more, is in the database; the
// lockout of names without an account, identity/name-lockout.ts, is per process like this limit).
export type RateLimiter = {
  /** Counts one hit; returns the seconds to wait when the key is over its limit, else 0. */
  hit(key: string, now?: number): number;
};

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, now = Date.now()) {
      let w = windows.get(key);
      if (!w || now - w.start >= windowMs) {
        if (windows.size > 100_000) windows.clear(); // bounded memory under a flood of addresses
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      return w.count > limit ? Math.ceil((w.start + windowMs - now) / 1000) : 0;
    },
  };
}
