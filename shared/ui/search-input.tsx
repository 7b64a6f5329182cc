// A search box that reports its text a moment after typing stops (or at once on Enter), so a list is not queried on
// every keystroke; it follows its value when that changes from outside (a reset, a link).
import { Search } from "lucide-react";
import { useEffect, useRef, useState, type ComponentProps } from "react";
import { cn } from "./cn.ts";
import { Input } from "./input.tsx";

const DEBOUNCE_MS = 400;

export type SearchInputProps = Omit<ComponentProps<"input">, "value" | "onChange" | "defaultValue"> & {
  value: string;
  onSearch: (value: string) => void;
  /** Hide the magnifier (e.g. for an exact-match field). */
  plain?: boolean;
};

export function SearchInput({ value, onSearch, className, onKeyDown, plain = false, ...props }: SearchInputProps) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(onSearch);
  latest.current = onSearch;

  useEffect(() => setText(value), [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  function report(next: string) {
    clearTimeout(timer.current);
    if (next.trim() !== value.trim()) latest.current(next);
  }

  return (
    <div className={cn("relative w-full sm:w-56", className)}>
      {plain ? null : (
        <Search aria-hidden="true" className="text-muted-foreground pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2" />
      )}
      <Input
        type="search"
        className={plain ? undefined : "pl-9"}
        value={text}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => report(next), DEBOUNCE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") report(text);
          onKeyDown?.(e);
        }}
        {...props}
      />
    </div>
  );
}
