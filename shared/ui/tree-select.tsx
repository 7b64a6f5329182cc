// A tree-select (spec §9): full width, a dropdown at most 400 px high holding a virtualized list (list height 500, the
// height assumed before layout), search by name. Without a search the tree shows with branches to open; with one, the
// matching nodes (name, Chinese name or alias; case and accents ignored) show flat with their paths. Only leaves can be
// chosen by default; the chosen node's fullName is the selection text. A node with a Chinese name shows it first with its
// own name beside ("手机壳 · Fundas"), and a chosen node its Chinese path beside its full name. Built for category trees
// of thousands of nodes: the tree is indexed once per `nodes`, and only the rows in view are rendered.
import * as PopoverPrimitive from "@radix-ui/react-popover";
import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import { ChevronDown, ChevronRight, Search, X } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "./cn.ts";
import { Spinner } from "./spinner.tsx";

export type TreeSelectNode = {
  id: string;
  name: string;
  fullName: string;
  zh?: string;
  alias?: string;
  isLeaf?: boolean;
  children?: TreeSelectNode[];
};

/** Spec §9's tree-select constants. */
export const TREE_SELECT = { width: "100%", listHeight: 500, dropdownMaxHeight: 400 } as const;
const ROW = 32;
const SEARCH_ROW = 48;
const INDENT = 16;

