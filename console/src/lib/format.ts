// The console's one set of display helpers for dates and money: local date-times, server decimal strings, and the
// local day ranges that date filters turn into ISO instants.

const pad = (n: number) => String(n).padStart(2, "0");

const parse = (iso: string | null | undefined): Date | null => {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** "2024-05-01" in local time (also the value format of <input type="date">). */
export function formatDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** "2024-05-01" in local time from an ISO string; "-" for nothing or an unreadable value. */
export function formatDay(iso: string | null | undefined): string {
  const d = parse(iso);
  return d ? formatDate(d) : "-";
}

/** "2024-05-01 13:45:09" in local time; "-" for nothing or an unreadable value. */
export function formatDateTime(iso: string | null | undefined): string {
  const d = parse(iso);
  return d ? `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` : "-";
}

/** A decimal string from the server ("12345.5") with thousands separators and two decimals; shown as is if unreadable. */
export function formatAmount(value: string | null | undefined): string {
  if (value == null || value === "") return "-";
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  return n.toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** yyyy-mm-dd as local midnight; null when empty or not a real date. */
export function parseLocalDate(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getMonth() === Number(m[2]) - 1 ? d : null;
}

/** The ISO instants a local day range (yyyy-mm-dd inputs) covers: from the start of the first day to the end of the
 *  last; a bound left out when its input is empty or not a date. */
export function localDayRange(start: string, end: string): { from?: string; to?: string } {
  const range: { from?: string; to?: string } = {};
  const from = parseLocalDate(start);
  const to = parseLocalDate(end);
  if (from) range.from = from.toISOString();
  if (to) {
    to.setHours(23, 59, 59, 999);
    range.to = to.toISOString();
  }
  return range;
}

/** "CNY 12.50" or "CNY 12.50 ~ 30.00" (a price range); "-" when there is no price. */
export function formatPrice(price: string | null | undefined, priceMax?: string | null, currency?: string | null): string {
  if (price == null || price === "") return "-";
  const range = priceMax && priceMax !== price && Number(priceMax) > Number(price) ? ` ~ ${formatAmount(priceMax)}` : "";
  return `${currency ? `${currency} ` : ""}${formatAmount(price)}${range}`;
}
