import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useEffect, useRef, type CSSProperties, type ComponentProps, type ReactNode, type RefObject } from "react";
import { Button } from "./button.tsx";
import { Checkbox } from "./checkbox.tsx";
import { cn } from "./cn.ts";
import { arrangeColumns, type TableDensity, type TableView } from "./data-table-view.tsx";
import { Empty, EMPTY_TEXT } from "./empty.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "./select.tsx";
import { Loading, Spinner } from "./spinner.tsx";

export type DataTableColumn<T> = {
  id: string;
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** A number is pixels. Columns without a width share the rest (at least 120px each). */
  width?: number | string;
  align?: "left" | "right" | "center";
  className?: string;
  /** Stays in view at the right edge when the table scrolls sideways (a narrow window). The `actions` column is
   *  pinned unless told otherwise, so row actions stay reachable on every list. */
  pin?: "right" | false;
  /** The column's name in the view menu (defaults to its header when that is text). */
  label?: string;
  /** With a view: false keeps the column shown. */
  hideable?: boolean;
  /** With a view: false keeps the column in its place. */
  movable?: boolean;
  /** With a view: hidden until the user shows it. */
  defaultHidden?: boolean;
};

export type DataTableSelection = {
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
};

export type DataTablePagination = {
  /** 1-based. */
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number, pageSize: number) => void;
  pageSizeOptions?: number[];
};

export type DataTableProps<T> = {
  columns: DataTableColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  loading?: boolean;
  /** Defaults to 暂无数据. */
  emptyText?: ReactNode;
  /** Adds a checkbox column; the header box selects/clears the rows on this page, keeping other pages' keys. */
  selection?: DataTableSelection;
  /** Renders only the rows in view (for lists of thousands); needs a fixed rowHeight and a height. */
  virtualized?: boolean;
  /** Scroll-area height in virtualized mode (px or CSS length). Defaults to 480. */
  height?: number | string;
  /** Row height in px in virtualized mode. Defaults to the density's (44 compact, 64 comfortable). */
  rowHeight?: number;
  /** The user's density, hidden columns and column order (DataTableViewOptions edits it). Without it: comfortable,
   *  every column in its order. */
  view?: TableView;
  pagination?: DataTablePagination;
  onRowClick?: (row: T) => void;
  className?: string;
  /** Accessible name of the table. */
  "aria-label"?: string;
};

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];
const SELECT_COLUMN_WIDTH = 44;
const ACTIONS_COLUMN_ID = "actions";
const DENSITY_ROW_HEIGHT: Record<TableDensity, number> = { compact: 44, comfortable: 64 };
const densityCellClass: Record<TableDensity, string> = { compact: "py-1", comfortable: "py-2.5" };
const MIN_FLEX_COLUMN_WIDTH = 120;

const alignClass = { left: "text-left", right: "text-right", center: "text-center" } as const;

function cssLength(width: number | string | undefined): string | undefined {
  return typeof width === "number" ? `${width}px` : width;
}

/** The select-all box's state for the rows on screen. */
export function pageSelectionState(keys: string[], selected: Set<string>): boolean | "indeterminate" {
  if (keys.length === 0) return false;
  let count = 0;
  for (const key of keys) if (selected.has(key)) count++;
  if (count === 0) return false;
  return count === keys.length ? true : "indeterminate";
}

/** Select-all on the page: selects every row on it, or clears them when all are already selected. */
export function togglePageSelection(keys: string[], selected: Set<string>): Set<string> {
  const next = new Set(selected);
  if (pageSelectionState(keys, selected) === true) for (const key of keys) next.delete(key);
  else for (const key of keys) next.add(key);
  return next;
}

function toggleOne(key: string, selected: Set<string>, on: boolean): Set<string> {
  const next = new Set(selected);
  if (on) next.add(key);
  else next.delete(key);
  return next;
}

