// 批量修改状态: the status to give the chosen collections (BatchUpdateCollectStatus).
import { useEffect, useState } from "react";
import { CollectStatus } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { collectStatusOptions } from "./labels.ts";

export type CollectStatusDialogProps = {
  open: boolean;
  /** How many collections the change applies to. */
  count: number;
  /** The count is a lower bound (every collection matching a filter the server counted only up to its cap). */
  countCapped?: boolean;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (status: number) => void;
};

export function CollectStatusDialog({ open, count, countCapped = false, pending, onOpenChange, onSubmit }: CollectStatusDialogProps) {
  const [status, setStatus] = useState(String(CollectStatus.Ignored));
  useEffect(() => {
    if (open) setStatus(String(CollectStatus.Ignored));
  }, [open]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-sm" data-testid="collects-status-dialog">
        <DialogHeader>
          <DialogTitle>批量修改状态</DialogTitle>
          <DialogDescription>将选中的 {`${count.toLocaleString("zh-CN")}${countCapped ? "+" : ""}`} 个采集商品设为：</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2">
          <Label htmlFor="collects-status-value">状态</Label>
          <Select value={status} onValueChange={setStatus}>
            <SelectTrigger id="collects-status-value" data-testid="collects-status-value">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {collectStatusOptions.map((o) => (
                <SelectItem key={o.value} value={String(o.value)} data-testid={`collects-status-value-${o.value}`}>
                  {o.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <p className="text-muted-foreground text-xs">只修改状态标记；导入产品库请使用“导入产品库”。</p>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            取消
          </Button>
          <Button loading={pending} onClick={() => onSubmit(Number(status))} data-testid="collects-status-submit">
            确定
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
