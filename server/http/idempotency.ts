// Idempotency-Key for the calls that are not naturally idempotent (bulk edits, creations, tasks): a client that lost
// the answer sends the call again with the same key and gets the first answer back instead of the work done twice.
// The key is claimed and its answer recorded inside the call's own transaction, so a crash can neither record an answer
// without the work nor do the work without the record; a concurrent duplicate waits on the claim's unique key until the
// first commits (then replays it) or rolls back (then does the work itself).
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { rowsOf, type Tx } from "../db/client.ts";
import { AppError, badRequest, sqlState } from "./errors.ts";

export const IDEMPOTENCY_HEADER = "idempotency-key";
/** How long a key answers its first result; a retry comes within minutes, a day covers a client that was offline. */
const IDEMPOTENCY_KEY_HOURS = 24;
const keyPattern = /^[\x21-\x7e]{1,255}$/;

/** The request's key, or null when it sent none (old clients may still call without one). */
export function readIdempotencyKey(req: FastifyRequest): string | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? null : raw.trim();
  if (!key || !keyPattern.test(key)) throw badRequest("Idempotency-Key 无效：应为 1 到 255 个可见 ASCII 字符", `${IDEMPOTENCY_HEADER}`);
  return key;
}

/** JSON with object keys sorted, so the same input hashes the same whatever order its fields came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** What makes two requests "the same": the call and its validated input. */
export function requestHash(call: { method: string; url: string }, input: { query: unknown; body: unknown; params: unknown }): string {
  return createHash("sha256")
    .update(canonical([call.method, call.url, input.params ?? null, input.query ?? null, input.body ?? null]))
    .digest("hex");
}

/** A call's answer as sent: its status and its body's text (empty for 204). */
export type RecordedAnswer = { status: number; body: string };

export type KeyOwner = { tenantId: string; userId: string; key: string };

const hours = sql.raw(`interval '${IDEMPOTENCY_KEY_HOURS} hours'`);

/**
 * Claims the key for this request inside the call's transaction. Answers null when the call is to run (the key is new,
 * or its earlier use expired), or the first answer to replay. The same key with another request is a 422.
 */
export async function claimIdempotencyKey(tx: Tx, owner: KeyOwner, hash: string): Promise<RecordedAnswer | null> {
  // Expired keys of this user go on every claim: one delete over the user's own rows (the primary key's prefix).
  await tx.execute(sql`delete from idempotency_keys
    where tenant_id = ${owner.tenantId} and user_id = ${owner.userId} and creation_time < now() - ${hours}`);
  let claimed: unknown[];
  try {
    // A concurrent request with the same key blocks here until the first one's transaction ends.
    claimed = rowsOf(
      await tx.execute(sql`insert into idempotency_keys (tenant_id, user_id, key, request_hash)
        values (${owner.tenantId}, ${owner.userId}, ${owner.key}, ${hash})
        on conflict do nothing returning 1`),
    );
  } catch (err) {
    if (sqlState(err) === "55P03") throw new AppError(409, "相同的请求正在处理中，请稍后重试", "Idempotency.InProgress");
    throw err;
  }
  if (claimed.length) return null;
  const first = rowsOf<{ requestHash: string; status: number | null; response: string | null }>(
    await tx.execute(sql`select request_hash as "requestHash", status, response from idempotency_keys
      where tenant_id = ${owner.tenantId} and user_id = ${owner.userId} and key = ${owner.key}`),
  )[0];
  if (!first || first.status === null) throw new AppError(409, "相同的请求正在处理中，请稍后重试", "Idempotency.InProgress");
  if (first.requestHash !== hash) {
    throw new AppError(422, "该 Idempotency-Key 已用于另一个不同的请求，新的请求请使用新的 Idempotency-Key", "Idempotency.KeyReused");
  }
  return { status: Number(first.status), body: first.response ?? "" };
}

/**
 * Whether the key already holds an answer (to replay, or a 422 for another request), read before the call's
 * transaction by work that would be wasted on a call that will not run (a publish's batch written before it).
 */
export async function keyAnswered(tx: Tx, owner: KeyOwner): Promise<boolean> {
  const rows = rowsOf(
    await tx.execute(sql`select 1 from idempotency_keys
      where tenant_id = ${owner.tenantId} and user_id = ${owner.userId} and key = ${owner.key}
        and status is not null and creation_time >= now() - ${hours}`),
  );
  return rows.length > 0;
}

/** Keeps the answer with the claimed key, in the same transaction as the work. */
export async function recordIdempotentAnswer(tx: Tx, owner: KeyOwner, answer: RecordedAnswer): Promise<void> {
  await tx.execute(sql`update idempotency_keys set status = ${answer.status}, response = ${answer.body}
    where tenant_id = ${owner.tenantId} and user_id = ${owner.userId} and key = ${owner.key}`);
}

/** Sends a recorded answer; `replayed` marks a retry's answer (the work was not done again). */
export function sendRecordedAnswer(reply: FastifyReply, answer: RecordedAnswer, replayed: boolean): FastifyReply {
  if (replayed) reply.header("idempotent-replayed", "true");
  if (answer.status === 204) return reply.code(204).send();
  if (answer.status >= 400) reply.header("_AbpErrorFormat", "true");
  return reply.code(answer.status).type("application/json; charset=utf-8").send(answer.body);
}
