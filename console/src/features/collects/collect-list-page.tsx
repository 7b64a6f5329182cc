// /collects/list (spec §2, cached): the collected products, filtered by the spec §3 filter (kept in the URL), paged on
// the server; rows chosen on any page or every row matching the filter; bulk status, move to the product library,
// infringement screening and delete; per row view/edit, the source link and delete. Large pages render only the
// rows in view. Under a filter the server cannot count cheaply the total stops at 1,000 ("1,000+", the pager's own
// total hidden), as the product list's.
import { Plus } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import type { CollectListItem } from "#shared/contract/collect.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { cn } from "#shared/ui/cn.ts";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar } from "../../components/list/list-toolbar.tsx";
import { useOwnerFilterOptions } from "../../components/list/owner-filter.ts";
import { useListSelection } from "../../components/list/use-list-selection.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { platformLabel } from "../../lib/labels.ts";
import { useUserStore } from "../../stores/user.ts";
import {
  useBatchDeleteCollects,
  useBatchUpdateCollectStatus,
  useMigrateToProducts,
  useScreenCollects,
  type BulkTarget,
} from "./api/bulk-edit-collects.ts";
import { useDeleteCollect } from "./api/edit-collects.ts";
import { useCollects } from "./api/get-collects.ts";
import { CollectBulkBar, type BulkAction } from "./collect-bulk-bar.tsx";
import { collectColumns } from "./collect-columns.tsx";
import { CollectEditDialog } from "./collect-edit-dialog.tsx";
import { collectFilters } from "./collect-filters.ts";
import { CollectStatusDialog } from "./collect-status-dialog.tsx";
import { collectStatusLabel } from "./labels.ts";
import { titleOf } from "./format.ts";
import { COLLECT_PAGE_SIZES, VIRTUALIZE_FROM, collectListSchema, toCollectFilter, toCollectQuery } from "./search-params.ts";

const VIRTUAL_ROW_HEIGHT = 68;

/** A count as the list shows it: "1,000+" when the server stopped counting there. */
const totalText = (n: number, capped = false) => `${n.toLocaleString("zh-CN")}${capped ? "+" : ""}`;

