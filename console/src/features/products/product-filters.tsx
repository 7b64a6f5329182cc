// The product list's filters (spec §3 product filter): title, status, source platform, label, owner (main accounts),
// infringement flag and creation dates in the first row; sku, source item ids, currency, price and weight ranges, site
// and category (the chosen site's category tree-select) under 更多筛选. Every change goes back to page 1 (the page's
// update does that).
import { ChevronDown, ChevronUp, RotateCcw } from "lucide-react";
import { useState } from "react";
import { Button } from "@shared/ui/button.tsx";
import { DataTableToolbar } from "@shared/ui/data-table.tsx";
import { SearchInput } from "@shared/ui/search-input.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@shared/ui/select.tsx";
import { CategorySelect } from "../../components/category-select.tsx";
import type { SiteId } from "../../stores/platform.ts";
import { DateRangeFilter } from "../collects/date-range-filter.tsx";
import { platformOptions } from "../collects/labels.ts";
import type { UserOption } from "../collects/user-options.ts";
import { useProductLabels } from "./product-api.ts";
import { productStatusOptions, siteOptions } from "./product-names.ts";
import type { ProductListState } from "./search-params.ts";

export type ProductFiltersProps = {
  state: ProductListState;
  onChange: (change: Partial<ProductListState>) => void;
  onReset: () => void;
  /** Owner choices (main accounts); null hides the owner filter. */
  users: UserOption[] | null;
  canReset: boolean;
};

type Choice = { value: string | number; label: string };

function ChoiceFilter({
  value,
  onChange,
  all,
  choices,
  label,
  testId,
  className = "w-36",
}: {
  value: string;
  onChange: (v: string) => void;
  all: string;
  choices: Choice[];
  label: string;
  testId: string;
  className?: string;
}) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger className={className} aria-label={label} data-testid={testId}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="all">{all}</SelectItem>
        {choices.map((c) => (
          <SelectItem key={c.value} value={String(c.value)} data-testid={`${testId}-${c.value}`}>
            {c.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

const advancedKeys = ["sku", "sourceIds", "currency", "minPrice", "maxPrice", "minWeight", "maxWeight", "cateId"] as const;
type TextKey = Exclude<(typeof advancedKeys)[number], "cateId">;

export function ProductFilters({ state, onChange, onReset, users, canReset }: ProductFiltersProps) {
  const labels = useProductLabels();
  const hasAdvanced = advancedKeys.some((k) => state[k].trim() !== "") || state.site !== "all";
  const [more, setMore] = useState(hasAdvanced);
  const text = (key: TextKey, placeholder: string, className: string, max: number) => (
    <SearchInput
      plain
      value={state[key]}
      onSearch={(v) => onChange({ [key]: v })}
      placeholder={placeholder}
      aria-label={placeholder}
      maxLength={max}
      className={className}
      data-testid={`products-filter-${key}`}
    />
  );
  return (
    <div className="flex flex-col gap-2" data-testid="products-filters">
      <DataTableToolbar>
        <SearchInput
          value={state.title}
          onSearch={(title) => onChange({ title })}
          placeholder="搜索商品标题"
          aria-label="搜索商品标题"
          maxLength={200}
          className="sm:w-64"
          data-testid="products-search"
        />
        <ChoiceFilter
          value={state.status}
          onChange={(status) => onChange({ status })}
          all="全部状态"
          choices={productStatusOptions}
          label="状态"
          testId="products-filter-status"
          className="w-32"
        />
        <ChoiceFilter
          value={state.platform}
          onChange={(platform) => onChange({ platform })}
          all="全部平台"
          choices={platformOptions}
          label="来源平台"
          testId="products-filter-platform"
          className="w-32"
        />
        <ChoiceFilter
          value={state.label}
          onChange={(label) => onChange({ label })}
          all="全部标签"
          choices={(labels.data ?? []).map((l) => ({ value: l.id, label: `${l.name}（${l.count}）` }))}
          label="标签"
          testId="products-filter-label"
        />
        {users ? (
          <ChoiceFilter
            value={state.user}
            onChange={(user) => onChange({ user })}
            all="全部账号"
            choices={users.map((u) => ({ value: u.id, label: u.name }))}
            label="所属账号"
            testId="products-filter-user"
            className="w-40"
          />
        ) : null}
        <ChoiceFilter
          value={state.infringement}
          onChange={(v) => onChange({ infringement: v as ProductListState["infringement"] })}
          all="侵权词：全部"
          choices={[
            { value: "yes", label: "含侵权词" },
            { value: "no", label: "不含侵权词" },
          ]}
          label="侵权词"
          testId="products-filter-infringement"
        />
        <DateRangeFilter start={state.start} end={state.end} onChange={(range) => onChange(range)} testId="products-date" />
        <Button variant="ghost" onClick={() => setMore((m) => !m)} aria-expanded={more} data-testid="products-more-filters">
          {more ? <ChevronUp /> : <ChevronDown />}
          更多筛选
        </Button>
        <Button variant="ghost" onClick={onReset} disabled={!canReset} data-testid="products-reset">
          <RotateCcw />
          重置
        </Button>
      </DataTableToolbar>
      {more ? (
        <DataTableToolbar data-testid="products-more-filter-row">
          {text("sku", "SKU（精确）", "sm:w-40", 128)}
          {text("sourceIds", "来源商品ID，多个用空格或逗号分隔", "sm:w-72", 20_000)}
          {text("currency", "币种（如 CNY）", "sm:w-36", 3)}
          <div className="flex items-center gap-1.5" role="group" aria-label="价格范围">
            {text("minPrice", "最低价", "w-24 sm:w-24", 16)}
            <span className="text-muted-foreground text-sm">-</span>
            {text("maxPrice", "最高价", "w-24 sm:w-24", 16)}
          </div>
          <div className="flex items-center gap-1.5" role="group" aria-label="重量范围（克）">
            {text("minWeight", "最小重量(克)", "w-32 sm:w-32", 16)}
            <span className="text-muted-foreground text-sm">-</span>
            {text("maxWeight", "最大重量(克)", "w-32 sm:w-32", 16)}
          </div>
          <ChoiceFilter
            value={state.site}
            onChange={(site) => onChange({ site, cateId: "" })}
            all="全部站点"
            choices={siteOptions}
            label="站点"
            testId="products-filter-site"
          />
          <div className="w-full sm:w-72">
            <CategorySelect
              site={state.site !== "all" ? (Number(state.site) as SiteId) : null}
              value={state.cateId || null}
              onChange={(node) => onChange({ cateId: node?.id ?? "" })}
              placeholder="全部类目"
              aria-label="类目"
              testId="products-filter-cateId"
            />
          </div>
        </DataTableToolbar>
      ) : null}
    </div>
  );
}
