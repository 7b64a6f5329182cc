// The statistics drawer's numbers: the period asked for (UTC days, as GetTenantStatisticsInfo counts them) and the
// answer's day points shaped as the chart's columns (one x per day, gaps filled with 0, so a quiet day is a 0 on the
// chart and not a line drawn across it).
import { STATISTICS_DEFAULT_DAYS, STATISTICS_MAX_DAYS } from "#shared/contract/tenant-admin.ts";

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of a UTC day. */
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

export type StatisticsPeriod = { start: string; end: string };

/** The last `days` UTC days, today included (the server's default). */
export function lastDays(today: Date, days = STATISTICS_DEFAULT_DAYS): StatisticsPeriod {
  const end = utcDay(today);
  return { start: utcDay(new Date(dayMs(end) - (days - 1) * DAY_MS)), end };
}

/** Why a chosen period cannot be asked for, or null when it can. */
export function periodProblem(p: StatisticsPeriod): string | null {
  if (!p.start || !p.end) return "请选择开始和结束日期";
  const days = (dayMs(p.end) - dayMs(p.start)) / DAY_MS + 1;
  if (!Number.isFinite(days)) return "日期格式不正确";
  if (days < 1) return "结束日期不能早于开始日期";
  if (days > STATISTICS_MAX_DAYS) return `统计周期最长 ${STATISTICS_MAX_DAYS} 天`;
  return null;
}

type DayPoint = { date: string; productAckCount: number; uploadStatCount: number; activeAccountCount: number };

export type StatisticsSeries = {
  /** Unix seconds of each day's UTC midnight (uPlot's time axis). */
  x: number[];
  collected: number[];
  published: number[];
  activeShops: number[];
};

/** One column per day from start to end; a day the answer does not have counts 0. */
export function statisticsSeries(period: StatisticsPeriod, days: DayPoint[]): StatisticsSeries {
  const byDay = new Map(days.map((d) => [d.date.slice(0, 10), d]));
  const out: StatisticsSeries = { x: [], collected: [], published: [], activeShops: [] };
  const last = dayMs(period.end);
  for (let t = dayMs(period.start); t <= last; t += DAY_MS) {
    const d = byDay.get(utcDay(new Date(t)));
    out.x.push(t / 1000);
    out.collected.push(d?.productAckCount ?? 0);
    out.published.push(d?.uploadStatCount ?? 0);
    out.activeShops.push(d?.activeAccountCount ?? 0);
  }
  return out;
}
