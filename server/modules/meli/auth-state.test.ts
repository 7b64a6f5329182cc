// The signed state alone: what AuthBack accepts, and why it refuses (the whole connection is in auth-service.test.ts).
import { describe, expect, it } from "vitest";
import { readState, signState, stateKeyFrom, type StatePayload } from "./auth-state.ts";

const key = stateKeyFrom("k".repeat(40));
const payload: StatePayload = { v: 1, t: "tenant", u: "user", o: "owner", s: [1, 2], n: "nonce", e: Date.now() + 60_000 };

describe("auth state", () => {
  it("reads back what it signed", () => {
    expect(readState(key, signState(key, payload))).toEqual({ ok: true, payload });
  });

  it("is forged when signed with another key, altered, or not a state at all", () => {
    const other = stateKeyFrom("o".repeat(40));
    expect(readState(key, signState(other, payload))).toEqual({ ok: false, reason: "forged" });
    const [, mac] = signState(key, payload).split(".");
    const altered = Buffer.from(JSON.stringify({ ...payload, t: "another" })).toString("base64url");
    expect(readState(key, `${altered}.${mac}`)).toEqual({ ok: false, reason: "forged" });
    for (const raw of ["", "abc", "a.b.c", `${signState(key, payload)}.x`]) expect(readState(key, raw).ok).toBe(false);
  });

  it("expires at its expiry", () => {
    const state = signState(key, payload);
    expect(readState(key, state, payload.e - 1).ok).toBe(true);
    expect(readState(key, state, payload.e)).toEqual({ ok: false, reason: "expired" });
  });
});
