// The two record lists' tab bar (top-ups, withdrawals), kept in the URL's `tab` like any filter.
import { cn } from "@shared/ui/cn.ts";
import type { RecordTab } from "./finance-search-params.ts";

const TAB_LABELS: Record<RecordTab, string> = { charge: "充值", withdraw: "提现" };

export function RecordTabs({ value, onChange, suffix }: { value: RecordTab; onChange: (tab: RecordTab) => void; suffix: string }) {
  return (
    <div className="flex gap-1 border-b pb-2" role="tablist" aria-label="记录类型">
      {(Object.keys(TAB_LABELS) as RecordTab[]).map((t) => (
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
          data-testid={`finance-tab-${t}`}
        >
          {TAB_LABELS[t]}
          {suffix}
        </button>
      ))}
    </div>
  );
}
