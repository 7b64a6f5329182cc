// Small query-building helpers every list uses: whitelisted sorting, safe LIKE patterns, count-and-page.
import { asc, count, desc, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { PagedResult } from "#shared/contract/common.ts";
import type { Tx } from "./client.ts";

/** "field asc|desc" (already validated against the call's whitelist by its schema) as an order by. */
export function orderBy<K extends string>(sorting: string | undefined, columns: Record<K, Parameters<typeof asc>[0]>, fallback: SQL) {
  if (!sorting) return fallback;
  const [field, dir] = sorting.trim().split(/\s+/);
  const key = (Object.keys(columns) as K[]).find((k) => k.toLowerCase() === field.toLowerCase());
  if (!key) return fallback;
  return dir?.toLowerCase() === "desc" ? desc(columns[key]) : asc(columns[key]);
}

/** A LIKE/ILIKE pattern matching `text` anywhere, with the caller's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
}

/**
 * One page of a table's rows matching `where`, with the total: the count first, and the page only when there is one.
 * The order must end on a unique column so pages never overlap.
 */
export async function pageOf<T extends PgTable, Item>(
  tx: Tx,
  table: T,
  where: SQL | undefined,
  page: { skip: number; take: number; order: SQL[]; /** A total kept elsewhere (a counter), saving the count. */ total?: number },
  map: (row: T["$inferSelect"]) => Item,
): Promise<PagedResult<Item>> {
  const n =
    page.total ??
    (
      await tx
        .select({ n: count() })
        .from(table as PgTable)
        .where(where)
    )[0].n;
  if (!n || page.skip >= n) return { items: [], totalCount: Number(n) };
  const rows = await tx
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(...page.order)
    .limit(page.take)
    .offset(page.skip);
  return { items: (rows as T["$inferSelect"][]).map(map), totalCount: Number(n) };
}

/** A timestamp column as JavaScript's toISOString writes it (UTC, milliseconds), for rows PostgreSQL builds as JSON. */
export const isoText = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** One key of a list's order, as text: a column, its direction, and whether rows without a value go last descending. */
export type SortKey = { column: string; dir: "asc" | "desc"; nullsLast?: boolean };

const orderText = (k: SortKey, column = k.column) => `${column} ${k.dir}${k.nullsLast && k.dir === "desc" ? " nulls last" : ""}`;

/**
 * A hot list's one statement, as text (the listing, order, wallet-log, product and collection lists): `n`, the rows
 * matching `where` counted up to `cap` + 1; `items`, the page's rows as JSON text PostgreSQL builds, the page chosen on
 * the filter's index (ids and sort keys only, the id breaking ties in the sort's direction so pages never overlap),
 * then each row read by primary key through `rowSelect` (a select whose FROM names `table`). `extra` adds columns to
 * the answer's row.
 */
export function pagedJsonStatement(o: {
  table: string;
  /** The table's id and tenant columns as text ("orders"."id"). */
  columns: { id: string; tenantId: string };
  where: string;
  /** The sort key, then optional further keys before the id (`then`). */
  sort: SortKey & { then?: SortKey[] };
  /** Sort columns unique within the tenant (a ledger's seq): no id after them, so their own index gives the order. */
  uniqueSorts?: string[];
  /** Parameters ($n) of the page's size and offset, and of the caller's tenant. */
  limit: string;
  offset: string;
  tenant: string;
  cap: number;
  rowSelect: string;
  extra?: string;
  /** The count as an expression of its own (a kept counter, an exact count) instead of the capped count of `where`. */
  count?: string;
  /**
   * A filter the planner cannot size (a trigram title search: a rare word and a common one look alike): the first
   * cap + 1 matches are read on the filter's own index; when that is all of them, only they are sorted, else the page
   * walks the sort's index (a common word finds its page early). Their number is the count.
   */
  fewFirst?: boolean;
}): string {
  const { id, tenantId } = o.columns;
  const keys: SortKey[] = [o.sort, ...(o.sort.then ?? [])];
  if (!o.uniqueSorts?.includes(o.sort.column)) keys.push({ column: id, dir: o.sort.dir });
  // The page's ids with their sort keys (k0, k1, …; the id itself when it breaks ties), in the order asked.
  const keyed = keys.filter((k) => k.column !== id);
  const picked = `${id} as id${keyed.map((k, i) => `, ${k.column} as k${i}`).join("")}`;
  const orderOf = (name: (k: SortKey, i: number) => string) => {
    let i = 0;
    return keys.map((k) => orderText(k, k.column === id ? name(k, -1) : name(k, i++))).join(", ");
  };
  const byTable = orderOf((k) => k.column);
  const byPage = (alias: string) => orderOf((_k, i) => (i < 0 ? `${alias}.id` : `${alias}.k${i}`));
  const window = `limit ${o.limit} offset ${o.offset}`;
  const capped = `(select count(*) from (select 1 from ${o.table} where ${o.where} limit ${o.cap + 1}) as m)`;
  const page = o.fewFirst
    ? `with few as materialized (select ${picked} from ${o.table} where ${o.where} limit ${o.cap + 1}),
    page as (
      (select few.* from few where (select count(*) from few) <= ${o.cap} order by ${byPage("few")} ${window})
      union all
      (select ${picked} from ${o.table} where ${o.where} and (select count(*) from few) > ${o.cap}
        order by ${byTable} ${window}))`
    : `with page as (select ${picked} from ${o.table} where ${o.where} order by ${byTable} ${window})`;
  const count = o.count ?? (o.fewFirst ? "(select count(*) from few)" : capped);
  return `${page}
    select ${count}::int as n,${o.extra ? ` ${o.extra},` : ""}
      (select '[' || coalesce(string_agg(row_to_json(r)::text, ',' order by ${byPage("page")}), '') || ']'
        from page, lateral (${o.rowSelect} where ${tenantId} = ${o.tenant} and ${id} = page.id) as r) as items`;
}

/** The answer's JSON of a capped page (`n` and `items` of pagedJsonStatement), with `extra` fields after. */
export function cappedPageJson(r: { n: number; items: string }, cap: number, extra = ""): string {
  const capped = r.n > cap;
  return `{"items":${r.items},"totalCount":${capped ? cap : r.n},"totalCountCapped":${capped}${extra}}`;
}

/**
 * A list's Sorting ("field asc|desc") as the sort column's text and direction: a known field (any case), else the
 * fallback's; descending only when asked. No Sorting at all is the fallback, newest first.
 */
export function sortOfText<K extends string>(sorting: string | undefined, columns: Record<K, string>, fallback: K) {
  const [field, dir] = (sorting ?? `${fallback} desc`).trim().split(/\s+/);
  const key = (Object.keys(columns) as K[]).find((k) => k.toLowerCase() === field.toLowerCase());
  return { column: columns[key ?? fallback], dir: dir?.toLowerCase() === "desc" ? ("desc" as const) : ("asc" as const) };
}
