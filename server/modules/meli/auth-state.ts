// The state of a shop authorization: the seller comes back to AuthBack without our token, so this signed state is all
// that says whose shop it is (HMAC over tenant, user, owner, sites, nonce and expiry). The nonce's row (meli_auth_states)
// makes it single-use; a forged or expired state connects nothing.
import { createHmac, timingSafeEqual } from "node:crypto";
import { secretKeyFrom } from "../../security/secrets.ts";

export const STATE_TTL_MS = 10 * 60_000;

/** v: version, t: tenant, u: user who asked, o: owner of the shops, s: chosen sites, n: nonce, e: expiry (ms). */
export type StatePayload = { v: 1; t: string; u: string; o: string; s: number[]; n: string; e: number };

export type StateReading = { ok: true; payload: StatePayload } | { ok: false; reason: "forged" | "expired" };

/** The state's key, derived from the token signing key so that every process of a deployment agrees on it. */
export const stateKeyFrom = (tokenSigningKey: string): Buffer => secretKeyFrom(tokenSigningKey, "erp/meli-oauth-state/v1");

export function signState(key: Buffer, p: StatePayload): string {
  const body = Buffer.from(JSON.stringify(p)).toString("base64url");
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

export function readState(key: Buffer, raw: string, now = Date.now()): StateReading {
  const [body, mac, extra] = raw.split(".");
  if (!body || !mac || extra !== undefined) return { ok: false, reason: "forged" };
  const expected = createHmac("sha256", key).update(body).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "forged" };
  let p: StatePayload;
  try {
    p = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "forged" };
  }
  if (p?.v !== 1 || typeof p.t !== "string" || typeof p.n !== "string" || typeof p.e !== "number") return { ok: false, reason: "forged" };
  if (p.e <= now) return { ok: false, reason: "expired" };
  return { ok: true, payload: p };
}
