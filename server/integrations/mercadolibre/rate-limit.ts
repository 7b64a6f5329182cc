// Token buckets shared by every process through the database (RELIABILITY.md §9, MERCADO-LIBRE.md "Errors and
// limits"): one per seller and one per app. Each bucket is a GCRA row (meli_rate_buckets): taking a call is one upsert
// that moves the theoretical arrival time on and answers how long the caller must wait before sending, so callers queue
// in order without polling. A 429 writes its Retry-After (or the back-off) as blocked_until, which every process
// honours before its next call of that seller or app. A call a user waits on at the screen waits a bounded time. Runs outside any transaction (each statement commits alone).
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../../db/client.ts";
import { MeliApiError } from "./errors.ts";

export type Bucket = { key: string; perMinute: number; burst: number };

/** What a waiting user is told when the calls queued before theirs would keep them longer than the bound. */
const BUSY_MESSAGE = "美客多繁忙，请稍后重试";

export type RateBuckets = {
  /**
   * Resolves when one more call may go for every bucket; answers the milliseconds waited. With `maxWaitMs` (a user
   * waits at the screen), a wait longer than that gives the place back and fails as rate-limited instead.
   */
  take(buckets: Bucket[], opts?: { signal?: AbortSignal; maxWaitMs?: number }): Promise<number>;
  /** No call of the bucket before `seconds` from now (a 429's Retry-After or back-off), in every process. */
  block(key: string, seconds: number): Promise<void>;
  /**
   * Waits out a block this process learnt of after the call took its place (the last check before sending): calls that
   * took their place just before a 429 arrived do not follow it in. Other processes see the block on their next take.
   */
  hold(keys: string[], signal?: AbortSignal): Promise<void>;
};

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export function createRateBuckets(db: Db): RateBuckets {
  /**
   * Blocks this process knows of, by key: the time (ms, performance.now()) before which no call goes. Set before the
   * database is. A monotonic clock, so a step of the wall clock cannot end a hold early.
   */
  const localBlocks = new Map<string, number>();

  async function blockedMs(keys: string[]): Promise<number> {
    const rows = rowsOf<{ ms: number | string | null }>(
      await db.execute(sql`
        select max(greatest(0, extract(epoch from (blocked_until - clock_timestamp())) * 1000))::float8 as ms
        from meli_rate_buckets where key in (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )})`),
    );
    return Number(rows[0]?.ms ?? 0);
  }

  return {
    async take(buckets, { signal, maxWaitMs } = {}) {
      if (!buckets.length) return 0;
      // Sorted, so two callers lock the same rows in the same order.
      const specs = [...new Map(buckets.map((b) => [b.key, b])).values()].sort((a, b) => (a.key < b.key ? -1 : 1));
      const values = sql.join(
        specs.map((b) => {
          const interval = 60_000 / b.perMinute;
          return sql`(${b.key}::text, ${interval}::float8, ${interval * Math.max(0, b.burst - 1)}::float8)`;
        }),
        sql`, `,
      );
      const rows = rowsOf<{ wait_ms: number | string; blocked_ms: number | string }>(
        await db.execute(sql`
          insert into meli_rate_buckets as b (key, tat, interval_ms, burst_ms)
          select v.key, clock_timestamp() + v.i * interval '1 millisecond', v.i, v.b
          from (values ${values}) as v(key, i, b) order by v.key
          on conflict (key) do update set
            tat = greatest(b.tat, clock_timestamp()) + excluded.interval_ms * interval '1 millisecond',
            interval_ms = excluded.interval_ms,
            burst_ms = excluded.burst_ms
          returning
            greatest(0, extract(epoch from (b.tat - clock_timestamp())) * 1000 - b.interval_ms - b.burst_ms)::float8 as wait_ms,
            greatest(0, coalesce(extract(epoch from (b.blocked_until - clock_timestamp())) * 1000, 0))::float8 as blocked_ms`),
      );
      let waited = 0;
      let wait = Math.max(0, ...rows.map((r) => Math.max(Number(r.wait_ms), Number(r.blocked_ms))));
      if (maxWaitMs !== undefined && wait > maxWaitMs) {
        // The place taken goes back to the queue: the callers behind it move up by one call.
        await db.execute(sql`update meli_rate_buckets set tat = tat - interval_ms * interval '1 millisecond'
          where key in (${sql.join(
            specs.map((b) => sql`${b.key}`),
            sql`, `,
          )})`);
        throw new MeliApiError("rate-limited", {}, { message: BUSY_MESSAGE, retryAfterSeconds: Math.ceil(wait / 1000) });
      }
      // A 429 may arrive while we wait: look again before going.
      while (wait > 0) {
        if (maxWaitMs !== undefined && waited + wait > maxWaitMs)
          throw new MeliApiError("rate-limited", {}, { message: BUSY_MESSAGE, retryAfterSeconds: Math.ceil(wait / 1000) });
        await sleep(Math.ceil(wait), signal);
        waited += Math.ceil(wait);
        wait = await blockedMs(specs.map((s) => s.key));
      }
      return waited;
    },

    async hold(keys, signal) {
      for (;;) {
        const until = Math.max(0, ...keys.map((k) => localBlocks.get(k) ?? 0));
        const wait = until - performance.now();
        if (wait <= 0) return;
        await sleep(wait, signal);
      }
    },

    async block(key, seconds) {
      const ms = Math.max(0, seconds * 1000);
      localBlocks.set(key, Math.max(localBlocks.get(key) ?? 0, performance.now() + ms));
      await db.execute(sql`
        update meli_rate_buckets set
          blocked_until = greatest(coalesce(blocked_until, clock_timestamp()), clock_timestamp() + ${ms}::float8 * interval '1 millisecond'),
          tat = greatest(tat, clock_timestamp() + (${ms}::float8 + burst_ms) * interval '1 millisecond')
        where key = ${key}`);
    },
  };
}