/** Lower case without accents, for matching ("Teléfonos" ~ "telefonos"). */
export function fold(s: string): string {
  return s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** `fold` with, for each folded character, the index of the original character it came from (for highlighting). */
function foldWithMap(s: string): { text: string; from: number[] } {
  let text = "";
  const from: number[] = [];
  let i = 0;
  for (const ch of s) {
    const f = fold(ch);
    text += f;
    for (let k = 0; k < f.length; k++) from.push(i);
    i += ch.length;
  }
  return { text, from };
}

export type Entry = {
  node: TreeSelectNode;
  depth: number;
  parent: number;
  /** Index after this node's subtree (a closed branch skips to it). */
  end: number;
  branch: boolean;
  /** Folded name, Chinese name and alias, for search. */
  key: string;
};

/** Every node in tree order, with what the list needs. */
export function indexTree(nodes: TreeSelectNode[]): { entries: Entry[]; byId: Map<string, number> } {
  const entries: Entry[] = [];
  const byId = new Map<string, number>();
  const walk = (list: TreeSelectNode[], depth: number, parent: number) => {
    for (const node of list) {
      const at = entries.length;
      const branch = !node.isLeaf && !!node.children?.length;
      entries.push({ node, depth, parent, end: at + 1, branch, key: fold([node.name, node.zh, node.alias].filter(Boolean).join("\n")) });
      byId.set(node.id, at);
      if (node.children?.length) walk(node.children, depth + 1, at);
      entries[at].end = entries.length;
    }
  };
  walk(nodes, 0, -1);
  return { entries, byId };
}

/**
 * The path of entry `at` in Chinese: each node's Chinese name, else its name, once any node on the path has a Chinese
 * name (null otherwise), as the server's fullZh.
 */
export function zhPathOf(entries: Entry[], at: number): string | null {
  const names: string[] = [];
  let any = false;
  for (let i = at; i >= 0; i = entries[i].parent) {
    const n = entries[i].node;
    if (n.zh) any = true;
    names.unshift(n.zh || n.name);
  }
  return any ? names.join(" > ") : null;
}

/** The rows of the tree with the given branches open. */
function openRows(entries: Entry[], open: Set<string>): number[] {
  const rows: number[] = [];
  for (let i = 0; i < entries.length;) {
    rows.push(i);
    const e = entries[i];
    i = e.branch && !open.has(e.node.id) ? e.end : i + 1;
  }
  return rows;
}

/** The nodes whose name, Chinese name or alias holds the folded query, in tree order. */
export function searchRows(entries: Entry[], query: string): number[] {
  const q = fold(query.trim());
  if (!q) return [];
  const rows: number[] = [];
  entries.forEach((e, i) => {
    if (e.key.includes(q)) rows.push(i);
  });
  return rows;
}

/** A node's Chinese name first with its own name beside ("手机壳 · Fundas"), then its alias; matches marked while searching. */
function NodeName({ node, query }: { node: TreeSelectNode; query: string }) {
  return (
    <>
      {node.zh ? (
        <>
          <Highlight text={node.zh} query={query} />
          <span className="text-muted-foreground ml-1.5 text-xs">
            · <Highlight text={node.name} query={query} />
          </span>
        </>
      ) : (
        <Highlight text={node.name} query={query} />
      )}
      {node.alias ? <span className="text-muted-foreground ml-1.5 text-xs">（{node.alias}）</span> : null}
    </>
  );
}

function Highlight({ text, query }: { text: string; query: string }) {
  const q = fold(query.trim());
  const { text: folded, from } = foldWithMap(text);
  const at = q ? folded.indexOf(q) : -1;
  if (at < 0) return <>{text}</>;
  const start = from[at];
  const end = at + q.length < from.length ? from[at + q.length] : text.length;
  return (
    <>
      {text.slice(0, start)}
      <mark className="text-primary bg-transparent font-semibold">{text.slice(start, end)}</mark>
      {text.slice(end)}
    </>
  );
}

export type TreeSelectProps = {
  nodes: TreeSelectNode[];
  value: string | null | undefined;
  /** Shown for a value not among the nodes (a saved category name while the tree loads, or one no longer offered). */
  valueLabel?: string | null;
  onChange: (node: TreeSelectNode | null) => void;
  placeholder?: string;
  searchPlaceholder?: string;
  /** Shown in the dropdown when there is no node at all. */
  emptyText?: ReactNode;
  loading?: boolean;
  disabled?: boolean;
  /** Only leaves can be chosen (default true). */
  leavesOnly?: boolean;
  allowClear?: boolean;
  id?: string;
  name?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  "aria-label"?: string;
  className?: string;
  /** The trigger's data-testid; the search box, list, rows and clear button take it as a prefix. */
  testId?: string;
};

export function TreeSelect({
  nodes,
  value,
  valueLabel,
  onChange,
  placeholder = "请选择",
  searchPlaceholder = "搜索名称",
  emptyText = "暂无数据",
  loading = false,
  disabled = false,
  leavesOnly = true,
  allowClear = true,
  className,
  testId = "tree-select",
  ...aria
}: TreeSelectProps) {
  const { entries, byId } = useMemo(() => indexTree(nodes), [nodes]);
  const [openState, setOpenState] = useState(false);
  const [query, setQuery] = useState("");
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [active, setActive] = useState(0);
  const selectedAt = value ? byId.get(value) : undefined;
  const label = selectedAt !== undefined ? entries[selectedAt].node.fullName : value ? valueLabel || value : "";
  const zhLabel = selectedAt !== undefined ? zhPathOf(entries, selectedAt) : null;

  const searching = query.trim() !== "";
  const rows = useMemo(() => (searching ? searchRows(entries, query) : openRows(entries, expanded)), [entries, expanded, query, searching]);
  const selectable = (e: Entry) => !leavesOnly || !e.branch;

  function setOpen(next: boolean) {
    if (next) {
      // Opens on the chosen node: its ancestors open, the search empty.
      const open = new Set(expanded);
      for (let p = selectedAt !== undefined ? entries[selectedAt].parent : -1; p >= 0; p = entries[p].parent) open.add(entries[p].node.id);
      setExpanded(open);
      setQuery("");
      setActive(selectedAt !== undefined ? Math.max(0, openRows(entries, open).indexOf(selectedAt)) : 0);
    }
    setOpenState(next);
  }

  function toggle(e: Entry, to?: boolean) {
    const next = new Set(expanded);
    if (to ?? !next.has(e.node.id)) next.add(e.node.id);
    else next.delete(e.node.id);
    setExpanded(next);
  }

  function activate(rowIndex: number) {
    const e = entries[rows[rowIndex]];
    if (!e) return;
    if (selectable(e)) {
      onChange(e.node);
      setOpenState(false);
      return;
    }
    if (searching) {
      // A branch found by search: show it in the tree, opened.
      const open = new Set(expanded);
      for (let p = rows[rowIndex]; p >= 0; p = entries[p].parent) open.add(entries[p].node.id);
      setExpanded(open);
      setQuery("");
      setActive(openRows(entries, open).indexOf(rows[rowIndex]));
      return;
    }
    toggle(e);
    setActive(rowIndex);
  }

  function onKeyDown(ev: KeyboardEvent<HTMLInputElement>) {
    const e = entries[rows[active]];
    switch (ev.key) {
      case "ArrowDown":
        ev.preventDefault();
        setActive((a) => Math.min(rows.length - 1, a + 1));
        break;
      case "ArrowUp":
        ev.preventDefault();
        setActive((a) => Math.max(0, a - 1));
        break;
      case "Enter":
        ev.preventDefault();
        activate(active);
        break;
      case "ArrowRight":
        if (!searching && e?.branch && !expanded.has(e.node.id)) {
          ev.preventDefault();
          toggle(e, true);
        }
        break;
      case "ArrowLeft":
        if (!searching && e) {
          if (e.branch && expanded.has(e.node.id)) {
            ev.preventDefault();
            toggle(e, false);
          } else if (e.parent >= 0 && !query) {
            ev.preventDefault();
            setActive(rows.indexOf(e.parent));
          }
        }
        break;
    }
  }

  return (
    <PopoverPrimitive.Root open={openState} onOpenChange={setOpen} modal>
      <div className={cn("relative", className)} style={{ width: TREE_SELECT.width }}>
        <PopoverPrimitive.Trigger asChild disabled={disabled}>
          <button
            type="button"
            role="combobox"
            aria-expanded={openState}
            aria-haspopup="tree"
            id={aria.id}
            name={aria.name}
            aria-invalid={aria["aria-invalid"]}
            aria-describedby={aria["aria-describedby"]}
            aria-label={aria["aria-label"]}
            title={zhLabel ? `${zhLabel} · ${label}` : label || undefined}
            data-testid={testId}
            data-value={value ?? ""}
            className={cn(
              "border-input bg-background flex h-9 w-full cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-left text-sm shadow-xs outline-none",
              "focus-visible:border-primary focus-visible:ring-ring/50 focus-visible:ring-[3px] disabled:cursor-not-allowed disabled:opacity-50",
              "aria-invalid:border-destructive",
              allowClear && value ? "pr-14" : "pr-8",
            )}
          >
            <span className={cn("min-w-0 flex-1 truncate", !label && "text-muted-foreground")}>
              {zhLabel ? (
                <>
                  {zhLabel}
                  <span className="text-muted-foreground ml-1.5">· {label}</span>
                </>
              ) : (
                label || placeholder
              )}
            </span>
          </button>
        </PopoverPrimitive.Trigger>
        <span className="pointer-events-none absolute top-1/2 right-3 flex -translate-y-1/2 items-center gap-1">
          {loading ? <Spinner className="text-muted-foreground" /> : <ChevronDown className="size-4 opacity-50" />}
        </span>
        {allowClear && value && !disabled ? (
          <button
            type="button"
            aria-label="清除"
            className="text-muted-foreground hover:text-foreground absolute top-1/2 right-8 -translate-y-1/2 rounded-sm p-0.5"
            onClick={() => onChange(null)}
            data-testid={`${testId}-clear`}
          >
            <X className="size-3.5" />
          </button>
        ) : null}
      </div>
      <PopoverPrimitive.Portal>
        <PopoverPrimitive.Content
          align="start"
          sideOffset={4}
          collisionPadding={8}
          className="bg-popover text-popover-foreground z-[60] flex w-(--radix-popover-trigger-width) min-w-64 flex-col overflow-hidden rounded-md border shadow-md outline-none"
          style={{ maxHeight: `min(${TREE_SELECT.dropdownMaxHeight}px, var(--radix-popover-content-available-height))` }}
          data-testid={`${testId}-dropdown`}
        >
          <div className="relative border-b p-1.5">
            <Search
              aria-hidden="true"
              className="text-muted-foreground pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-1/2"
            />
            <input
              type="search"
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              placeholder={searchPlaceholder}
              aria-label={searchPlaceholder}
              className="placeholder:text-muted-foreground h-8 w-full rounded-sm bg-transparent pr-2 pl-8 text-sm outline-none"
              data-testid={`${testId}-search`}
            />
          </div>
          {loading && !entries.length ? (
            <div className="text-muted-foreground flex items-center justify-center gap-2 py-6 text-sm">
              <Spinner />
              加载中...
            </div>
          ) : rows.length === 0 ? (
            <div className="text-muted-foreground px-3 py-6 text-center text-sm" data-testid={`${testId}-empty`}>
              {entries.length ? "没有匹配的结果" : emptyText}
            </div>
          ) : (
            <TreeRows
              key={searching ? "search" : "tree"}
              entries={entries}
              rows={rows}
              searching={searching}
              query={query}
              active={active}
              value={value ?? null}
              expanded={expanded}
              selectable={selectable}
              onActivate={activate}
              onToggle={(e) => toggle(e)}
              onHover={setActive}
              testId={testId}
            />
          )}
          {searching && rows.length ? (
            <div className="text-muted-foreground border-t px-3 py-1 text-xs" data-testid={`${testId}-count`}>
              找到 {rows.length} 项
            </div>
          ) : null}
        </PopoverPrimitive.Content>
      </PopoverPrimitive.Portal>
    </PopoverPrimitive.Root>
  );
}

type RowsProps = {
  entries: Entry[];
  rows: number[];
  searching: boolean;
  query: string;
  active: number;
  value: string | null;
  expanded: Set<string>;
  selectable: (e: Entry) => boolean;
  onActivate: (row: number) => void;
  onToggle: (e: Entry) => void;
  onHover: (row: number) => void;
  testId: string;
};

function TreeRows({
  entries,
  rows,
  searching,
  query,
  active,
  value,
  expanded,
  selectable,
  onActivate,
  onToggle,
  onHover,
  testId,
}: RowsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowHeight = searching ? SEARCH_ROW : ROW;
  // Where layout reports no height yet, the list's intended height (spec: 500) decides how many rows render.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    getItemKey: (i) => entries[rows[i]].node.id,
    useFlushSync: false,
    // Opens scrolled to the active row (the chosen node) without a scroll command.
    initialOffset: Math.max(0, active * rowHeight - TREE_SELECT.dropdownMaxHeight / 2),
    initialRect: { width: 0, height: TREE_SELECT.listHeight },
    observeElementRect: (instance, cb) =>
      observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height: TREE_SELECT.listHeight })),
  });
  // Keeps the row moved to from the keyboard in view (not on mount: initialOffset did that).
  const mounted = useRef(false);
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    if (active >= 0 && active < rows.length) virtualizer.scrollToIndex(active, { align: "auto" });
  }, [active]);

  return (
    <div
      ref={scrollRef}
      role={searching ? "listbox" : "tree"}
      aria-label={searching ? "搜索结果" : "树形列表"}
      className="min-h-0 flex-1 overflow-auto overscroll-contain p-1"
      style={{ height: Math.min(rows.length * rowHeight + 8, TREE_SELECT.listHeight) }}
      data-testid={`${testId}-list`}
      data-count={rows.length}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((item) => {
          const e = entries[rows[item.index]];
          const chosen = e.node.id === value;
          const canChoose = selectable(e);
          const open = expanded.has(e.node.id);
          return (
            <div
              key={item.key}
              role={searching ? "option" : "treeitem"}
              aria-level={searching ? undefined : e.depth + 1}
              aria-expanded={!searching && e.branch ? open : undefined}
              aria-selected={chosen}
              aria-disabled={!canChoose && searching ? true : undefined}
              data-testid={`${testId}-node-${e.node.id}`}
              data-active={item.index === active || undefined}
              onMouseEnter={() => onHover(item.index)}
              onMouseDown={(ev) => ev.preventDefault()}
              onClick={() => onActivate(item.index)}
              className={cn(
                "absolute inset-x-0 flex cursor-pointer items-center gap-1 rounded-sm pr-2 text-sm select-none",
                item.index === active && "bg-accent text-accent-foreground",
                chosen && "text-primary font-medium",
                !canChoose && searching && "text-muted-foreground",
              )}
              style={{ top: item.start, height: rowHeight, paddingLeft: searching ? 8 : 4 + e.depth * INDENT }}
            >
              {searching ? (
                <SearchRow entries={entries} at={rows[item.index]} query={query} />
              ) : (
                <>
                  {e.branch ? (
                    <span
                      className="hover:bg-muted flex size-5 shrink-0 items-center justify-center rounded-sm"
                      onClick={(ev) => {
                        ev.stopPropagation();
                        onToggle(e);
                      }}
                    >
                      {open ? <ChevronDown className="size-3.5" /> : <ChevronRight className="size-3.5" />}
                    </span>
                  ) : (
                    <span className="size-5 shrink-0" />
                  )}
                  <span className="truncate" title={e.node.fullName}>
                    <NodeName node={e.node} query="" />
                  </span>
                </>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** A search match: its names, and below them its path (in Chinese beside the site's, when known). */
function SearchRow({ entries, at, query }: { entries: Entry[]; at: number; query: string }) {
  const node = entries[at].node;
  const zhPath = zhPathOf(entries, at);
  const path = zhPath ? `${zhPath} · ${node.fullName}` : node.fullName;
  return (
    <div className="flex min-w-0 flex-col">
      <span className="truncate">
        <NodeName node={node} query={query} />
      </span>
      <span className="text-muted-foreground truncate text-xs" title={path}>
        {path}
      </span>
    </div>
  );
}
