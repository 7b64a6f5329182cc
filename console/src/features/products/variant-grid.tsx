// The editor's variants: the options (规格名 and their values) above, and one row per combination below with its
// price, stock and SKU editable. Options and values can be added, renamed and removed (rows follow, keeping the data
// of every combination that still exists); 批量填写 sets a column for every row. Thousands of rows render only the
// rows in view.
import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import { Plus, Trash2, X } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import { Input } from "#shared/ui/input.tsx";
import {
  addOption,
  addValue,
  cellProblem,
  fillColumn,
  MAX_OPTIONS,
  removeOption,
  removeValue,
  renameOption,
  renameValue,
  setCell,
  type RowField,
  type VariantGrid as Grid,
} from "./variant-model.ts";

const ROW_HEIGHT = 44;
const MAX_VISIBLE_ROWS = 10;

export type VariantGridProps = { grid: Grid; onChange: (grid: Grid) => void };

export function VariantGrid({ grid, onChange }: VariantGridProps) {
  return (
    <div className="flex flex-col gap-3" data-testid="variant-grid">
      <OptionsEditor grid={grid} onChange={onChange} />
      {grid.rows.length ? <Rows grid={grid} onChange={onChange} /> : null}
    </div>
  );
}

function OptionsEditor({ grid, onChange }: VariantGridProps) {
  return (
    <div className="flex flex-col gap-2">
      {grid.options.map((o, oi) => (
        <div key={oi} className="bg-muted/30 flex flex-col gap-2 rounded-md border p-2" data-testid={`variant-option-${oi}`}>
          <div className="flex items-center gap-2">
            <Input
              value={o.name}
              onChange={(e) => onChange(renameOption(grid, oi, e.target.value))}
              placeholder="规格名，如 颜色"
              aria-label={`第 ${oi + 1} 个规格名`}
              maxLength={100}
              className="h-8 w-48"
              data-testid={`variant-option-name-${oi}`}
            />
            <Button
              variant="ghost"
              size="sm"
              className="text-destructive hover:text-destructive ml-auto h-8"
              onClick={() => onChange(removeOption(grid, oi))}
              data-testid={`variant-option-remove-${oi}`}
            >
              <Trash2 />
              删除规格
            </Button>
          </div>
          <div className="flex flex-wrap items-center gap-1.5">
            {o.values.map((v, vi) => (
              <ValueChip
                key={`${vi}-${v}`}
                value={v}
                label={`${o.name || "规格"} 的值 ${v}`}
                onRename={(next) => onChange(renameValue(grid, oi, vi, next))}
                onRemove={() => onChange(removeValue(grid, oi, vi))}
              />
            ))}
            <NewValue onAdd={(v) => onChange(addValue(grid, oi, v))} testId={`variant-option-add-value-${oi}`} />
          </div>
        </div>
      ))}
      <div>
        <Button
          variant="outline"
          size="sm"
          disabled={grid.options.length >= MAX_OPTIONS}
          onClick={() => onChange(addOption(grid))}
          data-testid="variant-add-option"
        >
          <Plus />
          添加规格{grid.options.length >= MAX_OPTIONS ? `（最多 ${MAX_OPTIONS} 个）` : ""}
        </Button>
      </div>
    </div>
  );
}

/** A value of an option: rename in place (applied on Enter or leaving the box), × removes it with its rows. */
function ValueChip({
  value,
  label,
  onRename,
  onRemove,
}: {
  value: string;
  label: string;
  onRename: (v: string) => void;
  onRemove: () => void;
}) {
  const [text, setText] = useState(value);
  const commit = () => (text.trim() && text.trim() !== value ? onRename(text) : setText(value));
  return (
    <span className="bg-background inline-flex items-center rounded-md border">
      <input
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          }
        }}
        aria-label={label}
        maxLength={200}
        size={Math.max(2, Math.min(24, text.length + 1))}
        className="h-7 rounded-l-md bg-transparent px-2 text-xs outline-none"
      />
      <button
        type="button"
        onClick={onRemove}
        aria-label={`删除 ${value}`}
        className="text-muted-foreground hover:text-destructive flex h-7 cursor-pointer items-center px-1"
      >
        <X className="size-3" />
      </button>
    </span>
  );
}

function NewValue({ onAdd, testId }: { onAdd: (v: string) => void; testId: string }) {
  const [text, setText] = useState("");
  const add = () => {
    if (!text.trim()) return;
    onAdd(text);
    setText("");
  };
  return (
    <input
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          add();
        }
      }}
      onBlur={add}
      placeholder="+ 添加值（回车）"
      aria-label="添加规格值"
      maxLength={200}
      className="border-input h-7 w-32 rounded-md border border-dashed bg-transparent px-2 text-xs outline-none"
      data-testid={testId}
    />
  );
}

