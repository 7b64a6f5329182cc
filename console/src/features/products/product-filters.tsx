// The product list's filters (spec §3 product filter), declared for the list toolbar: title, status, source platform,
// label, owner (main accounts), infringement flag and creation dates in the first row; sku, source item ids, currency,
// price and weight ranges, site and category (the chosen site's category tree-select) under 更多筛选. Every change
// goes back to page 1.
import { CategorySelect } from "../../components/category-select.tsx";
import { labelFilter } from "../../components/list/label-filter.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { ownerFilter, type UserOption } from "../../components/list/owner-filter.ts";
import { infringementFilter } from "../../components/list/infringement-filter.ts";
import { platformOptions } from "../../lib/labels.ts";
import type { SiteId } from "../../stores/platform.ts";
import { useProductLabels } from "./api/get-product-labels.ts";
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

/** An exact-match text field of the second row; its test id keeps the filter's name. */
const text = (key: keyof ProductListState, name: string, label: string, className: string, maxLength: number) =>
  ({ kind: "search", key, label, plain: true, maxLength, className, testId: `products-filter-${name}` }) as const;

export function ProductFilters({ state, onChange, onReset, users, canReset }: ProductFiltersProps) {
  const labels = useProductLabels();
  const filters: ListFilters = [
    { kind: "search", key: "q", label: "搜索商品标题", maxLength: 200, className: "sm:w-64", testId: "products-search" },
    {
      kind: "facet",
      key: "status",
      label: "状态",
      all: "全部状态",
      options: productStatusOptions,
      className: "w-32",
      testId: "products-filter-status",
    },
    {
      kind: "facet",
      key: "platform",
      label: "来源平台",
      all: "全部平台",
      options: platformOptions,
      className: "w-32",
      testId: "products-filter-platform",
    },
    labelFilter(labels.data, { label: "标签", all: "全部标签", testId: "products-filter-label" }),
    ownerFilter(users, { label: "所属账号", all: "全部账号", testId: "products-filter-user" }),
    infringementFilter("products-filter-infringement"),
    { kind: "date-range", from: "from", to: "to", testId: "products-date" },
  ];
  const more: ListFilters = [
    text("sku", "sku", "SKU（精确）", "sm:w-40", 128),
    text("src", "sourceIds", "来源商品ID，多个用空格或逗号分隔", "sm:w-72", 20_000),
    text("cur", "currency", "币种（如 CNY）", "sm:w-36", 3),
    {
      kind: "number-range",
      label: "价格范围",
      min: { key: "pmin", placeholder: "最低价", testId: "products-filter-minPrice" },
      max: { key: "pmax", placeholder: "最高价", testId: "products-filter-maxPrice" },
      maxLength: 16,
      className: "w-24 sm:w-24",
    },
    {
      kind: "number-range",
      label: "重量范围（克）",
      min: { key: "wmin", placeholder: "最小重量(克)", testId: "products-filter-minWeight" },
      max: { key: "wmax", placeholder: "最大重量(克)", testId: "products-filter-maxWeight" },
      maxLength: 16,
      className: "w-32 sm:w-32",
    },
    { kind: "facet", key: "site", label: "站点", all: "全部站点", options: siteOptions, clears: ["cate"], testId: "products-filter-site" },
    {
      kind: "custom",
      key: "cate",
      render: () => (
        <div className="w-full sm:w-72">
          <CategorySelect
            site={state.site !== "all" ? (Number(state.site) as SiteId) : null}
            value={state.cate || null}
            onChange={(node) => onChange({ cate: node?.id ?? "" })}
            placeholder="全部类目"
            aria-label="类目"
            testId="products-filter-cateId"
          />
        </div>
      ),
    },
  ];
  return (
    <ListToolbar
      filters={filters}
      more={{ filters: more, buttonTestId: "products-more-filters", rowTestId: "products-more-filter-row" }}
      state={state}
      onChange={onChange}
      onReset={onReset}
      canReset={canReset}
      resetTestId="products-reset"
      testId="products-filters"
    />
  );
}
