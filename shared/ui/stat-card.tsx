import type { ReactNode } from "react";
import { Card } from "./card.tsx";
import { cn } from "./cn.ts";
import { Skeleton } from "./skeleton.tsx";

export type StatCardProps = {
  title: ReactNode;
  value: ReactNode;
  /** A line under the value, e.g. "较昨日 +12%". */
  hint?: ReactNode;
  icon?: ReactNode;
  /** Shows a placeholder for the value while it loads. */
  loading?: boolean;
  className?: string;
};

/** A KPI card for the workbench. */
export function StatCard({ title, value, hint, icon, loading = false, className }: StatCardProps) {
  return (
    <Card data-slot="stat-card" className={cn("flex items-start justify-between gap-4 p-5", className)}>
      <div className="flex min-w-0 flex-col gap-1">
        {/* A div, not a p: the title may be a placeholder block while loading. */}
        <div className="text-muted-foreground truncate text-sm">{title}</div>
        {loading ? (
          <Skeleton className="my-1 h-7 w-20" />
        ) : (
          <div data-slot="stat-value" className="text-2xl font-semibold tracking-tight tabular-nums">
            {value}
          </div>
        )}
        {hint && <div className="text-muted-foreground truncate text-xs">{hint}</div>}
      </div>
      {icon && (
        <div
          aria-hidden="true"
          className="bg-primary/10 text-primary flex size-10 shrink-0 items-center justify-center rounded-lg [&_svg]:size-5"
        >
          {icon}
        </div>
      )}
    </Card>
  );
}
