// The lists' one select of a facet: an optional "all" choice (no filter) and the facet's values.
import type { ReactNode } from "react";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { ALL } from "./url-params.ts";

export type Choice = { value: string | number; label: ReactNode };

export type AllSelectProps = {
  value: string;
  onChange: (value: string) => void;
  /** The "all" choice's text; without it every choice is a real value. */
  all?: string;
  options: readonly Choice[];
  /** Accessible name of the trigger. */
  label: string;
  className?: string;
  /** The trigger's test id. */
  testId: string;
  /** Each choice's test id is `${itemTestId}-${value}`; defaults to testId. */
  itemTestId?: string;
};

// Radix's Select cannot hold "" as an item value (the default order of a sort is ""); it travels as "default".
const EMPTY = "default";
const toItem = (v: string | number) => (v === "" ? EMPTY : String(v));

export function AllSelect({ value, onChange, all, options, label, className = "w-36", testId, itemTestId = testId }: AllSelectProps) {
  return (
    <Select value={toItem(value)} onValueChange={(v) => onChange(v === EMPTY ? "" : v)}>
      <SelectTrigger className={className} aria-label={label} data-testid={testId}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {all ? <SelectItem value={ALL}>{all}</SelectItem> : null}
        {options.map((o) => (
          <SelectItem key={o.value} value={toItem(o.value)} data-testid={`${itemTestId}-${toItem(o.value)}`}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
