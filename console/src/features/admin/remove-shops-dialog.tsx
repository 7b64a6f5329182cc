// 更多 → 移除店铺 on the tenants screen (issue 31, RemoveMeliAccount): the host removes shop groups from a tenant with
// their shops, listings, batches, call logs and size charts; orders and products stay. Chosen as for a migration
// (shop-selection.tsx), confirmed, then followed live as a task.
import { TaskType } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { useRemoveMeliAccount, useTenantShopGroups } from "./api/tenant-transfer.ts";
import { SelectionFields, ShopGroupList, useShopSelection } from "./shop-selection.tsx";
import type { TenantDialogProps } from "./tenant-task.tsx";

export function RemoveShopsDialog({ tenant, onOpenChange, onTask }: TenantDialogProps) {
  const source = useTenantShopGroups(tenant?.id ?? null);
  const remove = useRemoveMeliAccount();
  const groups = source.data?.groups ?? [];
  const sel = useShopSelection(groups);
  const taken = sel.taken;

  function close() {
    sel.reset();
    onOpenChange(false);
  }

  async function submit() {
    if (!tenant || !sel.ready) return;
    const listings = taken.reduce((n, g) => n + g.listingCount, 0);
    const ok = await confirm({
      title: `移除 ${taken.length} 个店铺组`,
      description: `将从公司「${tenant.tenantName}」删除这些店铺组及其店铺、${listings} 条刊登、刊登批次和调用记录，订单和商品保留。此操作不可撤销，确定继续吗？`,
      tone: "danger",
      confirmText: "移除",
    });
    if (!ok) return;
    remove.mutate(
      { tenantId: tenant.id, ...sel.body() },
      {
        onSuccess: (r) => {
          close();
          onTask({
            taskId: r.taskId,
            taskType: TaskType.Maintenance,
            title: "移除店铺",
            description: `公司 ${tenant.tenantName}，${taken.length} 个店铺组，共 ${r.total.toLocaleString("zh-CN")} 条刊登`,
          });
        },
      },
    );
  }

  return (
    <Dialog open={!!tenant} onOpenChange={(open) => !open && !remove.isPending && close()}>
      <DialogContent className="sm:max-w-2xl" data-testid="tenant-remove-shops-dialog">
        <DialogHeader>
          <DialogTitle className="text-destructive">移除店铺：{tenant?.tenantName}</DialogTitle>
          <DialogDescription>
            删除所选店铺组及其店铺、刊登、批次、调用记录和尺码表；订单和商品保留（订单的店铺显示为未知店铺）。
          </DialogDescription>
        </DialogHeader>
        <ShopGroupList groups={groups} loading={source.isPending} sel={sel} testId="tenant-remove-shops" />
        <SelectionFields sel={sel} testId="tenant-remove-shops" />
        <DialogFooter>
          <Button variant="outline" disabled={remove.isPending} onClick={close}>
            取消
          </Button>
          <Button
            variant="destructive"
            disabled={!sel.ready || taken.length === 0}
            loading={remove.isPending}
            onClick={() => void submit()}
            data-testid="tenant-remove-shops-submit"
          >
            移除 {taken.length > 0 ? `${taken.length} 个店铺组` : ""}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
