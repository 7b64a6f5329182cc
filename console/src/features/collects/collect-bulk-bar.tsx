// The selection line above the collection table: how many are chosen (on any page, or every collection matching the
// filter), and the bulk actions on them: 批量修改状态, 导入产品库, 侵权检测, 删除.
import { ListChecks, PackagePlus, ShieldCheck, Tags, Trash2, X } from "lucide-react";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";

export type BulkAction = "status" | "migrate" | "screen" | "delete";

export type CollectBulkBarProps = {
  /** Ids chosen row by row (any page). */
  selectedCount: number;
  /** Every collection matching the filter is chosen. */
  allMatching: boolean;
  /** Collections matching the filter (capped: at least this many). */
  total: number;
  totalCapped?: boolean;
  /** The action on its way, if any. */
  running: BulkAction | null;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onAction: (action: BulkAction) => void;
};

export function CollectBulkBar({
  selectedCount,
  allMatching,
  total,
  totalCapped = false,
  running,
  onSelectAllMatching,
  onClear,
  onAction,
}: CollectBulkBarProps) {
  const count = allMatching ? total : selectedCount;
  const totalText = `${total.toLocaleString("zh-CN")}${totalCapped ? "+" : ""}`;
  const none = count === 0;
  const busy = running !== null;
  return (
    <div
      className={cn(
        "flex flex-wrap items-center gap-2 rounded-md border px-3 py-2 text-sm",
        none ? "bg-muted/30 text-muted-foreground" : "bg-primary/5 border-primary/20",
      )}
      data-testid="collects-bulk-bar"
      data-count={count}
    >
      <span data-testid="collects-selected-count">
        {none ? (
          "勾选商品后可批量操作"
        ) : allMatching ? (
          <>
            已选择全部 <b className="text-foreground tabular-nums">{totalText}</b> 个符合条件的商品
          </>
        ) : (
          <>
            已选择 <b className="text-foreground tabular-nums">{selectedCount.toLocaleString("zh-CN")}</b> 个商品
          </>
        )}
      </span>
      {!allMatching && total > 0 && (totalCapped || selectedCount < total) ? (
        <Button variant="link" size="sm" className="h-7 px-1" onClick={onSelectAllMatching} data-testid="collects-select-all-matching">
          <ListChecks />
          选择全部 {totalText} 个符合条件的商品
        </Button>
      ) : null}
      {!none ? (
        <Button variant="ghost" size="sm" className="h-7 px-2" onClick={onClear} data-testid="collects-clear-selection">
          <X />
          清空选择
        </Button>
      ) : null}
      <div className="ml-auto flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={none || busy}
          loading={running === "status"}
          onClick={() => onAction("status")}
          data-testid="collects-bulk-status"
        >
          <Tags />
          批量修改状态
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={none || busy}
          loading={running === "migrate"}
          onClick={() => onAction("migrate")}
          data-testid="collects-bulk-migrate"
        >
          <PackagePlus />
          导入产品库
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={none || busy}
          loading={running === "screen"}
          onClick={() => onAction("screen")}
          data-testid="collects-bulk-screen"
        >
          <ShieldCheck />
          侵权检测
        </Button>
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive hover:bg-destructive/10"
          disabled={none || busy}
          loading={running === "delete"}
          onClick={() => onAction("delete")}
          data-testid="collects-bulk-delete"
        >
          <Trash2 />
          删除
        </Button>
      </div>
    </div>
  );
}
