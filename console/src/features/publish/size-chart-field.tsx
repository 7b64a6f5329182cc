// The size chart of a fashion category (its attributes have SIZE_GRID_ID): one of the shop group's charts pulled from
// Mercado Libre (同步尺码表 pulls them for the chosen category) and, for a plain item, the row the product is; they go
// to the publish request as the attributes SIZE_GRID_ID / SIZE_GRID_ROW_ID, which the pre-flight checks.
import { RefreshCw } from "lucide-react";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID } from "@shared/contract/size-charts.ts";
import { Button } from "@shared/ui/button.tsx";
import { cn } from "@shared/ui/cn.ts";
import { Label } from "@shared/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@shared/ui/select.tsx";
import { toast } from "@shared/ui/toast.tsx";
import { usePullSizeCharts, useSizeCharts } from "./api/size-charts.ts";

type AttrValue = { valueId?: string | null; valueName?: string | null };

/** The attributes this field fills (the generic attribute form leaves them to it: shared/publish/category-form.ts). */
export { SIZE_CHART_ATTRIBUTES } from "@shared/publish/category-form.ts";

export function SizeChartField({
  site,
  fieldId,
  accountGroupId,
  cateId,
  attrs,
  missing,
  askRow,
  onChange,
}: {
  site: number;
  /** The chart select's id: the pre-flight's fix link focuses it. */
  fieldId: string;
  accountGroupId: string;
  cateId: string;
  attrs: Record<string, AttrValue>;
  /** The pre-flight found the chart (or its row) missing. */
  missing: boolean;
  /** The category asks SIZE_GRID_ROW_ID. */
  askRow: boolean;
  onChange: (next: Record<string, AttrValue>) => void;
}) {
  const charts = useSizeCharts(accountGroupId, true);
  const pull = usePullSizeCharts({
    mutationConfig: { onSuccess: (r) => toast.success(r.count ? `已同步 ${r.count} 个尺码表` : "该店铺在此类目下还没有尺码表") },
  });
  // A global category is used on every site of the group: any of its charts; a site's category: that site's.
  const options = (charts.data ?? []).filter((c) => site === 5 || c.site === site);
  const chartId = attrs[SIZE_GRID_ID]?.valueName ?? "";
  const chart = options.find((c) => c.chartId === chartId) ?? null;
  const rowId = attrs[SIZE_GRID_ROW_ID]?.valueName ?? "";
  const testId = `publish-size-chart-${site}`;

  return (
    <div className="grid items-start gap-2 sm:grid-cols-[8rem_minmax(0,1fr)_minmax(0,12rem)_auto]" data-testid={testId}>
      <Label htmlFor={fieldId} className={cn("text-xs sm:pt-2.5", missing && "text-destructive")}>
        <span className="text-destructive">* </span>尺码表
      </Label>
      <Select
        value={chartId}
        onValueChange={(v) => onChange({ ...attrs, [SIZE_GRID_ID]: { valueId: null, valueName: v }, [SIZE_GRID_ROW_ID]: {} })}
      >
        <SelectTrigger id={fieldId} className="h-8" aria-invalid={missing || undefined}>
          <SelectValue placeholder={options.length ? "选择尺码表" : "没有尺码表，请先同步"} />
        </SelectTrigger>
        <SelectContent>
          {options.map((c) => (
            <SelectItem key={c.id} value={c.chartId}>
              {c.name}
              {c.gender ? `（${c.gender}）` : ""}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {askRow ? (
        <Select
          value={rowId}
          disabled={!chart}
          onValueChange={(v) => onChange({ ...attrs, [SIZE_GRID_ROW_ID]: { valueId: null, valueName: v } })}
        >
          <SelectTrigger className="h-8" aria-label="尺码行" aria-invalid={(missing && !!chart) || undefined}>
            <SelectValue placeholder="尺码行（单规格商品）" />
          </SelectTrigger>
          <SelectContent>
            {(chart?.rows ?? []).map((r) => (
              <SelectItem key={r.id} value={r.id}>
                {r.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : (
        <span />
      )}
      <Button
        variant="outline"
        size="sm"
        loading={pull.isPending}
        disabled={!accountGroupId || !cateId}
        onClick={() => pull.mutate({ accountGroupId, cateId })}
        data-testid={`${testId}-pull`}
      >
        <RefreshCw />
        同步尺码表
      </Button>
    </div>
  );
}
