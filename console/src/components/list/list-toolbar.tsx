// The lists' one toolbar: filters declared as data (search text, facet select, date range, number range, or a control
// of the screen's own) rendered in order, then the reset button and the screen's extra controls. Filters under
// `more` sit in a second row that 更多筛选 opens (open from the start when one of them is set).
import { ChevronDown, ChevronUp, RotateCcw } from "lucide-react";
import { Fragment, useState, type ReactNode } from "react";
import { Button } from "#shared/ui/button.tsx";
import { DataTableToolbar } from "#shared/ui/data-table.tsx";
import { SearchInput } from "#shared/ui/search-input.tsx";
import { AllSelect, type Choice } from "./all-select.tsx";
import { DateRangeFilter } from "./date-range-filter.tsx";

type RangeEnd = { key: string; placeholder: string; testId: string };

export type ListFilter =
  | {
      kind: "search";
      key: string;
      /** Accessible name, and the placeholder unless one is given. */
      label: string;
      placeholder?: string;
      maxLength: number;
      /** Without the magnifier (an exact-match field). */
      plain?: boolean;
      className?: string;
      testId: string;
    }
  | {
      kind: "facet";
      key: string;
      label: string;
      /** The "all" choice's text; without it every choice is a real value. */
      all?: string;
      options: readonly Choice[];
      /** Params that go back to their defaults when this one changes (e.g. a category of another site). */
      clears?: string[];
      className?: string;
      testId: string;
      itemTestId?: string;
    }
  | { kind: "date-range"; from: string; to: string; testId: string }
  | { kind: "number-range"; label: string; min: RangeEnd; max: RangeEnd; maxLength: number; className: string }
  | { kind: "custom"; key: string; render: () => ReactNode };

/** Absent filters (null/false) are skipped, so a screen can declare one only for some users. */
export type ListFilters = readonly (ListFilter | null | false)[];

export type ListToolbarProps<S extends object> = {
  filters: ListFilters;
  /** The list's state (useListUrlState); values are read by the filters' keys. */
  state: S;
  /** A change of some params (the list goes back to page 1). */
  onChange: (change: Partial<S>) => void;
  /** Without it there is no reset button. */
  onReset?: () => void;
  canReset?: boolean;
  resetTestId?: string;
  /** Filters of the second row, behind 更多筛选. */
  more?: { filters: ListFilters; buttonTestId: string; rowTestId: string };
  testId?: string;
  /** The screen's own controls after the filters (e.g. a bulk button). */
  children?: ReactNode;
};

const present = (filters: ListFilters) => filters.filter((f): f is ListFilter => !!f);
const keyOf = (f: ListFilter) =>
  f.kind === "date-range" ? `${f.from}-${f.to}` : f.kind === "number-range" ? `${f.min.key}-${f.max.key}` : f.key;

export function ListToolbar<S extends object>(props: ListToolbarProps<S>) {
  const { filters, state, onReset, canReset, resetTestId, more, testId, children } = props;
  const values = state as Record<string, unknown>;
  // The filters name their params by key; the state's own type cannot follow them.
  const onChange = (change: Record<string, string>) => props.onChange(change as Partial<S>);
  const text = (key: string) => String(values[key] ?? "");
  const moreFilters = present(more?.filters ?? []);
  // Open from the start when a link arrives with one of the second row's filters set.
  const [open, setOpen] = useState(() => moreFilters.some((f) => isSet(f, text)));

  const render = (f: ListFilter) => {
    switch (f.kind) {
      case "search":
        return (
          <SearchInput
            key={f.key}
            plain={f.plain}
            value={text(f.key)}
            onSearch={(v) => onChange({ [f.key]: v })}
            placeholder={f.placeholder ?? f.label}
            aria-label={f.label}
            maxLength={f.maxLength}
            className={f.className}
            data-testid={f.testId}
          />
        );
      case "facet":
        return (
          <AllSelect
            key={f.key}
            value={text(f.key)}
            onChange={(v) => onChange({ [f.key]: v, ...Object.fromEntries((f.clears ?? []).map((k) => [k, ""])) })}
            all={f.all}
            options={f.options}
            label={f.label}
            className={f.className}
            testId={f.testId}
            itemTestId={f.itemTestId}
          />
        );
      case "date-range":
        return (
          <DateRangeFilter
            key={keyOf(f)}
            start={text(f.from)}
            end={text(f.to)}
            onChange={(r) => onChange({ [f.from]: r.start, [f.to]: r.end })}
            testId={f.testId}
          />
        );
      case "number-range":
        return (
          <div key={keyOf(f)} className="flex items-center gap-1.5" role="group" aria-label={f.label}>
            {[f.min, f.max].map((end, i) => [
              i ? (
                <span key="-" className="text-muted-foreground text-sm">
                  -
                </span>
              ) : null,
              <SearchInput
                key={end.key}
                plain
                value={text(end.key)}
                onSearch={(v) => onChange({ [end.key]: v })}
                placeholder={end.placeholder}
                aria-label={end.placeholder}
                maxLength={f.maxLength}
                className={f.className}
                data-testid={end.testId}
              />,
            ])}
          </div>
        );
      case "custom":
        return <Fragment key={f.key}>{f.render()}</Fragment>;
    }
  };

  const firstRow = (
    <DataTableToolbar data-testid={more ? undefined : testId}>
      {present(filters).map(render)}
      {more ? (
        <Button variant="ghost" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid={more.buttonTestId}>
          {open ? <ChevronUp /> : <ChevronDown />}
          更多筛选
        </Button>
      ) : null}
      {onReset ? (
        <Button variant="ghost" onClick={onReset} disabled={!canReset} data-testid={resetTestId}>
          <RotateCcw />
          重置
        </Button>
      ) : null}
      {children}
    </DataTableToolbar>
  );
  if (!more) return firstRow;
  return (
    <div className="flex flex-col gap-2" data-testid={testId}>
      {firstRow}
      {open ? <DataTableToolbar data-testid={more.rowTestId}>{moreFilters.map(render)}</DataTableToolbar> : null}
    </div>
  );
}

/** Whether a filter holds something other than its "no filter" value. */
function isSet(f: ListFilter, text: (key: string) => string): boolean {
  switch (f.kind) {
    case "search":
      return text(f.key).trim() !== "";
    case "facet":
      return text(f.key) !== "all" && text(f.key) !== "";
    case "date-range":
      return !!(text(f.from) || text(f.to));
    case "number-range":
      return !!(text(f.min.key).trim() || text(f.max.key).trim());
    case "custom":
      return text(f.key).trim() !== "";
  }
}
