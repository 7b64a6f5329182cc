// 更多 → 复制指定商品 on the tenants screen (issue 31, Product MigrateToProduct / MigrateFromProduct): the host pastes the
// ids of some of a tenant's products (a seller's request names them; the host cannot list a tenant's products) and
// picks one or more destination tenants. To one, MigrateToProduct: the copies' owner can be chosen and the source's
// products can be deleted after (转移). To several, MigrateFromProduct: a copy in each, owned by its main account.
// Either way a task, followed live.
import { useState } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { Checkbox } from "#shared/ui/checkbox.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { X } from "lucide-react";
import { AllSelect } from "../../components/list/all-select.tsx";
import { useTenantShopGroups, useTransferProducts } from "./api/tenant-transfer.ts";
import { productIdList } from "./clear-confirm.ts";
import { TenantPicker, type PickedTenant } from "./tenant-picker.tsx";
import type { TenantDialogProps } from "./tenant-task.tsx";

const MAIN_ACCOUNT = "main";
/** MigrateFromProduct takes at most this many tenants. */
const MAX_DESTINATIONS = 50;

export function TransferProductsDialog({ tenant, onOpenChange, onTask }: TenantDialogProps) {
  const transfer = useTransferProducts();
  const [idsText, setIdsText] = useState("");
  const [dests, setDests] = useState<PickedTenant[]>([]);
  const [owner, setOwner] = useState(MAIN_ACCOUNT);
  const [move, setMove] = useState(false);
  const single = dests.length === 1 ? dests[0] : null;
  const destInfo = useTenantShopGroups(single?.id ?? null);
  const ids = productIdList(idsText);
  const ready = ids.items.length > 0 && !ids.problem && dests.length > 0;

  function close() {
    setIdsText("");
    setDests([]);
    setOwner(MAIN_ACCOUNT);
    setMove(false);
    onOpenChange(false);
  }

  function addDest(t: PickedTenant) {
    setDests((d) => (d.some((x) => x.id === t.id) || d.length >= MAX_DESTINATIONS ? d : [...d, t]));
    setOwner(MAIN_ACCOUNT);
  }

  async function submit() {
    if (!tenant || !ready) return;
    const moving = !!single && move;
    if (moving) {
      const ok = await confirm({
        title: `转移 ${ids.items.length} 个商品到 ${single.name}`,
        description: `复制完成后将删除公司「${tenant.tenantName}」的这些商品，此操作不可撤销，确定继续吗？`,
        tone: "danger",
        confirmText: "转移",
      });
      if (!ok) return;
    }
    const to = single ? single.name : `${dests.length} 个公司`;
    transfer.mutate(
      {
        srcTenantId: tenant.id,
        destTenantIds: dests.map((d) => d.id),
        productIds: ids.items,
        destUserId: single && owner !== MAIN_ACCOUNT ? owner : null,
        isDeleteSrc: moving,
      },
      {
        onSuccess: (r) => {
          close();
          onTask({
            taskId: r.taskId,
            taskType: TaskType.CopyBetweenTenants,
            title: moving ? "转移指定商品" : single ? "复制指定商品" : "分发商品",
            description: `${tenant.tenantName} → ${to}，${ids.items.length} 个商品，共 ${r.total.toLocaleString("zh-CN")} 条`,
          });
        },
      },
    );
  }

  const owners = [
    { value: MAIN_ACCOUNT, label: "目标公司主账号" },
    ...(destInfo.data?.users ?? []).filter((u) => !u.isMainAccount).map((u) => ({ value: u.id, label: u.userName })),
  ];

  return (
    <Dialog open={!!tenant} onOpenChange={(open) => !open && !transfer.isPending && close()}>
      <DialogContent className="sm:max-w-xl" data-testid="tenant-products-dialog">
        <DialogHeader>
          <DialogTitle>复制指定商品：{tenant?.tenantName}</DialogTitle>
          <DialogDescription>按商品ID把该公司的商品连同标签复制到一个或多个公司；选一个目标公司时可指定归属或转移。</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="tenant-products-ids">商品ID</Label>
          <Textarea
            id="tenant-products-ids"
            value={idsText}
            onChange={(e) => setIdsText(e.target.value)}
            placeholder="每行一个，或用逗号分隔，最多 1000 个"
            rows={4}
            className="font-mono text-xs"
            data-testid="tenant-products-ids"
          />
          <p className={ids.problem ? "text-destructive text-xs" : "text-muted-foreground text-xs"} data-testid="tenant-products-ids-count">
            {ids.problem ?? `已填 ${ids.items.length} 个商品`}
          </p>
        </div>
        <TenantPicker
          id="tenant-products-dest"
          label={`目标公司（可多选，最多 ${MAX_DESTINATIONS} 个）`}
          value={null}
          onChange={addDest}
          excludeId={tenant?.id}
          testId="tenant-products-dest"
        />
        {dests.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label="目标公司" data-testid="tenant-products-dests">
            {dests.map((d) => (
              <li key={d.id} className="bg-muted flex items-center gap-1 rounded-md py-0.5 pr-1 pl-2 text-xs">
                {d.name}
                <button
                  type="button"
                  className="hover:bg-background rounded p-0.5"
                  aria-label={`移除 ${d.name}`}
                  onClick={() => setDests((all) => all.filter((x) => x.id !== d.id))}
                >
                  <X className="size-3" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {single ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="flex flex-col gap-1.5">
              <Label>复制后归属</Label>
              <AllSelect
                value={owner}
                onChange={setOwner}
                label="复制后归属"
                options={owners}
                className="w-full"
                testId="tenant-products-owner"
              />
            </div>
            <div className="flex items-center gap-2 sm:mt-6">
              <Checkbox
                id="tenant-products-move"
                checked={move}
                onCheckedChange={(on) => setMove(on === true)}
                data-testid="tenant-products-move"
              />
              <Label htmlFor="tenant-products-move" className="font-normal">
                复制后删除源公司的这些商品（转移）
              </Label>
            </div>
          </div>
        ) : dests.length > 1 ? (
          <p className="text-muted-foreground text-xs">复制到多个公司时，每个公司的副本归其主账号所有，源公司的商品保持不变。</p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" disabled={transfer.isPending} onClick={close}>
            取消
          </Button>
          <Button disabled={!ready} loading={transfer.isPending} onClick={() => void submit()} data-testid="tenant-products-submit">
            {single && move ? "开始转移" : "开始复制"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
