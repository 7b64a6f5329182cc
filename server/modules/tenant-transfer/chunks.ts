// A copy in chunks: the next `size` source rows after the last id a chunk took (an index range in id order), copied
// by one INSERT … SELECT that skips rows already there (the copy's ids are fixed by the source's: sql.ts copyId), in
// the chunk's transaction with whatever a move does to the source. A retried task goes on after the last chunk it
// committed; one stopped in the middle of a chunk does that chunk again, finding its copies there.
import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { rowsOf, type Tx } from "../../db/client.ts";
import { copyRows } from "./sql.ts";

export type Chunk = { taken: number; copied: number; last: string | null };

export type ChunkedCopy = {
  table: PgTable;
  /** The chosen source rows, over alias `s`. */
  where: SQL;
  /** Columns of the copy other than the source's (sql.ts copyRows). */
  overrides: Record<string, SQL>;
  /** Joins after `<table> s` that the overrides read. */
  joins?: SQL;
  /** What a move does to the source rows of the chunk (`inRange` is their condition over alias s). */
  afterCopy?: (inRange: SQL) => Promise<void>;
};

export async function copyChunk(tx: Tx, c: ChunkedCopy, after: string | null, size: number): Promise<Chunk> {
  const where = sql`${c.where}${after ? sql` and s.id > ${after}::uuid` : sql``}`;
  const [range] = rowsOf<{ n: number; last: string | null }>(
    await tx.execute(sql`select count(*)::int as n, (array_agg(x.id order by x.id desc))[1]::text as last
      from (select s.id from ${c.table} s where ${where} order by s.id limit ${size}) x`),
  );
  if (!range?.n) return { taken: 0, copied: 0, last: after };
  const inRange = sql`${where} and s.id <= ${range.last}::uuid`;
  const insert = copyRows(c.table, c.overrides, sql`${c.table} s ${c.joins ?? sql``} where ${inRange}`);
  const [ins] = rowsOf<{ n: number }>(
    await tx.execute(sql`with ins as (${insert} on conflict do nothing returning 1) select count(*)::int as n from ins`),
  );
  await c.afterCopy?.(inRange);
  return { taken: range.n, copied: ins?.n ?? 0, last: range.last };
}

/** How many source rows a copy will go through. */
export async function countRows(tx: Tx, table: PgTable, where: SQL): Promise<number> {
  const [r] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from ${table} s where ${where}`));
  return r?.n ?? 0;
}
