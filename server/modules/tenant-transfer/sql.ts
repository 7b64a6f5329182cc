// The SQL pieces every transfer is made of: the copy's id of a source row, a uuid list as one parameter, and an
// INSERT … SELECT over a table's own columns, so a column added to a table later is copied without anyone listing it.
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * Which tenant a copy goes from and to, and who owns what it brings. The salt makes the copy's ids: the same source
 * row copied to the same tenant always gets the same id (a retried or repeated copy finds it there and skips it), and
 * an id that says nothing of the source row.
 */
export type Leg = { src: string; dest: string; owner: string };

const saltOf = (leg: Pick<Leg, "src" | "dest">) => `${leg.src}>${leg.dest}:`;

/**
 * The copy's id of a source row's id (`column`): md5 of the salt and the id, shaped as a version-4 UUID. The same
 * expression maps a reference (a listing's product, an order line's product) to the copy it must point at.
 */
export const copyId = (leg: Pick<Leg, "src" | "dest">, column: SQL) =>
  sql`overlay(overlay(md5(${saltOf(leg)}::text || ${column}::text) placing '4' from 13) placing '8' from 17)::uuid`;

/** Ids as one parameter (uuid[]): `x = any(${uuids(ids)})`, whatever their number. */
export const uuids = (ids: readonly string[]) => sql`string_to_array(${ids.join(",")}::text, ',')::uuid[]`;

const quoted = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/**
 * `insert into <table> (<every column>) select <each column of alias s, or its override> from <from>`: the caller
 * gives the FROM … WHERE part and what follows. An override names a column the table must have.
 */
export function copyRows(table: PgTable, overrides: Record<string, SQL>, from: SQL): SQL {
  const names = Object.values(getTableColumns(table)).map((c) => c.name);
  for (const k of Object.keys(overrides)) if (!names.includes(k)) throw new Error(`copyRows: no column ${k}`);
  const into = sql.join(names.map(quoted), sql`, `);
  const select = sql.join(
    names.map((n) => overrides[n] ?? sql`s.${quoted(n)}`),
    sql`, `,
  );
  return sql`insert into ${table} (${into}) select ${select} from ${from}`;
}

/** Audit columns of a copy: created by the new owner (the source's creation time kept), never modified yet. */
export function copiedAudit(leg: Leg, table: PgTable): Record<string, SQL> {
  const names = Object.values(getTableColumns(table)).map((c) => c.name);
  const out: Record<string, SQL> = {};
  if (names.includes("creator_id")) out.creator_id = sql`${leg.owner}::uuid`;
  if (names.includes("last_modifier_id")) out.last_modifier_id = sql`null`;
  if (names.includes("deleter_id")) out.deleter_id = sql`null`;
  if (names.includes("concurrency_stamp")) out.concurrency_stamp = sql`gen_random_uuid()::text`;
  return out;
}
