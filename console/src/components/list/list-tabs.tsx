// A list's tab bars (the tab is a URL parameter like any filter): one button per tab, the chosen one filled. ListTabs
// names its tabs; StatusTabs is the `status` param of a list whose groups read counts its rows by status (orders,
// listings): 全部 and a tab per status, each with its count.
import { cn } from "#shared/ui/cn.ts";
import { ALL } from "./url-params.ts";

/** A tab button's look, chosen or not. */
export const tabClass = (active: boolean) =>
  cn(
    "rounded-md px-3 py-1.5 text-sm whitespace-nowrap",
    active ? "bg-primary text-primary-foreground" : "hover:bg-muted text-muted-foreground",
  );

export function ListTabs<K extends string>({
  tabs,
  value,
  onChange,
  label,
  testId,
  suffix = "",
}: {
  /** The tabs in order, with their labels. */
  tabs: Record<K, string>;
  value: K;
  onChange: (tab: K) => void;
  /** What the tabs choose (the tab list's aria-label). */
  label: string;
  /** Each button's data-testid is `${testId}-${tab}`. */
  testId: string;
  /** Written after every label (e.g. 记录 for 充值记录). */
  suffix?: string;
}) {
  return (
    <div className="flex gap-1 border-b pb-2" role="tablist" aria-label={label}>
      {(Object.keys(tabs) as K[]).map((t) => (
        <button
          key={t}
          type="button"
          role="tab"
          aria-selected={value === t}
          className={tabClass(value === t)}
          onClick={() => onChange(t)}
          data-testid={`${testId}-${t}`}
        >
          {tabs[t]}
          {suffix}
        </button>
      ))}
    </div>
  );
}

type Count = { count: number; capped: boolean };
/** The groups read's counts: the filter's total and one per status, each ignoring the filter's status. */
export type StatusCounts = { total: Count; statuses: (Count & { status: number })[] };

/** 全部's count: the list's own total while it shows every status (one number on the screen), else the statuses' sum. */
function allStatusesCount(counts: StatusCounts, status: string): Count {
  if (status === ALL) return counts.total;
  return { count: counts.statuses.reduce((n, x) => n + x.count, 0), capped: counts.statuses.some((x) => x.capped) };
}

function CountBadge({ count }: { count: Count | undefined }) {
  if (!count) return null;
  return (
    <span className="ml-1 tabular-nums opacity-80">
      {count.count.toLocaleString("zh-CN")}
      {count.capped ? "+" : ""}
    </span>
  );
}

export function StatusTabs({
  counts,
  statuses,
  labelOf,
  value,
  onChange,
  label,
  testId,
}: {
  /** Undefined while the groups are read: the tabs show no counts yet. */
  counts: StatusCounts | undefined;
  /** The statuses with a tab, in order, after 全部. */
  statuses: readonly number[];
  labelOf: (status: number) => string;
  /** The `status` param: ALL or a status. */
  value: string;
  onChange: (status: string) => void;
  /** What the tabs choose (the tab list's aria-label). */
  label: string;
  /** The bar's data-testid is `${testId}-status-tabs`, a tab's `${testId}-tab-${status}` (全部: `-all`). */
  testId: string;
}) {
  const countOf = (s: number) => counts?.statuses.find((x) => x.status === s);
  return (
    <div className="flex flex-wrap gap-1 border-b pb-2" role="tablist" aria-label={label} data-testid={`${testId}-status-tabs`}>
      <button
        type="button"
        role="tab"
        aria-selected={value === ALL}
        className={tabClass(value === ALL)}
        onClick={() => onChange(ALL)}
        data-testid={`${testId}-tab-all`}
      >
        全部
        <CountBadge count={counts && allStatusesCount(counts, value)} />
      </button>
      {statuses.map((s) => (
        <button
          key={s}
          type="button"
          role="tab"
          aria-selected={value === String(s)}
          className={tabClass(value === String(s))}
          onClick={() => onChange(String(s))}
          data-testid={`${testId}-tab-${s}`}
          data-count={countOf(s)?.count ?? 0}
        >
          {labelOf(s)}
          <CountBadge count={countOf(s)} />
        </button>
      ))}
    </div>
  );
}
