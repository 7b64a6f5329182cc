// A day field that shows yyyy-mm-dd whatever the browser's locale (a native date input shows mm/dd/yyyy in an
// English browser): a text box that takes a typed day, and a calendar (Chinese month and weekday names, weeks from
// Monday) to pick one. A complete, valid day inside min–max applies at once; anything else typed goes back to the
// current value when the box loses focus.
import { CalendarDays, ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { useState } from "react";
import { Button } from "./button.tsx";
import { cn } from "./cn.ts";
import { Input } from "./input.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "./popover.tsx";

const pad = (n: number) => String(n).padStart(2, "0");

/** A local day as yyyy-mm-dd. */
export const toDayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** yyyy-mm-dd of a real day (not 2024-02-30), else null; single-digit months and days are accepted and padded. */
export function parseDayText(text: string): string | null {
  const m = /^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\s*$/.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(year, month - 1, day);
  return d.getFullYear() === year && d.getMonth() === month - 1 && d.getDate() === day ? toDayText(d) : null;
}

const inRange = (day: string, min?: string, max?: string) => (!min || day >= min) && (!max || day <= max);

/** The 6×7 days shown for a month, weeks starting on Monday. */
export function monthDays(year: number, month: number): Date[] {
  const first = new Date(year, month, 1);
  const start = new Date(year, month, 1 - ((first.getDay() + 6) % 7));
  return Array.from({ length: 42 }, (_, i) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + i));
}

const WEEKDAYS = ["一", "二", "三", "四", "五", "六", "日"];

export type DateInputProps = {
  /** yyyy-mm-dd, or "" for none. */
  value: string;
  onChange: (day: string) => void;
  min?: string;
  max?: string;
  placeholder?: string;
  className?: string;
  "aria-label"?: string;
  /** On the text box; the calendar button gets `<id>-calendar`. */
  "data-testid"?: string;
};

export function DateInput({ value, onChange, min, max, placeholder = "年-月-日", className, ...rest }: DateInputProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const testId = rest["data-testid"];

  const type = (text: string) => {
    const day = parseDayText(text);
    if (text.trim() === "") {
      setDraft(null);
      onChange("");
    } else if (day && inRange(day, min, max)) {
      setDraft(null);
      onChange(day);
    } else setDraft(text);
  };
  const pick = (day: string) => {
    setDraft(null);
    onChange(day);
    setOpen(false);
  };

  return (
    <div className={cn("relative", className)}>
      <Input
        value={draft ?? value}
        placeholder={placeholder}
        inputMode="numeric"
        maxLength={10}
        aria-label={rest["aria-label"]}
        aria-invalid={draft !== null || undefined}
        className="pr-8 tabular-nums"
        onChange={(e) => type(e.target.value)}
        onBlur={() => setDraft(null)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setDraft(null);
        }}
        data-testid={testId}
      />
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <button
            type="button"
            className="text-muted-foreground hover:text-foreground absolute top-1/2 right-1.5 -translate-y-1/2 cursor-pointer rounded p-1"
            aria-label={`${rest["aria-label"] ?? "日期"}：选择日期`}
            data-testid={testId ? `${testId}-calendar` : undefined}
          >
            <CalendarDays className="size-4" />
          </button>
        </PopoverTrigger>
        <PopoverContent className="w-auto p-2">
          <Calendar value={value} min={min} max={max} onPick={pick} onClear={() => pick("")} testId={testId} />
        </PopoverContent>
      </Popover>
    </div>
  );
}

function Calendar({
  value,
  min,
  max,
  onPick,
  onClear,
  testId,
}: {
  value: string;
  min?: string;
  max?: string;
  onPick: (day: string) => void;
  onClear: () => void;
  testId?: string;
}) {
  const today = toDayText(new Date());
  const shown = parseDayText(value) ?? today;
  const [month, setMonth] = useState(() => ({ year: Number(shown.slice(0, 4)), month: Number(shown.slice(5, 7)) - 1 }));
  const step = (months: number) =>
    setMonth(({ year, month: m }) => {
      const d = new Date(year, m + months, 1);
      return { year: d.getFullYear(), month: d.getMonth() };
    });
  const nav = "size-7";

  return (
    <div className="flex flex-col gap-2 text-sm" data-testid={testId ? `${testId}-calendar-panel` : undefined}>
      <div className="flex items-center gap-0.5">
        <Button variant="ghost" size="icon" className={nav} aria-label="上一年" onClick={() => step(-12)}>
          <ChevronsLeft />
        </Button>
        <Button variant="ghost" size="icon" className={nav} aria-label="上个月" onClick={() => step(-1)}>
          <ChevronLeft />
        </Button>
        <span className="flex-1 text-center font-medium tabular-nums" data-slot="calendar-month">
          {month.year}年{month.month + 1}月
        </span>
        <Button variant="ghost" size="icon" className={nav} aria-label="下个月" onClick={() => step(1)}>
          <ChevronRight />
        </Button>
        <Button variant="ghost" size="icon" className={nav} aria-label="下一年" onClick={() => step(12)}>
          <ChevronsRight />
        </Button>
      </div>
      <div className="grid grid-cols-7 gap-0.5 text-center" role="grid" aria-label={`${month.year}年${month.month + 1}月`}>
        {WEEKDAYS.map((w) => (
          <span key={w} className="text-muted-foreground py-1 text-xs" role="columnheader">
            {w}
          </span>
        ))}
        {monthDays(month.year, month.month).map((d) => {
          const day = toDayText(d);
          const selected = day === value;
          return (
            <button
              key={day}
              type="button"
              role="gridcell"
              aria-selected={selected}
              aria-label={day}
              disabled={!inRange(day, min, max)}
              onClick={() => onPick(day)}
              data-day={day}
              className={cn(
                "size-8 cursor-pointer rounded-md tabular-nums transition-colors disabled:cursor-not-allowed disabled:opacity-30",
                d.getMonth() !== month.month && "text-muted-foreground/60",
                selected ? "bg-primary text-primary-foreground" : "hover:bg-accent",
                day === today && !selected && "ring-primary/50 ring-1",
              )}
            >
              {d.getDate()}
            </button>
          );
        })}
      </div>
      <div className="flex justify-between border-t pt-2">
        <Button variant="ghost" size="sm" onClick={onClear}>
          清除
        </Button>
        <Button variant="ghost" size="sm" disabled={!inRange(today, min, max)} onClick={() => onPick(today)}>
          今天
        </Button>
      </div>
    </div>
  );
}
