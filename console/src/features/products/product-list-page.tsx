// /proudcts/list (spec §2, cached): the product library. Filtered by the spec §3 product filter (kept in the URL),
// paged on the server (up to 1,000 a page; large pages render only the rows in view). Rows are chosen on any page, or
// every product matching the filter; each bulk edit opens its dialog with the number of products it will change, and
// the last one can be undone. Export follows its task to a download; 编辑 / 新建商品 open the editor drawer.
// Sub-accounts see their own products: no owner filter or column, no assigning. 显示设置 sets the row density (compact
// by default: a heavy seller sees ~16 rows at 1440×900) and which columns show in which order, remembered per user.
import { Download, Plus } from "lucide-react";
import { useState } from "react";
import type { ProductListItem } from "#shared/contract/product.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { cn } from "#shared/ui/cn.ts";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { DataTableViewOptions, type TableView } from "#shared/ui/data-table-view.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { listTable } from "../../components/list/list-table.ts";
import { useOwnerFilterOptions } from "../../components/list/owner-filter.ts";
import { useListSelection } from "../../components/list/use-list-selection.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useTableView } from "../../components/list/use-table-view.ts";
import { useNavigate } from "react-router-dom";
import { useConfigStore } from "../../stores/config.ts";
import { usePlatformStore } from "../../stores/platform.ts";
import { useUserStore } from "../../stores/user.ts";
import { countText, type BulkTarget } from "./bulk-target.ts";
import { ExportDialog } from "./export-dialog.tsx";
import { useCopyProducts, useDeleteProduct } from "./api/edit-products.ts";
import { useProducts } from "./api/get-products.ts";
import { ProductBulkBar, type BulkAction } from "./product-bulk-bar.tsx";
import { ProductEditTaskStrips } from "./edit-task-strips.tsx";
import { ProductBulkDialogs } from "./product-bulk-dialogs.tsx";
import { productColumns, titleIn } from "./product-columns.tsx";
import { ProductEditor, type EditorTarget } from "./product-editor.tsx";
import { ProductFilters } from "./product-filters.tsx";
import { EDIT_LANGUAGES, languageName } from "./product-names.ts";
import { PRODUCT_PAGE_SIZES, productListSchema, toProductFilter, toProductQuery, VIRTUALIZE_FROM } from "./search-params.ts";
import { UndoEditButton } from "./undo-edit-button.tsx";

const PUBLISH_PATH = "/proudcts/publish";
const DEFAULT_VIEW: TableView = { density: "compact" };

