// A copy in chunks: the next `size` source rows after the last one a chunk took, in the order they were written
// (creation time, then id: the tables' own (tenant, creation_time, id) indexes, and nearly the heap's order, so a
// chunk reads its rows as a scan of the table would rather than from all over it), copied by one INSERT … SELECT that
// skips rows already there (the copy's ids are fixed by the source's: sql.ts copyId), in the chunk's transaction with
// whatever a move does to the source. A retried task goes on after the last chunk it committed; one stopped in the
// middle of a chunk does that chunk again, finding its copies there.
import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { rowsOf, type Tx } from "../../db/client.ts";
import { copyRows } from "./sql.ts";

/** How far a chunked copy got: "<creation time>|<id>" of the last source row it took. */
export type ChunkKey = string;

export type Chunk = { taken: number; copied: number; last: ChunkKey | null };

export type ChunkedCopy = {
  /** A table with creation_time and id. */
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

const keyOf = (k: ChunkKey) => {
  const cut = k.lastIndexOf("|");
  return sql`(${k.slice(0, cut)}::timestamptz, ${k.slice(cut + 1)}::uuid)`;
};

export async function copyChunk(tx: Tx, c: ChunkedCopy, after: ChunkKey | null, size: number): Promise<Chunk> {
  const where = sql`${c.where}${after ? sql` and (s.creation_time, s.id) > ${keyOf(after)}` : sql``}`;
  const [range] = rowsOf<{ n: number; last: string | null }>(
    await tx.execute(sql`select count(*)::int as n, (array_agg(x.k order by x.creation_time desc, x.id desc))[1] as last
      from (select s.creation_time, s.id, s.creation_time::text || '|' || s.id::text as k from ${c.table} s where ${where}
        order by s.creation_time, s.id limit ${size}) x`),
  );
  if (!range?.n || !range.last) return { taken: 0, copied: 0, last: after };
  const inRange = sql`${where} and (s.creation_time, s.id) <= ${keyOf(range.last)}`;
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
