// A list's tab bar (the tab is a URL parameter like any filter): one button per tab, the chosen one filled.
import { cn } from "#shared/ui/cn.ts";

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
          className={cn(
            "rounded-md px-3 py-1.5 text-sm whitespace-nowrap",
            value === t ? "bg-primary text-primary-foreground" : "hover:bg-muted text-muted-foreground",
          )}
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
