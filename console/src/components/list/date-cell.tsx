// A date-time in a list cell, in local time: on one line, or stacked as day over time in a narrow column.
import { cn } from "#shared/ui/cn.ts";
import { formatDateTime } from "../../lib/format.ts";

export function DateCell({ iso, stacked = false, className }: { iso: string | null | undefined; stacked?: boolean; className?: string }) {
  if (!stacked) return <span className={cn("text-muted-foreground whitespace-nowrap tabular-nums", className)}>{formatDateTime(iso)}</span>;
  const [day, time] = formatDateTime(iso).split(" ");
  return (
    <div className={cn("text-muted-foreground flex flex-col text-xs whitespace-nowrap tabular-nums", className)}>
      <span>{day}</span>
      {time ? <span>{time}</span> : null}
    </div>
  );
}
