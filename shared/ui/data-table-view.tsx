// A table's view as the user sets it: row density, hidden columns and column order. DataTable applies it
// (`view` prop); DataTableViewOptions is the button that edits it. Where it is stored is the caller's choice.
import { ArrowDown, ArrowUp, Settings2 } from "lucide-react";
import { z } from "zod";
import { Button } from "./button.tsx";
import { Checkbox } from "./checkbox.tsx";
import { cn } from "./cn.ts";
import { Popover, PopoverContent, PopoverTrigger } from "./popover.tsx";

export type TableDensity = "compact" | "comfortable";

/** Unset fields take the columns' defaults (hidden: the columns marked defaultHidden; order: the code's). */
export type TableView = { density: TableDensity; hidden?: string[]; order?: string[] };

export const tableViewSchema = z.object({
  density: z.enum(["compact", "comfortable"]).catch("comfortable"),
  hidden: z.array(z.string()).optional().catch(undefined),
  order: z.array(z.string()).optional().catch(undefined),
});

/** What the view needs of a column (a subset of DataTableColumn). */
export type ViewColumn = {
  id: string;
  /** The column's name in the view menu (defaults to its header when that is text). */
  label?: string;
  header: unknown;
  /** false: always shown (e.g. the title). */
  hideable?: boolean;
  /** false: keeps its place and cannot be moved (e.g. the row actions). */
  movable?: boolean;
  /** Hidden until the user shows it. */
  defaultHidden?: boolean;
};

const labelOf = (c: ViewColumn) => c.label ?? (typeof c.header === "string" ? c.header : c.id);

function hiddenIds(columns: readonly ViewColumn[], view: TableView): Set<string> {
  const hidden = view.hidden ?? columns.filter((c) => c.defaultHidden).map((c) => c.id);
  return new Set(hidden.filter((id) => columns.some((c) => c.id === id && c.hideable !== false)));
}

/** The movable columns in the user's order; a column the saved order does not know follows its predecessor in code. */
function movableOrder<C extends ViewColumn>(columns: readonly C[], order: readonly string[] | undefined): C[] {
  const movable = columns.filter((c) => c.movable !== false);
  if (!order) return movable;
  const known = new Map(movable.map((c) => [c.id, c]));
  const result = order.flatMap((id) => known.get(id) ?? []);
  movable.forEach((c, i) => {
    if (result.includes(c)) return;
    const before = i === 0 ? -1 : result.indexOf(movable[i - 1]);
    result.splice(before + 1, 0, c);
  });
  return result;
}

/** The columns as the view shows them: in the user's order (fixed columns in their places), hidden ones left out. */
export function arrangeColumns<C extends ViewColumn>(columns: readonly C[], view: TableView | undefined): C[] {
  if (!view) return [...columns];
  const moved = movableOrder(columns, view.order);
  let next = 0;
  const ordered = columns.map((c) => (c.movable === false ? c : moved[next++]));
  const hidden = hiddenIds(columns, view);
  return ordered.filter((c) => !hidden.has(c.id));
}

/** Moves a column one place up (-1) or down (+1) among the movable ones; returns the new order. */
export function moveColumn(columns: readonly ViewColumn[], view: TableView, id: string, step: -1 | 1): string[] {
  const ids = movableOrder(columns, view.order).map((c) => c.id);
  const from = ids.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return ids;
  [ids[from], ids[to]] = [ids[to], ids[from]];
  return ids;
}

export type DataTableViewOptionsProps = {
  columns: readonly ViewColumn[];
  view: TableView;
  onChange: (view: TableView) => void;
  /** The view's defaults, restored by 恢复默认. */
  defaults: TableView;
  /** Prefix of the controls' test ids. */
  testId: string;
};

/** The 显示设置 button: row density, and the columns to show in which order. */
export function DataTableViewOptions({ columns, view, onChange, defaults, testId }: DataTableViewOptionsProps) {
  const hidden = hiddenIds(columns, view);
  const ordered = arrangeColumns(columns, { ...view, hidden: [] });
  const movable = ordered.filter((c) => c.movable !== false);
  const densities: { value: TableDensity; label: string }[] = [
    { value: "compact", label: "紧凑" },
    { value: "comfortable", label: "宽松" },
  ];
  const setHidden = (id: string, hide: boolean) =>
    onChange({ ...view, hidden: hide ? [...hidden, id] : [...hidden].filter((h) => h !== id) });

  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" data-testid={testId}>
          <Settings2 />
          显示设置
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-64" data-testid={`${testId}-panel`}>
        <div className="flex flex-col gap-3 text-sm">
          <div className="flex flex-col gap-1.5">
            <span className="text-muted-foreground text-xs">行高</span>
            <div className="bg-muted grid grid-cols-2 rounded-md p-1" role="radiogroup" aria-label="行高">
              {densities.map((d) => (
                <button
                  key={d.value}
                  type="button"
                  role="radio"
                  aria-checked={view.density === d.value}
                  className={cn("rounded px-2 py-1", view.density === d.value ? "bg-background font-medium shadow-sm" : "opacity-70")}
                  onClick={() => onChange({ ...view, density: d.value })}
                  data-testid={`${testId}-density-${d.value}`}
                >
                  {d.label}
                </button>
              ))}
            </div>
          </div>
          <div className="flex flex-col gap-1">
            <span className="text-muted-foreground text-xs">显示的列（可调整顺序）</span>
            <ul className="flex max-h-96 flex-col overflow-y-auto">
              {ordered.map((c) => {
                const index = movable.indexOf(c);
                return (
                  <li key={c.id} className="flex items-center gap-2 py-0.5" data-column-option={c.id}>
                    <Checkbox
                      id={`${testId}-column-${c.id}`}
                      checked={!hidden.has(c.id)}
                      disabled={c.hideable === false}
                      onCheckedChange={(on) => setHidden(c.id, on !== true)}
                      data-testid={`${testId}-column-${c.id}`}
                    />
                    <label htmlFor={`${testId}-column-${c.id}`} className="flex-1 truncate">
                      {labelOf(c)}
                    </label>
                    {index >= 0 ? (
                      <>
                        <Button
                          variant="ghost"
                          size="icon"
                          className="size-6"
                          aria-label={`上移 ${labelOf(c)}`}
                          disabled={index === 0}
                          onClick={() => onChange({ ...view, order: moveColumn(columns, view, c.id, -1) })}
                          data-testid={`${testId}-up-${c.id}`}
                        >
                          <ArrowUp />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          className="size-6"
                          aria-label={`下移 ${labelOf(c)}`}
                          disabled={index === movable.length - 1}
                          onClick={() => onChange({ ...view, order: moveColumn(columns, view, c.id, 1) })}
                          data-testid={`${testId}-down-${c.id}`}
                        >
                          <ArrowDown />
                        </Button>
                      </>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </div>
          <Button variant="ghost" size="sm" className="self-end" onClick={() => onChange(defaults)} data-testid={`${testId}-reset`}>
            恢复默认
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