const isPinned = <T,>(c: DataTableColumn<T>) => (c.pin ?? (c.id === ACTIONS_COLUMN_ID ? "right" : false)) === "right";
// Opaque, so the rows scrolling under a pinned cell do not show through; the shadow shows only while they do.
const pinnedClass =
  "sticky right-0 z-[1] bg-background group-hover/row:bg-[color-mix(in_oklab,var(--color-muted)_50%,var(--color-background))] group-data-[state=selected]/row:bg-accent group-data-[overflowing]/table:shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.25)]";
const pinnedHeadClass =
  "sticky right-0 z-[1] bg-[color-mix(in_oklab,var(--color-muted)_60%,var(--color-background))] group-data-[overflowing]/table:shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.25)]";

/** Marks the table root while its scroll area is wider than its box (the pinned column then casts a shadow). */
function useOverflowMark(scrollRef: RefObject<HTMLElement | null>, rootRef: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const scroller = scrollRef.current;
    const root = rootRef.current;
    if (!scroller || !root || typeof ResizeObserver === "undefined") return;
    const update = () => root.toggleAttribute("data-overflowing", scroller.scrollWidth > scroller.clientWidth + 1);
    const observer = new ResizeObserver(update);
    observer.observe(scroller);
    if (scroller.firstElementChild) observer.observe(scroller.firstElementChild);
    update();
    return () => observer.disconnect();
  }, [scrollRef, rootRef]);
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { pagination, className, view } = props;
  const columns = arrangeColumns(props.columns, view);
  const density = view?.density ?? "comfortable";
  const rootRef = useRef<HTMLDivElement>(null);
  const inner = { ...props, columns, rootRef, density };
  return (
    <div ref={rootRef} data-slot="data-table" data-density={density} className={cn("group/table flex flex-col gap-3", className)}>
      {props.virtualized ? <VirtualTable {...inner} /> : <PlainTable {...inner} />}
      {pagination && <DataTablePager {...pagination} />}
    </div>
  );
}

type InnerProps<T> = DataTableProps<T> & { rootRef: RefObject<HTMLDivElement | null>; density: TableDensity };