const fields: { field: RowField; label: string; width: string; inputMode?: "decimal" | "numeric" }[] = [
  { field: "price", label: "价格", width: "120px", inputMode: "decimal" },
  { field: "stock", label: "库存", width: "110px", inputMode: "numeric" },
  { field: "sku", label: "SKU", width: "minmax(140px, 1fr)" },
];

function Rows({ grid, onChange }: VariantGridProps) {
  const used = grid.options.map((o, i) => (o.values.length ? i : -1)).filter((i) => i >= 0);
  const columns = [...used.map(() => "minmax(90px, 1fr)"), ...fields.map((f) => f.width)].join(" ");
  const scrollRef = useRef<HTMLDivElement>(null);
  const height = Math.min(grid.rows.length, MAX_VISIBLE_ROWS) * ROW_HEIGHT;
  const virtualizer = useVirtualizer({
    count: grid.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    useFlushSync: false,
    // Where layout reports no height yet, the intended height is known: show the first screen of rows.
    initialRect: { width: 0, height },
    observeElementRect: (instance, cb) =>
      observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height })),
  });
  return (
    <div className="flex flex-col gap-2">
      <FillRow grid={grid} onChange={onChange} />
      <div
        className="rounded-md border text-sm"
        role="table"
        aria-label="规格明细"
        data-testid="variant-rows"
        data-count={grid.rows.length}
      >
        <div role="row" className="bg-muted/60 text-muted-foreground grid border-b font-medium" style={{ gridTemplateColumns: columns }}>
          {used.map((i) => (
            <div key={i} role="columnheader" className="truncate px-2 py-2">
              {grid.options[i].name || `规格 ${i + 1}`}
            </div>
          ))}
          {fields.map((f) => (
            <div key={f.field} role="columnheader" className="px-2 py-2">
              {f.label}
            </div>
          ))}
        </div>
        <div ref={scrollRef} className="overflow-auto" style={{ height }}>
          <div className="relative" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = grid.rows[item.index];
              return (
                <div
                  key={item.index}
                  role="row"
                  data-testid={`variant-row-${item.index}`}
                  data-values={used.map((i) => row.values[i]).join(";")}
                  className="absolute inset-x-0 top-0 grid items-center border-b last:border-b-0"
                  style={{ gridTemplateColumns: columns, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                >
                  {used.map((i) => (
                    <div key={i} role="cell" className="truncate px-2" title={row.values[i]}>
                      {row.values[i]}
                    </div>
                  ))}
                  {fields.map((f) => {
                    const problem = cellProblem(f.field, row[f.field]);
                    return (
                      <div key={f.field} role="cell" className="px-1">
                        <Input
                          value={row[f.field]}
                          onChange={(e) => onChange(setCell(grid, item.index, f.field, e.target.value))}
                          inputMode={f.inputMode}
                          aria-label={`${used.map((i) => row.values[i]).join(" / ")} ${f.label}`}
                          aria-invalid={!!problem}
                          title={problem ?? undefined}
                          className={cn("h-8", problem && "border-destructive")}
                          data-testid={`variant-${f.field}-${item.index}`}
                        />
                      </div>
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

/** 批量填写: one price / stock for every row. */
function FillRow({ grid, onChange }: VariantGridProps) {
  const [price, setPrice] = useState("");
  const [stock, setStock] = useState("");
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted-foreground">批量填写（共 {grid.rows.length.toLocaleString("zh-CN")} 个组合）：</span>
      <Input
        value={price}
        onChange={(e) => setPrice(e.target.value)}
        placeholder="价格"
        inputMode="decimal"
        className="h-8 w-24"
        aria-label="批量价格"
      />
      <Button
        variant="outline"
        size="sm"
        disabled={!price.trim() || !!cellProblem("price", price)}
        onClick={() => onChange(fillColumn(grid, "price", price.trim()))}
        data-testid="variant-fill-price"
      >
        应用价格
      </Button>
      <Input
        value={stock}
        onChange={(e) => setStock(e.target.value)}
        placeholder="库存"
        inputMode="numeric"
        className="h-8 w-24"
        aria-label="批量库存"
      />
      <Button
        variant="outline"
        size="sm"
        disabled={!stock.trim() || !!cellProblem("stock", stock)}
        onClick={() => onChange(fillColumn(grid, "stock", stock.trim()))}
        data-testid="variant-fill-stock"
      >
        应用库存
      </Button>
    </div>
  );
}