export default function CollectListPage({ route }: PageProps) {
  const listState = useListUrlState(collectListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;

  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const users = useOwnerFilterOptions();
  const filter = toCollectFilter(state);
  // react-query compares keys by value, so a fresh object each render is the same query.
  const list = useCollects(toCollectQuery(state));
  const table = listTable(list, listState, COLLECT_PAGE_SIZES);
  const { rows } = table;
  const { total } = table.pagination;
  const capped = list.data?.totalCountCapped ?? false;

  const selection = useListSelection(listState.filterKey);
  // A capped total is only a lower bound: the last page is not known.
  useKeepPageInRange(listState.state, settledTotal(list, capped), listState.setPage);

  const [editing, setEditing] = useState<CollectListItem | null>(null);
  const [statusOpen, setStatusOpen] = useState(false);
  const deleteOne = useDeleteCollect();
  const batchDelete = useBatchDeleteCollects();
  const batchStatus = useBatchUpdateCollectStatus();
  const migrate = useMigrateToProducts();
  const screen = useScreenCollects();
  const running: BulkAction | null = batchDelete.isPending
    ? "delete"
    : batchStatus.isPending
      ? "status"
      : migrate.isPending
        ? "migrate"
        : screen.isPending
          ? "screen"
          : null;

  const count = selection.count(total);
  const target = (): BulkTarget => (selection.allMatching ? { filter } : { ids: [...selection.selected] });
  const countCapped = selection.allMatching && capped;
  const countText = `${totalText(count, countCapped)} 个`;

  async function onDeleteRow(row: CollectListItem) {
    const ok = await confirm({
      title: "确认删除该采集商品吗？",
      description: `「${titleOf(row.title).text || row.sku}」删除后无法恢复；已导入产品库的产品不受影响。`,
      tone: "danger",
      confirmText: "删除",
    });
    if (!ok) return;
    deleteOne.mutate(row.id, {
      onSuccess: () => {
        toast.success("采集商品已删除");
        selection.deselect(row.id);
      },
    });
  }

  async function onBulk(action: BulkAction) {
    if (count === 0) return;
    if (action === "status") {
      setStatusOpen(true);
      return;
    }
    if (action === "delete") {
      const ok = await confirm({
        title: `确认删除选中的 ${countText}采集商品吗？`,
        description: "删除后无法恢复；已导入产品库的产品不受影响。",
        tone: "danger",
        confirmText: "删除",
      });
      if (!ok) return;
      batchDelete.mutate(target(), {
        onSuccess: ({ count: n }) => {
          toast.success(`已删除 ${n} 个采集商品`);
          selection.clear();
        },
      });
      return;
    }
    if (action === "migrate") {
      const ok = await confirm({
        title: `将选中的 ${countText}采集商品导入产品库？`,
        description: "每个采集商品会生成一个产品，已导入过的会跳过；导入后状态变为“已导入产品库”。",
        tone: "info",
        confirmText: "导入",
      });
      if (!ok) return;
      migrate.mutate(target(), {
        onSuccess: (r) => {
          const skipped = r.ignoreCount ? `，${r.ignoreCount} 个已导入过（已跳过）` : "";
          toast.success(`导入产品库完成：成功 ${r.successCount} 个${skipped}`, { duration: 6000 });
          selection.clear();
        },
      });
      return;
    }
    screen.mutate(target(), {
      onSuccess: (r) => {
        const message = `侵权检测完成：共检测 ${r.count} 个，${r.flagged} 个含侵权词`;
        if (r.flagged) toast.warning(message, { duration: 6000 });
        else toast.success(message);
      },
    });
  }

  function onBulkStatus(status: number) {
    batchStatus.mutate(
      { target: target(), status },
      {
        onSuccess: ({ count: n }) => {
          toast.success(`已将 ${n} 个采集商品设为“${collectStatusLabel(status)}”`);
          setStatusOpen(false);
          selection.clear();
        },
      },
    );
  }

  const columns = collectColumns({ onEdit: setEditing, onDelete: (r) => void onDeleteRow(r), showOwner: isMainAccount });
  const virtualized = state.size >= VIRTUALIZE_FROM;

  return (
    <Card data-testid="collects-list-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            通过浏览器插件或链接采集到的商品。可在这里查看、编辑、做侵权检测，并导入产品库用于刊登。
            {state.platform !== "all" ? ` 当前平台：${platformLabel(Number(state.platform))}。` : ""}
          </CardDescription>
        </div>
        <div className="flex gap-2">
          <RefreshButton fetching={list.isFetching} onRefresh={list.refetch} data-testid="collects-refresh" />
          <Button asChild>
            <Link to="/collects/collect" data-testid="collects-go-collect">
              <Plus />
              采集商品
            </Link>
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <ListToolbar filters={collectFilters(users)} {...listState.toolbar} resetTestId="collects-reset" />
        <div className="text-sm">
          <span className="text-muted-foreground" data-testid="collects-total" data-total={total} data-capped={capped}>
            共 <b className="text-foreground tabular-nums">{totalText(total, capped)}</b> 个采集商品
          </span>
        </div>
        <CollectBulkBar
          selectedCount={selection.selected.size}
          allMatching={selection.allMatching}
          total={total}
          totalCapped={capped}
          running={running}
          onSelectAllMatching={selection.selectAllMatching}
          onClear={selection.clear}
          onAction={(a) => void onBulk(a)}
        />
        <DataTable
          aria-label="采集商品列表"
          columns={columns}
          {...table}
          rowKey={(r) => r.id}
          emptyText={filtered ? "没有符合条件的采集商品" : "还没有采集商品，点击右上角“采集商品”开始采集，或使用浏览器插件一键采集"}
          selection={selection.table(rows.map((r) => r.id))}
          virtualized={virtualized}
          rowHeight={VIRTUAL_ROW_HEIGHT}
          height="max(420px, calc(100dvh - 360px))"
          className={cn(
            virtualized ? "[&_[role=grid]>div]:min-w-[1040px]" : "[&_table]:min-w-[1040px] [&_table]:table-fixed",
            // The pager's own total cannot say "1,000+"; the line above the table does.
            capped && "[&_[data-slot=pagination-total]]:hidden",
          )}
        />
      </CardContent>

      <CollectEditDialog row={editing} onClose={() => setEditing(null)} />
      <CollectStatusDialog
        open={statusOpen}
        count={count}
        countCapped={countCapped}
        pending={batchStatus.isPending}
        onOpenChange={setStatusOpen}
        onSubmit={onBulkStatus}
      />
    </Card>
  );
}
