// The workbench's time window and its daily series: the last N UTC days (today included), counted with one grouped
// query per series and filled with 0 for the days without events.
import { and, count, gte, lt, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "../../db/client.ts";
import type { WorkbenchPoint } from "#shared/contract/workbench.ts";

const DAY_MS = 86_400_000;

export type WorkbenchWindow = {
  days: number;
  /** 00:00 UTC of the first day (inclusive). */
  start: Date;
  /** 00:00 UTC of the day after today (exclusive). */
  end: Date;
  /** The window's days as YYYY-MM-DD, oldest first. */
  dates: string[];
};

function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The last `days` UTC days up to and including the day of `now`. */
export function windowOf(days: number, now = new Date()): WorkbenchWindow {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const start = end - days * DAY_MS;
  const dates = Array.from({ length: days }, (_, i) => utcDay(new Date(start + i * DAY_MS)));
  return { days, start: new Date(start), end: new Date(end), dates };
}

/** 00:00 UTC of the day of `now`. */
export function startOfUtcDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Rows of `table` per UTC day of `column` within the window, as one grouped query (days without rows are absent; the
 * service fills them). `where` narrows the rows (tenant, creator); the tenant policy applies underneath.
 */
export async function countPerDay(
  tx: Tx,
  table: PgTable,
  column: PgColumn,
  where: SQL | undefined,
  w: WorkbenchWindow,
): Promise<WorkbenchPoint[]> {
  const day = sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await tx
    .select({ date: day, value: count() })
    .from(table)
    .where(and(where, gte(column, w.start), lt(column, w.end)))
    .groupBy(sql`1`);
  return rows.map((r) => ({ date: String(r.date), value: Number(r.value) }));
}

/** One point per day of the window in order, 0 where `points` has none; points outside the window are dropped. */
export function fillDays(points: WorkbenchPoint[], w: WorkbenchWindow): WorkbenchPoint[] {
  const byDate = new Map<string, number>();
  for (const p of points) byDate.set(p.date, (byDate.get(p.date) ?? 0) + Number(p.value));
  return w.dates.map((date) => ({ date, value: byDate.get(date) ?? 0 }));
}