function PlainTable<T>({ columns, rows, rowKey, loading, emptyText, selection, onRowClick, rootRef, density, ...rest }: InnerProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  useOverflowMark(scrollRef, rootRef);
  const cellPadding = densityCellClass[density];
  const keys = rows.map(rowKey);
  const colSpan = columns.length + (selection ? 1 : 0);
  const showPlaceholder = rows.length === 0;
  return (
    <div ref={scrollRef} className="relative w-full overflow-x-auto rounded-md border">
      <table aria-label={rest["aria-label"]} aria-busy={loading || undefined} className="w-full caption-bottom border-collapse text-sm">
        <colgroup>
          {selection && <col style={{ width: SELECT_COLUMN_WIDTH }} />}
          {columns.map((c) => (
            <col key={c.id} style={{ width: cssLength(c.width), minWidth: c.width === undefined ? MIN_FLEX_COLUMN_WIDTH : undefined }} />
          ))}
        </colgroup>
        <thead className="bg-muted/60">
          <tr className="border-b">
            {selection && (
              <th scope="col" className="h-10 px-3 text-left align-middle">
                <Checkbox
                  aria-label="全选"
                  disabled={keys.length === 0}
                  checked={pageSelectionState(keys, selection.selected)}
                  onCheckedChange={() => selection.onChange(togglePageSelection(keys, selection.selected))}
                />
              </th>
            )}
            {columns.map((c) => (
              <th
                key={c.id}
                scope="col"
                data-column-id={c.id}
                className={cn(
                  "text-muted-foreground h-10 px-3 align-middle font-medium whitespace-nowrap",
                  alignClass[c.align ?? "left"],
                  isPinned(c) && pinnedHeadClass,
                  c.className,
                )}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {showPlaceholder ? (
            <tr>
              <td colSpan={colSpan}>{loading ? <Loading /> : <Empty text={emptyText ?? EMPTY_TEXT} />}</td>
            </tr>
          ) : (
            rows.map((row, index) => {
              const key = keys[index];
              const isSelected = selection?.selected.has(key) ?? false;
              return (
                <tr
                  key={key}
                  data-row-key={key}
                  data-state={isSelected ? "selected" : undefined}
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  className={cn(
                    "group/row hover:bg-muted/50 data-[state=selected]:bg-accent border-b transition-colors last:border-b-0",
                    onRowClick && "cursor-pointer",
                  )}
                >
                  {selection && (
                    <td className={cn("px-3 align-middle", cellPadding)} onClick={(e) => e.stopPropagation()}>
                      <Checkbox
                        aria-label="选择此行"
                        checked={isSelected}
                        onCheckedChange={(v) => selection.onChange(toggleOne(key, selection.selected, v === true))}
                      />
                    </td>
                  )}
                  {columns.map((c) => (
                    <td
                      key={c.id}
                      className={cn(
                        "px-3 align-middle",
                        cellPadding,
                        alignClass[c.align ?? "left"],
                        isPinned(c) && pinnedClass,
                        c.className,
                      )}
                    >
                      {c.cell(row, index)}
                    </td>
                  ))}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
      {loading && !showPlaceholder && <LoadingOverlay />}
    </div>
  );
}

function LoadingOverlay() {
  // Keeps the previous rows visible (no layout jump) while the next page loads.
  return (
    <div role="status" aria-label="加载中..." className="bg-background/60 absolute inset-0 flex items-center justify-center">
      <Spinner className="text-primary size-6" />
    </div>
  );
}

function VirtualTable<T>({
  columns,
  rows,
  rowKey,
  loading,
  emptyText,
  selection,
  onRowClick,
  height = 480,
  rootRef,
  density,
  rowHeight = DENSITY_ROW_HEIGHT[density],
  ...rest
}: InnerProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  useOverflowMark(scrollRef, rootRef);
  // Where layout reports no height (a DOM without layout, a container not yet laid out) the virtualizer would render
  // nothing; the intended height is known, so the first screen of rows is shown instead.
  const fallbackHeight = typeof height === "number" ? height : rowHeight * 10;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    getItemKey: (index) => rowKey(rows[index]),
    // Avoids React's "flushSync inside a lifecycle" warning; a frame of lag on fast scroll is invisible here.
    useFlushSync: false,
    initialRect: { width: 0, height: fallbackHeight },
    observeElementRect: (instance, cb) =>
      observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height: fallbackHeight })),
  });

  const keys = selection ? rows.map(rowKey) : [];
  const gridTemplateColumns = [
    selection ? `${SELECT_COLUMN_WIDTH}px` : null,
    ...columns.map((c) => cssLength(c.width) ?? `minmax(${MIN_FLEX_COLUMN_WIDTH}px, 1fr)`),
  ]
    .filter(Boolean)
    .join(" ");
  const minWidth =
    (selection ? SELECT_COLUMN_WIDTH : 0) +
    columns.reduce((sum, c) => sum + (typeof c.width === "number" ? c.width : c.width === undefined ? MIN_FLEX_COLUMN_WIDTH : 0), 0);
  const gridStyle: CSSProperties = { display: "grid", gridTemplateColumns };

  return (
    <div className="relative rounded-md border">
      <div
        ref={scrollRef}
        role="grid"
        aria-label={rest["aria-label"]}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length + (selection ? 1 : 0)}
        aria-busy={loading || undefined}
        className="overflow-auto text-sm"
        style={{ height: typeof height === "number" ? `${height}px` : height }}
      >
        <div style={{ minWidth }}>
          <div role="rowgroup" className="bg-muted sticky top-0 z-10 border-b">
            <div role="row" aria-rowindex={1} style={gridStyle}>
              {selection && (
                <div role="columnheader" className="flex h-10 items-center px-3">
                  <Checkbox
                    aria-label="全选"
                    disabled={keys.length === 0}
                    checked={pageSelectionState(keys, selection.selected)}
                    onCheckedChange={() => selection.onChange(togglePageSelection(keys, selection.selected))}
                  />
                </div>
              )}
              {columns.map((c) => (
                <div
                  key={c.id}
                  role="columnheader"
                  data-column-id={c.id}
                  className={cn(
                    "text-muted-foreground flex h-10 items-center px-3 font-medium whitespace-nowrap",
                    justifyClass[c.align ?? "left"],
                    isPinned(c) && cn(pinnedHeadClass, "bg-muted"),
                    c.className,
                  )}
                >
                  {c.header}
                </div>
              ))}
            </div>
          </div>
          {rows.length === 0 ? (
            <div role="row">
              <div role="gridcell">{loading ? <Loading /> : <Empty text={emptyText ?? EMPTY_TEXT} />}</div>
            </div>
          ) : (
            <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => {
                const row = rows[item.index];
                const key = String(item.key);
                const isSelected = selection?.selected.has(key) ?? false;
                return (
                  <div
                    key={key}
                    role="row"
                    aria-rowindex={item.index + 2}
                    aria-selected={selection ? isSelected : undefined}
                    data-row-key={key}
                    data-index={item.index}
                    data-state={isSelected ? "selected" : undefined}
                    onClick={onRowClick ? () => onRowClick(row) : undefined}
                    className={cn(
                      "group/row hover:bg-muted/50 data-[state=selected]:bg-accent absolute inset-x-0 top-0 border-b transition-colors",
                      onRowClick && "cursor-pointer",
                    )}
                    style={{ ...gridStyle, height: rowHeight, transform: `translateY(${item.start}px)` }}
                  >
                    {selection && (
                      <div role="gridcell" className="flex items-center px-3" onClick={(e) => e.stopPropagation()}>
                        <Checkbox
                          aria-label="选择此行"
                          checked={isSelected}
                          onCheckedChange={(v) => selection.onChange(toggleOne(key, selection.selected, v === true))}
                        />
                      </div>
                    )}
                    {columns.map((c) => (
                      <div
                        key={c.id}
                        role="gridcell"
                        className={cn(
                          "flex min-w-0 items-center overflow-hidden px-3 whitespace-nowrap",
                          justifyClass[c.align ?? "left"],
                          isPinned(c) && pinnedClass,
                          c.className,
                        )}
                      >
                        {c.cell(row, item.index)}
                      </div>
                    ))}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      </div>
      {loading && rows.length > 0 && <LoadingOverlay />}
    </div>
  );
}

const justifyClass = { left: "justify-start text-left", right: "justify-end text-right", center: "justify-center text-center" } as const;

export function DataTablePager({ page, pageSize, total, onChange, pageSizeOptions = PAGE_SIZE_OPTIONS }: DataTablePagination) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const sizes = pageSizeOptions.includes(pageSize) ? pageSizeOptions : [...pageSizeOptions, pageSize].sort((a, b) => a - b);
  return (
    <div data-slot="data-table-pagination" className="text-muted-foreground flex flex-wrap items-center justify-end gap-3 text-sm">
      <span data-slot="pagination-total">共 {total} 条</span>
      <div className="flex items-center gap-1">
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          aria-label="上一页"
          disabled={page <= 1}
          onClick={() => onChange(page - 1, pageSize)}
        >
          <ChevronLeft />
        </Button>
        <span data-slot="pagination-page" className="text-foreground min-w-14 text-center tabular-nums">
          {Math.min(page, pageCount)} / {pageCount}
        </span>
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          aria-label="下一页"
          disabled={page >= pageCount}
          onClick={() => onChange(page + 1, pageSize)}
        >
          <ChevronRight />
        </Button>
      </div>
      <Select value={String(pageSize)} onValueChange={(v) => onChange(1, Number(v))}>
        <SelectTrigger aria-label="每页条数" className="h-8 w-auto min-w-28">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {sizes.map((n) => (
            <SelectItem key={n} value={String(n)}>
              {n} 条/页
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** The row above a table holding its filters (left) and actions (right; give them `ml-auto`). */
export function DataTableToolbar({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="data-table-toolbar" className={cn("flex flex-wrap items-center gap-2", className)} {...props} />;
}
