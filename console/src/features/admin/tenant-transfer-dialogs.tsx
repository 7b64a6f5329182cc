// 更多 → 迁移店铺 and 复制… on the tenants screen (issue 31): the host moves a tenant's shop groups to another tenant
// (MigrateAccount), or copies its products, collections, label groups or infringement words (the copies run as tasks;
// the words are added at once). The destination is found by name (TenantPicker).
import { useState, type ReactNode } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { Checkbox } from "#shared/ui/checkbox.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Label } from "#shared/ui/label.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { AllSelect } from "../../components/list/all-select.tsx";
import { useCopyToTenant, useMigrateAccount, useTenantShopGroups, type CopyKind } from "./api/tenant-transfer.ts";
import { SelectionFields, ShopGroupList, useShopSelection } from "./shop-selection.tsx";
import { TenantPicker, type PickedTenant } from "./tenant-picker.tsx";
import type { TenantDialogProps } from "./tenant-task.tsx";

function Option(p: { id: string; checked: boolean; onChange: (on: boolean) => void; children: ReactNode }) {
  return (
    <div className="flex items-start gap-2">
      <Checkbox id={p.id} checked={p.checked} onCheckedChange={(on) => p.onChange(on === true)} className="mt-0.5" data-testid={p.id} />
      <Label htmlFor={p.id} className="leading-snug font-normal">
        {p.children}
      </Label>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Copies

const copyKindNames: Record<CopyKind, string> = {
  products: "复制商品",
  collects: "复制采集箱",
  groups: "复制标签分组",
  words: "复制侵权词",
};

const copyNotes: Record<CopyKind, string> = {
  products: "复制该公司的全部现有商品及其标签，归目标公司主账号所有；源公司的商品保持不变。",
  collects: "复制该公司采集箱中的全部商品，归目标公司主账号所有；源公司的采集箱保持不变。",
  groups: "复制该公司的标签分组和标签，与目标公司同名的分组合并。",
  words: "把该公司的侵权词加入目标公司，目标公司已有的词不重复添加。",
};

export function CopyToTenantDialog({ tenant, kind, onOpenChange, onTask }: TenantDialogProps & { kind: CopyKind | null }) {
  const copy = useCopyToTenant();
  const [dest, setDest] = useState<PickedTenant | null>(null);
  const [move, setMove] = useState(false);
  const canMove = kind === "products" || kind === "collects";
  const name = kind ? copyKindNames[kind] : "";

  async function submit() {
    if (!tenant || !kind || !dest) return;
    if (canMove && move) {
      const ok = await confirm({
        title: `转移到 ${dest.name}`,
        description: `复制完成后将删除公司「${tenant.tenantName}」的源数据，此操作不可撤销，确定继续吗？`,
        tone: "danger",
        confirmText: "转移",
      });
      if (!ok) return;
    }
    const title = canMove && move ? name.replace("复制", "转移") : name;
    copy.mutate(
      { kind, srcTenantId: tenant.id, destTenantId: dest.id, isDeleteSrc: canMove && move },
      {
        onSuccess: (r) => {
          close();
          if (r.words) {
            toast.success(`已向 ${dest.name} 添加 ${r.words.count} 个侵权词，跳过已有的 ${r.words.skipped} 个`);
            return;
          }
          onTask({
            taskId: r.task.taskId,
            taskType: TaskType.CopyBetweenTenants,
            title,
            description: `${tenant.tenantName} → ${dest.name}，共 ${r.task.total.toLocaleString("zh-CN")} 条`,
          });
        },
      },
    );
  }

  function close() {
    setDest(null);
    setMove(false);
    onOpenChange(false);
  }

  return (
    <Dialog open={!!tenant && !!kind} onOpenChange={(open) => !open && !copy.isPending && close()}>
      <DialogContent className="sm:max-w-md" data-testid="tenant-copy-dialog">
        <DialogHeader>
          <DialogTitle>
            {name}：{tenant?.tenantName}
          </DialogTitle>
          <DialogDescription>{kind ? copyNotes[kind] : null}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-3">
          <TenantPicker
            id="tenant-copy-dest"
            label="目标公司"
            value={dest}
            onChange={setDest}
            excludeId={tenant?.id}
            testId="tenant-copy-dest"
          />
          {canMove ? (
            <Option id="tenant-copy-move" checked={move} onChange={setMove}>
              复制后删除源公司的数据（转移）
            </Option>
          ) : null}
        </div>
        <DialogFooter>
          <Button variant="outline" disabled={copy.isPending} onClick={close}>
            取消
          </Button>
          <Button disabled={!dest} loading={copy.isPending} onClick={() => void submit()} data-testid="tenant-copy-submit">
            {canMove && move ? "开始转移" : "开始复制"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Shop groups

const MAIN_ACCOUNT = "main";

export function MigrateShopsDialog({ tenant, onOpenChange, onTask }: TenantDialogProps) {
  const source = useTenantShopGroups(tenant?.id ?? null);
  const migrate = useMigrateAccount();
  const groups = source.data?.groups ?? [];
  const sel = useShopSelection(groups);
  const [dest, setDest] = useState<PickedTenant | null>(null);
  const destInfo = useTenantShopGroups(dest?.id ?? null);
  const [owner, setOwner] = useState(MAIN_ACCOUNT);
  const [moveListings, setMoveListings] = useState(true);
  const [deleteProducts, setDeleteProducts] = useState(false);
  const taken = sel.taken;

  function close() {
    sel.reset();
    setDest(null);
    setOwner(MAIN_ACCOUNT);
    setMoveListings(true);
    setDeleteProducts(false);
    onOpenChange(false);
  }

  async function submit() {
    if (!tenant || !dest || !sel.ready) return;
    const listings = taken.reduce((n, g) => n + g.listingCount, 0);
    const ok = await confirm({
      title: `迁移 ${taken.length} 个店铺组到 ${dest.name}`,
      description: `店铺、${moveListings ? `${listings} 条刊登、` : ""}订单将从公司「${tenant.tenantName}」移到「${dest.name}」${
        moveListings ? "" : "，刊登记录从源公司删除且不迁移"
      }${deleteProducts ? "，随店铺迁移的商品从源公司删除" : ""}。确定继续吗？`,
      tone: "danger",
      confirmText: "迁移",
    });
    if (!ok) return;
    migrate.mutate(
      {
        srcTenantId: tenant.id,
        destTenantId: dest.id,
        ...sel.body(),
        userId: owner === MAIN_ACCOUNT ? null : owner,
        isMigrateStat: moveListings,
        isDeleteProduct: deleteProducts,
      },
      {
        onSuccess: (r) => {
          close();
          onTask({
            taskId: r.taskId,
            taskType: TaskType.MigrateAccount,
            title: "迁移店铺",
            description: `${tenant.tenantName} → ${dest.name}，${taken.length} 个店铺组，共 ${r.total.toLocaleString("zh-CN")} 条`,
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
    <Dialog open={!!tenant} onOpenChange={(open) => !open && !migrate.isPending && close()}>
      <DialogContent className="sm:max-w-2xl" data-testid="tenant-migrate-dialog">
        <DialogHeader>
          <DialogTitle>迁移店铺：{tenant?.tenantName}</DialogTitle>
          <DialogDescription>选择店铺组，连同其店铺、刊登和订单迁移到另一家公司；刊登所对应的商品复制到目标公司。</DialogDescription>
        </DialogHeader>
        <ShopGroupList groups={groups} loading={source.isPending} sel={sel} testId="tenant-migrate" />
        <SelectionFields sel={sel} testId="tenant-migrate" />
        <div className="grid gap-3 sm:grid-cols-2">
          <TenantPicker
            id="tenant-migrate-dest"
            label="目标公司"
            value={dest}
            onChange={(t) => {
              setDest(t);
              setOwner(MAIN_ACCOUNT);
            }}
            excludeId={tenant?.id}
            testId="tenant-migrate-dest"
          />
          <div className="flex flex-col gap-1.5">
            <Label>迁移后归属</Label>
            <AllSelect
              value={owner}
              onChange={setOwner}
              label="迁移后归属"
              options={owners}
              className="w-full"
              testId="tenant-migrate-owner"
            />
          </div>
        </div>
        <div className="flex flex-col gap-2">
          <Option id="tenant-migrate-listings" checked={moveListings} onChange={setMoveListings}>
            同时迁移刊登记录（不勾选则从源公司删除这些刊登记录）
          </Option>
          <Option id="tenant-migrate-delete-products" checked={deleteProducts} onChange={setDeleteProducts}>
            从源公司删除随店铺迁移的商品（仍被其他店铺刊登的商品保留）
          </Option>
        </div>
        <DialogFooter>
          <Button variant="outline" disabled={migrate.isPending} onClick={close}>
            取消
          </Button>
          <Button
            disabled={!dest || !sel.ready || taken.length === 0}
            loading={migrate.isPending}
            onClick={() => void submit()}
            data-testid="tenant-migrate-submit"
          >
            迁移 {taken.length > 0 ? `${taken.length} 个店铺组` : ""}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
