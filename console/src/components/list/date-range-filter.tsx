// Two day fields (yyyy-mm-dd in every browser locale, local days) for a list filter; a start after the end is not
// applied.
import { DateInput } from "#shared/ui/date-input.tsx";

export type DateRangeFilterProps = {
  start: string;
  end: string;
  onChange: (range: { start: string; end: string }) => void;
  /** Prefix of the inputs' test ids: <prefix>-start, <prefix>-end. */
  testId: string;
};

export function DateRangeFilter({ start, end, onChange, testId }: DateRangeFilterProps) {
  const set = (next: { start: string; end: string }) => {
    if (next.start && next.end && next.start > next.end) return;
    onChange(next);
  };
  return (
    <div className="flex items-center gap-1.5" role="group" aria-label="创建时间">
      <DateInput
        className="w-36"
        aria-label="开始日期"
        placeholder="开始日期"
        value={start}
        max={end || undefined}
        onChange={(day) => set({ start: day, end })}
        data-testid={`${testId}-start`}
      />
      <span className="text-muted-foreground text-sm">至</span>
      <DateInput
        className="w-36"
        aria-label="结束日期"
        placeholder="结束日期"
        value={end}
        min={start || undefined}
        onChange={(day) => set({ start, end: day })}
        data-testid={`${testId}-end`}
      />
    </div>
  );
}
