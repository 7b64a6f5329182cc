// The selection line above the shop table: how many shops are chosen and what can be done to all of them at once
// (pricing rules, enable, disable, assign to a salesperson for main accounts).
import { BadgeDollarSign, CirclePause, CirclePlay, UserRoundPlus, X, type LucideIcon } from "lucide-react";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";

export type ShopBulkAction = "pricing" | "enable" | "disable" | "assign";

const actions: { action: ShopBulkAction; text: string; icon: LucideIcon }[] = [
  { action: "pricing", text: "批量设置定价", icon: BadgeDollarSign },
  { action: "enable", text: "启用", icon: CirclePlay },
  { action: "disable", text: "停用", icon: CirclePause },
  { action: "assign", text: "分配给业务员", icon: UserRoundPlus },
];

export type ShopBulkBarProps = {
  selectedCount: number;
  /** Main accounts may assign shops. */
  canAssign: boolean;
  onClear: () => void;
  onAction: (action: ShopBulkAction) => void;
};

export function ShopBulkBar({ selectedCount, canAssign, onClear, onAction }: ShopBulkBarProps) {
  const none = selectedCount === 0;
  return (
    <div
      className={cn(
        "flex flex-wrap items-center gap-2 rounded-md border px-3 py-2 text-sm",
        none ? "bg-muted/30 text-muted-foreground" : "bg-primary/5 border-primary/20",
      )}
      data-testid="shops-bulk-bar"
      data-count={selectedCount}
    >
      <span data-testid="shops-selected-count">
        {none ? (
          "勾选店铺后可批量操作"
        ) : (
          <>
            已选择 <b className="text-foreground tabular-nums">{selectedCount}</b> 个店铺
          </>
        )}
      </span>
      {!none ? (
        <Button variant="ghost" size="sm" className="h-7 px-2" onClick={onClear} data-testid="shops-clear-selection">
          <X />
          清空选择
        </Button>
      ) : null}
      <div className="flex flex-wrap gap-1.5 sm:ml-auto" role="toolbar" aria-label="批量操作">
        {actions
          .filter((a) => a.action !== "assign" || canAssign)
          .map(({ action, text, icon: Icon }) => (
            <Button
              key={action}
              variant="outline"
              size="sm"
              disabled={none}
              onClick={() => onAction(action)}
              data-testid={`shops-bulk-${action}`}
            >
              <Icon />
              {text}
            </Button>
          ))}
      </div>
    </div>
  );
}