export default function ProductListPage({ route }: PageProps) {
  const listState = useListUrlState(productListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;

  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const users = useOwnerFilterOptions();
  const titleLanguage = useConfigStore((s) => s.productTitleLanguage);
  const [view, setView] = useTableView("products", DEFAULT_VIEW);
  const setTitleLanguage = useConfigStore((s) => s.setProductTitleLanguage);

  const filter = toProductFilter(state);
  const list = useProducts(toProductQuery(state));
  const table = listTable(list, listState, PRODUCT_PAGE_SIZES);
  const { rows } = table;
  const { total } = table.pagination;
  const capped = list.data?.totalCountCapped ?? false;

  const selection = useListSelection(listState.filterKey);
  // A capped total is only a lower bound: the last page is not known.
  useKeepPageInRange(listState.state, settledTotal(list, capped), listState.setPage);

  const [editing, setEditing] = useState<EditorTarget>(null);
  const [action, setAction] = useState<BulkAction | null>(null);
  const [exporting, setExporting] = useState(false);
  const navigate = useNavigate();
  const setTempProductIds = usePlatformStore((s) => s.setTempProductIds);
  const copy = useCopyProducts();
  const deleteOne = useDeleteProduct();

  const target: BulkTarget = selection.allMatching ? { kind: "filter", filter } : { kind: "ids", ids: [...selection.selected] };
  const hasSelection = selection.allMatching || selection.selected.size > 0;

  function onCopyRow(row: ProductListItem) {
    copy.mutate([row.id], { onSuccess: (r) => toast.success(`已复制 ${r.count} 个商品，副本在列表最前`) });
  }

  async function onDeleteRow(row: ProductListItem) {
    const ok = await confirm({
      title: "确认删除该商品吗？",
      description: `「${titleIn(row, titleLanguage) || row.sku || row.id}」将被删除，24 小时内可通过“撤销上次批量修改”恢复。`,
      tone: "danger",
      confirmText: "删除",
    });
    if (!ok) return;
    deleteOne.mutate(row.id, {
      onSuccess: () => {
        toast.success("商品已删除");
        selection.deselect(row.id);
      },
    });
  }

  const columns = productColumns({
    onEdit: (r) => setEditing({ id: r.id }),
    onCopy: onCopyRow,
    onDelete: (r) => void onDeleteRow(r),
    titleLanguage,
    showOwner: isMainAccount,
    density: view.density,
  });
  const virtualized = state.size >= VIRTUALIZE_FROM;

  return (
    <Card data-testid="products-list-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>产品库中的商品：编辑标题、描述、价格、重量和规格，批量修改后用于刊登。</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Select value={titleLanguage} onValueChange={setTitleLanguage}>
            <SelectTrigger className="w-40" aria-label="标题语言" data-testid="products-title-language">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {EDIT_LANGUAGES.map((l) => (
                <SelectItem key={l} value={l}>
                  标题：{languageName(l)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <RefreshButton fetching={list.isFetching} onRefresh={list.refetch} data-testid="products-refresh" />
          <Button
            variant="outline"
            onClick={() => setExporting(true)}
            disabled={!hasSelection && total === 0}
            data-testid="products-export"
          >
            <Download />
            {hasSelection ? "导出所选" : "导出"}
          </Button>
          <Button onClick={() => setEditing({ id: null })} data-testid="products-new">
            <Plus />
            新建商品
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <ProductFilters state={state} onChange={listState.update} onReset={listState.reset} users={users} canReset={filtered} />
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground" data-testid="products-total" data-total={total} data-capped={capped}>
            共 <b className="text-foreground tabular-nums">{countText(total, capped)}</b> 个商品
          </span>
          <div className="ml-auto flex items-center gap-2">
            <UndoEditButton />
            <DataTableViewOptions columns={columns} view={view} onChange={setView} defaults={DEFAULT_VIEW} testId="products-view" />
          </div>
        </div>
        <ProductEditTaskStrips />
        <ProductBulkBar
          selectedCount={selection.selected.size}
          allMatching={selection.allMatching}
          total={total}
          totalCapped={capped}
          canAssign={isMainAccount && !!users}
          onSelectAllMatching={selection.selectAllMatching}
          onClear={selection.clear}
          onAction={(a) => {
            if (a !== "publish") return setAction(a);
            // The publish screen starts from the rows chosen by hand (the platform store's tempProductIds).
            setTempProductIds([...selection.selected]);
            navigate(PUBLISH_PATH);
          }}
        />
        <DataTable
          aria-label="商品列表"
          columns={columns}
          {...table}
          rowKey={(r) => r.id}
          emptyText={filtered ? "没有符合条件的商品" : "还没有商品：在采集列表中把商品导入产品库，或点击右上角“新建商品”"}
          selection={selection.table(rows.map((r) => r.id))}
          virtualized={virtualized}
          view={view}
          height="max(420px, calc(100dvh - 380px))"
          className={cn(
            // Fixed layout: the title takes what the fixed-width columns leave, never less than ~240px.
            virtualized ? "[&_[role=grid]>div]:min-w-[1120px]" : "[&_table]:min-w-[1120px] [&_table]:table-fixed",
            // The pager's own total cannot say "1,000+"; the line above the table does.
            capped && "[&_[data-slot=pagination-total]]:hidden",
          )}
        />
      </CardContent>

      <ProductBulkDialogs action={action} target={target} users={users} onClose={() => setAction(null)} onDeleted={selection.clear} />
      {exporting ? <ExportDialog target={hasSelection ? target : { kind: "filter", filter }} onClose={() => setExporting(false)} /> : null}
      <ProductEditor target={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
