// Display helpers for the personal-centre screens (sub-accounts, currency rates, profile): dates in local time, limits
// where null means no limit, amounts as the server's decimal strings.

const pad = (n: number) => String(n).padStart(2, "0");

/** "2024-05-01 13:45:09" in local time; "-" for nothing or an unreadable value. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "-";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "-";
  return `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "2024-05-01" in local time (also the value format of <input type="date">). */
export function formatDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A per-user limit: null (or absent) means the user has no limit. */
export function formatLimit(value: number | null | undefined): string {
  return value == null ? "不限" : value.toLocaleString("zh-CN");
}

/** A decimal string from the server ("12345.5") with thousands separators and two decimals; shown as is if unreadable. */
export function formatAmount(value: string | null | undefined): string {
  if (value == null || value === "") return "-";
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  return n.toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** The ISO instants a local date range (yyyy-mm-dd inputs) covers: from the start of the first day to the end of the last. */
export function dateRangeToIso(start: string, end: string): { StartDate?: string; EndDate?: string } {
  const range: { StartDate?: string; EndDate?: string } = {};
  const from = parseLocalDate(start);
  const to = parseLocalDate(end);
  if (from) range.StartDate = from.toISOString();
  if (to) {
    to.setHours(23, 59, 59, 999);
    range.EndDate = to.toISOString();
  }
  return range;
}

/** yyyy-mm-dd as local midnight; null when empty or not a real date. */
export function parseLocalDate(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getMonth() === Number(m[2]) - 1 ? d : null;
}

/** The last `days` days up to today, as yyyy-mm-dd strings. */
export function lastDays(days: number, today = new Date()): { start: string; end: string } {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { start: formatDate(start), end: formatDate(today) };
}
