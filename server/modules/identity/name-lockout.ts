// The lockout of login names that match no account. An account counts its failures in its row; a name without one
// counts them here, by the same rule (the 5th failure locks for the lockout time, a locked name is refused unseen), so
// the answers to wrong passwords never tell which accounts exist.
//
// Kept in the process, bounded: a name's count is forgotten after a day without failures (its lock first runs out), and
// past `maxNames` the names idle longest are forgotten first. On PostgreSQL each API process counts its own share.
import { createHash } from "node:crypto";

export type NameLockout = {
  /**
   * Counts one failed attempt of a name, as an account's conditional update does: a locked name is not counted and
   * answers the seconds its lock has left; otherwise the attempt is counted (the `attempts`-th locks) and 0 answers.
   */
  claim(key: string, now?: number): number;
  /** How many names are kept (for tests and metrics). */
  size(): number;
};

type Entry = { failures: number; lockedUntil: number; lastFailure: number };

export const NAME_IDLE_MS = 24 * 3600_000;

export function createNameLockout(opts: { attempts: number; lockoutSeconds: number; maxNames?: number }): NameLockout {
  const maxNames = opts.maxNames ?? 100_000;
  const idleMs = Math.max(NAME_IDLE_MS, opts.lockoutSeconds * 1000);
  // Insertion order is last-failure order (an entry is re-inserted on each failure), so the idle end is the front.
  const entries = new Map<string, Entry>();
  const forgotten = (e: Entry, now: number) => now - e.lastFailure >= idleMs && e.lockedUntil <= now;

  return {
    claim(name, now = Date.now()) {
      // Hashed so a key's size does not depend on what the caller typed.
      const key = createHash("sha256").update(name).digest("base64url");
      let entry = entries.get(key);
      if (entry && forgotten(entry, now)) entry = undefined;
      if (entry && entry.lockedUntil > now) return Math.ceil((entry.lockedUntil - now) / 1000);
      const failures = (entry?.failures ?? 0) + 1;
      const locks = failures >= opts.attempts;
      entries.delete(key);
      entries.set(key, { failures: locks ? 0 : failures, lockedUntil: locks ? now + opts.lockoutSeconds * 1000 : 0, lastFailure: now });
      for (const [k, e] of entries) {
        if (entries.size <= maxNames && !forgotten(e, now)) break;
        entries.delete(k);
      }
      return 0;
    },
    size: () => entries.size,
  };
}
