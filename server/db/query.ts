// Small query-building helpers every list uses: whitelisted sorting and safe LIKE patterns.
import { asc, desc, type SQL } from "drizzle-orm";

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
