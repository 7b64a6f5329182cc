// The size chart of a fashion category (its attributes have SIZE_GRID_ID): one of the shop group's charts pulled from
// Mercado Libre (同步尺码表 pulls them for the chosen category) and, for a plain item, the row the product is; they go
// to the publish request as the attributes SIZE_GRID_ID / SIZE_GRID_ROW_ID, which the pre-flight checks. A group
// without a chart creates one from the selected products' sizes (新建尺码表), and a chosen chart that lacks some of
// them gets those sizes as rows (补充尺码): both on Mercado Libre through CreateMeliChart, the chart then picked.
import { useState } from "react";
import { Plus, RefreshCw } from "lucide-react";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID, type SizeChart } from "#shared/contract/size-charts.ts";
import { sizesMissingFrom, variantSizes } from "#shared/publish/size-chart-sizes.ts";
import { chartsOfSite } from "#shared/publish/sites.ts";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import { Label } from "#shared/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useCreateSizeChart, usePullSizeCharts, useSelectionVariants, useSizeCharts } from "./api/size-charts.ts";
import { CreateSizeChartDialog } from "./create-size-chart-dialog.tsx";

type AttrValue = { valueId?: string | null; valueName?: string | null };

/** The attributes this field fills (the generic attribute form leaves them to it: shared/publish/category-form.ts). */
export { SIZE_CHART_ATTRIBUTES } from "#shared/publish/category-form.ts";

export function SizeChartField({
  site,
  fieldId,
  accountGroupId,
  cateId,
  cateName,
  attributes,
  productIds,
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
  cateName: string;
  /** The category's attributes (its GENDER values, and the option that is its SIZE). */
  attributes: readonly CategoryAttribute[];
  /** The products being published: a new chart's sizes are theirs. */
  productIds: readonly string[];
  attrs: Record<string, AttrValue>;
  /** The pre-flight found the chart (or its row) missing. */
  missing: boolean;
  /** The category asks SIZE_GRID_ROW_ID. */
  askRow: boolean;
  onChange: (next: Record<string, AttrValue>) => void;
}) {
  const charts = useSizeCharts(accountGroupId, true);
  const pull = usePullSizeCharts({
    mutationConfig: {
      onSuccess: (r) =>
        toast.success(r.count ? `已同步 ${r.count} 个尺码表` : "该店铺在此类目下还没有尺码表，可点「新建尺码表」用商品的尺码创建"),
    },
  });
  // A global category is used on every site of the group: any of its charts; a site's category: that site's.
  const options = chartsOfSite(charts.data ?? [], site);
  const chartId = attrs[SIZE_GRID_ID]?.valueName ?? "";
  const chart = options.find((c) => c.chartId === chartId) ?? null;
  const rowId = attrs[SIZE_GRID_ROW_ID]?.valueName ?? "";
  const testId = `publish-size-chart-${site}`;
  const [creating, setCreating] = useState(false);
  const selection = useSelectionVariants(productIds, creating || !!chart);
  const sizes = variantSizes(selection.variants, attributes);
  const lacking = chart ? sizesMissingFrom(chart.rows, sizes) : [];
  const pick = (c: SizeChart) => onChange({ ...attrs, [SIZE_GRID_ID]: { valueId: null, valueName: c.chartId }, [SIZE_GRID_ROW_ID]: {} });
  const complete = useCreateSizeChart({
    mutationConfig: { onSuccess: (c) => toast.success(`已为尺码表「${c.name}」补充 ${lacking.length} 个尺码`) },
  });
  const gender = attrs.GENDER?.valueId ?? attrs.GENDER?.valueName ?? null;

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
          <SelectValue placeholder={options.length ? "选择尺码表" : "没有尺码表：同步或新建"} />
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
      <div className="flex gap-2">
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
        {site !== 5 ? (
          <Button
            variant="outline"
            size="sm"
            disabled={!accountGroupId || !cateId}
            onClick={() => setCreating(true)}
            data-testid={`${testId}-create`}
          >
            <Plus />
            新建尺码表
          </Button>
        ) : null}
      </div>
      {chart && lacking.length ? (
        <p
          className="text-destructive text-xs sm:col-span-4 sm:pl-[8.5rem]"
          data-testid={`${testId}-lacking`}
          data-sizes={lacking.join(",")}
        >
          尺码表「{chart.name}」没有商品的尺码「{lacking.join("、")}」。
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0 text-xs"
            loading={complete.isPending}
            onClick={() =>
              complete.mutate({
                accountGroupId,
                site,
                cateId,
                name: chart.name,
                gender: chart.gender ?? gender ?? "",
                sizes: lacking,
                chartId: chart.chartId,
              })
            }
            data-testid={`${testId}-complete`}
          >
            补充到尺码表
          </Button>
        </p>
      ) : null}
      {creating ? (
        <CreateSizeChartDialog
          site={site}
          accountGroupId={accountGroupId}
          cateId={cateId}
          cateName={cateName}
          attributes={attributes}
          gender={gender}
          sizes={sizes}
          testId={`${testId}-dialog`}
          onCreated={(c) => {
            pick(c);
            setCreating(false);
          }}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </div>
  );
}
