// Display helpers of the personal-centre screens (dates and money: lib/format.ts): limits where null means none, and
// the statistics' quick date ranges.
import { formatDate } from "../../lib/format.ts";

/** A per-user limit: null (or absent) means the user has no limit. */
export function formatLimit(value: number | null | undefined): string {
  return value == null ? "不限" : value.toLocaleString("zh-CN");
}

/** The last `days` days up to today, as yyyy-mm-dd strings. */
export function lastDays(days: number, today = new Date()): { start: string; end: string } {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { start: formatDate(start), end: formatDate(today) };
}
