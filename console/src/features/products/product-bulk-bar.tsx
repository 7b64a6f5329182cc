// The selection line above the product table: how many are chosen (rows on any page, or every product matching the
// filter), and one button per bulk action. Each action opens its dialog (product-bulk-dialogs.tsx).
import {
  BadgeDollarSign,
  FolderTree,
  Languages,
  ListChecks,
  Replace,
  Send,
  Scale,
  ShieldCheck,
  Tag,
  Tags,
  Trash2,
  TrendingUp,
  UserRoundPlus,
  X,
  type LucideIcon,
} from "lucide-react";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import { countText, MAX_SELECTED_IDS } from "./bulk-target.ts";

export type BulkAction =
  | "publish"
  | "samePrice"
  | "adjustPrice"
  | "weight"
  | "status"
  | "label"
  | "category"
  | "replace"
  | "translate"
  | "assign"
  | "screen"
  | "delete";

const actions: { action: BulkAction; text: string; icon: LucideIcon; testId: string }[] = [
  { action: "publish", text: "刊登", icon: Send, testId: "products-bulk-publish" },
  { action: "samePrice", text: "统一价格", icon: BadgeDollarSign, testId: "products-bulk-same-price" },
  { action: "adjustPrice", text: "调整价格", icon: TrendingUp, testId: "products-bulk-adjust-price" },
  { action: "weight", text: "重量尺寸", icon: Scale, testId: "products-bulk-weight" },
  { action: "status", text: "状态", icon: Tags, testId: "products-bulk-status" },
  { action: "label", text: "标签", icon: Tag, testId: "products-bulk-label" },
  { action: "category", text: "类目", icon: FolderTree, testId: "products-bulk-category" },
  { action: "replace", text: "查找替换", icon: Replace, testId: "products-bulk-replace" },
  { action: "translate", text: "翻译", icon: Languages, testId: "products-bulk-translate" },
  { action: "assign", text: "分配给子账号", icon: UserRoundPlus, testId: "products-bulk-assign" },
  { action: "screen", text: "侵权检测", icon: ShieldCheck, testId: "products-bulk-screen" },
];

export type ProductBulkBarProps = {
  /** Rows chosen by hand (any page). */
  selectedCount: number;
  /** Every product matching the filter is chosen. */
  allMatching: boolean;
  /** Products matching the filter (capped: at least this many). */
  total: number;
  totalCapped: boolean;
  /** Main accounts may assign products to sub-accounts. */
  canAssign: boolean;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onAction: (action: BulkAction) => void;
};

export function ProductBulkBar(p: ProductBulkBarProps) {
  const none = !p.allMatching && p.selectedCount === 0;
  const tooMany = !p.allMatching && p.selectedCount > MAX_SELECTED_IDS;
  const disabled = none || tooMany;
  const totalText = countText(p.total, p.totalCapped);
  return (
    <div
      className={cn(
        "flex flex-col gap-2 rounded-md border px-3 py-2 text-sm",
        none ? "bg-muted/30 text-muted-foreground" : "bg-primary/5 border-primary/20",
      )}
      data-testid="products-bulk-bar"
      data-count={p.allMatching ? "all" : p.selectedCount}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span data-testid="products-selected-count">
          {none ? (
            "勾选商品后可批量操作"
          ) : p.allMatching ? (
            <>
              已选择全部 <b className="text-foreground tabular-nums">{totalText}</b> 条匹配商品
            </>
          ) : (
            <>
              已选择 <b className="text-foreground tabular-nums">{countText(p.selectedCount)}</b> 个商品
            </>
          )}
        </span>
        {!p.allMatching && p.total > 0 && (p.totalCapped || p.selectedCount < p.total) ? (
          <Button variant="link" size="sm" className="h-7 px-1" onClick={p.onSelectAllMatching} data-testid="products-select-all-matching">
            <ListChecks />
            选择全部 {totalText} 条匹配商品
          </Button>
        ) : null}
        {!none ? (
          <Button variant="ghost" size="sm" className="h-7 px-2" onClick={p.onClear} data-testid="products-clear-selection">
            <X />
            清空选择
          </Button>
        ) : null}
        {tooMany ? (
          <span className="text-warning text-xs" role="alert">
            按行勾选最多 {MAX_SELECTED_IDS} 个，更多请用“选择全部匹配商品”
          </span>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-1.5" role="toolbar" aria-label="批量操作">
        {actions
          .filter((a) => a.action !== "assign" || p.canAssign)
          .map(({ action, text, icon: Icon, testId }) => (
            <Button
              key={action}
              variant="outline"
              size="sm"
              disabled={disabled || (action === "publish" && p.allMatching)}
              title={action === "publish" && p.allMatching ? "刊登请按行勾选商品" : undefined}
              onClick={() => p.onAction(action)}
              data-testid={testId}
            >
              <Icon />
              {text}
            </Button>
          ))}
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive hover:bg-destructive/10"
          disabled={disabled}
          onClick={() => p.onAction("delete")}
          data-testid="products-bulk-delete"
        >
          <Trash2 />
          删除
        </Button>
      </div>
    </div>
  );
}
