// What a stored marketplace call keeps of its request and answer: no secret (tokens, client secret, OAuth code,
// Authorization header), and at most MELI_LOG_BODY_MAX_BYTES of text, with a note when it was cut.
import { MELI_LOG_BODY_MAX_BYTES } from "#shared/contract/meli-logs.ts";

const SCRUBBED = "***";

/** Keys whose value is a secret wherever they appear. */
const secretKeys =
  /^(access_token|refresh_token|client_secret|authorization|password|x-access-token|accesstoken|refreshtoken|refrshtoken)$/i;
/** Mercado Libre's token shapes (APP_USR-…, TG-…) and a bearer credential, anywhere in a text. */
const tokenShapes = /\b(?:APP_USR|TG)-[A-Za-z0-9_-]+/g;
const bearer = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/** key=value pairs of a query string or a form body whose key is a secret (code included: the OAuth exchange). */
const secretParams = /\b(access_token|refresh_token|client_secret|code|password)=[^&\s"']*/gi;

function scrubText(text: string): string {
  return text
    .replace(tokenShapes, SCRUBBED)
    .replace(bearer, (_m, scheme: string) => `${scheme} ${SCRUBBED}`)
    .replace(secretParams, (_m, key: string) => `${key}=${SCRUBBED}`);
}

/**
 * An OAuth token exchange's body ({grant_type, code, client_id, ...}): its `code` is the authorization code. Elsewhere
 * `code` is data (an error cause's code), so it stays.
 */
const isOAuthBody = (o: Record<string, unknown>) => "grant_type" in o || "redirect_uri" in o;

function scrubValue(v: unknown, depth = 0): unknown {
  if (typeof v === "string") return scrubText(v);
  if (v === null || typeof v !== "object" || depth > 32) return v;
  if (Array.isArray(v)) return v.map((x) => scrubValue(x, depth + 1));
  const o = v as Record<string, unknown>;
  const oauth = isOAuthBody(o);
  return Object.fromEntries(
    Object.entries(o).map(([k, x]) => [k, secretKeys.test(k) || (oauth && k === "code") ? SCRUBBED : scrubValue(x, depth + 1)]),
  );
}

/** Cuts a text to `max` UTF-8 bytes (never inside a character) and says so, with the original size. */
function capText(text: string, max = MELI_LOG_BODY_MAX_BYTES): string {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= max) return text;
  let cut = Buffer.from(text, "utf8").subarray(0, max).toString("utf8");
  if (cut.endsWith("\uFFFD")) cut = cut.slice(0, -1);
  return `${cut}\n…[内容过长，已截断：原 ${bytes} 字节，保留前 ${max} 字节]`;
}

/**
 * A request or answer as stored: a value (or a JSON text) is written as JSON with its secrets replaced; any other text
 * has token shapes and secret parameters replaced. null/undefined stay null.
 */
export function scrubBody(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return capText(scrubText(body));
    }
  }
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `[二进制内容 ${value.byteLength} 字节]`;
  return capText(JSON.stringify(scrubValue(value)) ?? String(value));
}

/** A call's path with secret query parameters replaced. */
export const scrubPath = (path: string) => capText(scrubText(path), 4096);
