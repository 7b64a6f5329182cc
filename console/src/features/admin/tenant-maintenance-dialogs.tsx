// 更多 → 恢复已删除商品, 清空数据 and 重建索引 on the tenants screen (issue 31). Restoring and clearing start tasks (the
// page follows them); clearing is confirmed by typing the tenant's name; the index check answers its report at once.
import { useState } from "react";
import type { CreateTenantMongoIndexResult } from "#shared/contract/tenant-admin.ts";
import { TaskType } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { DateInput } from "#shared/ui/date-input.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { toDayText } from "#shared/ui/date-input.tsx";
import { useClearTenantInfo, useReturnDelProduct } from "./api/tenant-maintenance.ts";
import { confirmsTenantName, deletionRange } from "./clear-confirm.ts";
import type { TenantDialogProps } from "./tenant-task.tsx";

const daysAgo = (n: number) => toDayText(new Date(Date.now() - n * 86_400_000));

export function RecoverDeletedDialog({ tenant, onOpenChange, onTask }: TenantDialogProps) {
  const restore = useReturnDelProduct();
  const [first, setFirst] = useState(() => daysAgo(7));
  const [last, setLast] = useState(() => daysAgo(0));
  const range = deletionRange(first, last);

  function submit() {
    if (!tenant || !range) return;
    restore.mutate(
      { tenantId: tenant.id, ...range },
      {
        onSuccess: (r) => {
          onOpenChange(false);
          onTask({
            taskId: r.taskId,
            taskType: TaskType.Maintenance,
            title: "恢复已删除商品",
            description: `公司 ${tenant.tenantName} 在 ${first} 至 ${last} 删除的商品，共 ${r.total.toLocaleString("zh-CN")} 个`,
          });
        },
      },
    );
  }

  return (
    <Dialog open={!!tenant} onOpenChange={(open) => !restore.isPending && onOpenChange(open)}>
      <DialogContent className="sm:max-w-md" data-testid="tenant-recover-dialog">
        <DialogHeader>
          <DialogTitle>恢复已删除商品：{tenant?.tenantName}</DialogTitle>
          <DialogDescription>恢复在所选日期内删除的全部商品（含首尾两天），恢复后回到商品列表。</DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap items-center gap-2">
          <Label className="sr-only">删除日期</Label>
          <DateInput
            value={first}
            onChange={setFirst}
            max={last}
            aria-label="开始日期"
            className="w-36"
            data-testid="tenant-recover-start"
          />
          <span className="text-muted-foreground text-sm">至</span>
          <DateInput value={last} onChange={setLast} min={first} aria-label="结束日期" className="w-36" data-testid="tenant-recover-end" />
        </div>
        {!range ? <p className="text-destructive text-sm">请选择有效的日期范围</p> : null}
        <DialogFooter>
          <Button variant="outline" disabled={restore.isPending} onClick={() => onOpenChange(false)}>
            取消
          </Button>
          <Button disabled={!range} loading={restore.isPending} onClick={submit} data-testid="tenant-recover-submit">
            恢复
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function ClearTenantDialog({ tenant, onOpenChange, onTask }: TenantDialogProps) {
  const clear = useClearTenantInfo();
  const [typed, setTyped] = useState("");
  const confirmed = !!tenant && confirmsTenantName(typed, tenant.tenantName);

  function close() {
    setTyped("");
    onOpenChange(false);
  }

  function submit() {
    if (!tenant || !confirmed) return;
    clear.mutate(
      { tenantId: tenant.id, confirmTenantName: typed.trim() },
      {
        onSuccess: (r) => {
          close();
          onTask({
            taskId: r.taskId,
            taskType: TaskType.Maintenance,
            title: "清空数据",
            description: `公司 ${tenant.tenantName}：清空 ${r.total} 类数据，账号与资金记录保留`,
          });
        },
      },
    );
  }

  return (
    <Dialog open={!!tenant} onOpenChange={(open) => !open && !clear.isPending && close()}>
      <DialogContent className="sm:max-w-md" data-testid="tenant-clear-dialog">
        <DialogHeader>
          <DialogTitle className="text-destructive">清空数据：{tenant?.tenantName}</DialogTitle>
          <DialogDescription>
            将删除该公司的商品、采集箱、店铺、刊登、订单和任务等全部业务数据，账号与资金记录保留。此操作不可撤销。
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="tenant-clear-name">
            请输入公司名称 <span className="font-mono font-semibold">{tenant?.tenantName}</span> 以确认
          </Label>
          <Input
            id="tenant-clear-name"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            maxLength={64}
            data-testid="tenant-clear-name"
          />
        </div>
        <DialogFooter>
          <Button variant="outline" disabled={clear.isPending} onClick={close}>
            取消
          </Button>
          <Button variant="destructive" disabled={!confirmed} loading={clear.isPending} onClick={submit} data-testid="tenant-clear-submit">
            清空数据
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function IndexReportDialog({
  report,
  onClose,
}: {
  report: { tenantName: string; result: CreateTenantMongoIndexResult } | null;
  onClose: () => void;
}) {
  const r = report?.result;
  return (
    <Dialog open={!!report} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl" data-testid="tenant-index-report">
        <DialogHeader>
          <DialogTitle>重建索引完成：{report?.tenantName}</DialogTitle>
          <DialogDescription>检查了各数据表的索引并更新统计信息，核对了该公司的计数。</DialogDescription>
        </DialogHeader>
        {r ? (
          <div className="flex max-h-[60vh] flex-col gap-3 overflow-auto text-sm">
            {r.messages.length > 0 ? (
              <ul className="list-disc pl-5" data-testid="tenant-index-messages">
                {r.messages.map((m, i) => (
                  <li key={i}>{m}</li>
                ))}
              </ul>
            ) : null}
            <table className="w-full text-left text-xs">
              <thead className="text-muted-foreground">
                <tr>
                  <th className="py-1 font-medium">数据表</th>
                  <th className="py-1 text-right font-medium">行数（估计）</th>
                  <th className="py-1 text-right font-medium">索引</th>
                  <th className="py-1 font-medium">处理</th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {r.tables.map((t) => (
                  <tr key={t.table}>
                    <td className="py-1 font-mono">{t.table}</td>
                    <td className="py-1 text-right tabular-nums">{Math.max(0, Math.round(t.rows)).toLocaleString("zh-CN")}</td>
                    <td className="py-1 text-right tabular-nums">{t.indexes}</td>
                    <td className="py-1">
                      {[
                        t.recreated.length ? `重建缺失 ${t.recreated.join("、")}` : "",
                        t.reindexed.length ? `重建失效 ${t.reindexed.join("、")}` : "",
                      ]
                        .filter(Boolean)
                        .join("；") || <span className="text-muted-foreground">正常</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {r.counters.length > 0 ? (
              <p className="text-muted-foreground text-xs">
                计数核对：{r.counters.map((c) => `${c.name} 核对 ${c.checked}，修正 ${c.fixed}`).join("；")}
              </p>
            ) : null}
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onClose}>关闭</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
