// The lockout of names without an account: the account rule (5 failures lock for the lockout time, a locked name is not
// counted), and its memory bound: a day idle forgets a name, and past the cap the names idle longest go first.
import { describe, expect, it } from "vitest";
import { createNameLockout, NAME_IDLE_MS } from "./name-lockout.ts";

const t0 = 1_800_000_000_000;

describe("name lockout", () => {
  it("locks a name on its 5th failure for the lockout time, then counts from zero again", () => {
    const l = createNameLockout({ attempts: 5, lockoutSeconds: 300 });
    for (let i = 0; i < 5; i++) expect(l.claim("t\nBOSS", t0 + i)).toBe(0);
    expect(l.claim("t\nBOSS", t0 + 1000)).toBe(300);
    expect(l.claim("t\nBOSS", t0 + 299_000)).toBe(2);
    expect(l.claim("other", t0 + 1000)).toBe(0);
    // After the lock: four more failures are evaluated before the next lock.
    const after = t0 + 301_000;
    for (let i = 0; i < 4; i++) expect(l.claim("t\nBOSS", after + i)).toBe(0);
    expect(l.claim("t\nBOSS", after + 10)).toBe(0);
    expect(l.claim("t\nBOSS", after + 20)).toBe(300);
  });

  it("forgets a name's failures after a day without any", () => {
    const l = createNameLockout({ attempts: 5, lockoutSeconds: 300 });
    for (let i = 0; i < 4; i++) l.claim("n", t0);
    expect(l.claim("n", t0 + NAME_IDLE_MS)).toBe(0); // counted as the 1st again, not the 5th
    for (let i = 0; i < 3; i++) expect(l.claim("n", t0 + NAME_IDLE_MS + 1)).toBe(0);
    expect(l.claim("n", t0 + NAME_IDLE_MS + 2)).toBe(0); // the 5th: locks
    expect(l.claim("n", t0 + NAME_IDLE_MS + 3)).toBeGreaterThan(0);
  });

  it("keeps at most maxNames, dropping idle ones first and the longest idle past the cap", () => {
    const l = createNameLockout({ attempts: 5, lockoutSeconds: 300, maxNames: 1000 });
    for (let i = 0; i < 5000; i++) l.claim(`spray-${i}`, t0 + i);
    expect(l.size()).toBe(1000);
    // The newest names are the ones kept.
    for (let i = 0; i < 3; i++) l.claim("spray-4999", t0 + 6000);
    expect(l.claim("spray-4999", t0 + 6001)).toBe(0);
    expect(l.claim("spray-4999", t0 + 6002)).toBeGreaterThan(0);
    // A day later the idle ones are swept as new failures come in.
    l.claim("fresh", t0 + NAME_IDLE_MS + 10_000);
    expect(l.size()).toBe(1);
  });
});
