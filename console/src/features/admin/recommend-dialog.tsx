// 推荐 on /admin/user (issue 19 Agency): the host records which agency tenant recommended this tenant (the agency then
// earns its commission on the tenant's purchases, at the rate of the setting Agency.CommissionRate), changes it, or
// clears it. Commissions already paid stay where they are.
import { useEffect, useState } from "react";
import type { TenantListItem } from "#shared/contract/hosted.ts";
import { RecommendType } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Label } from "#shared/ui/label.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { AllSelect } from "../../components/list/all-select.tsx";
import { useRecommendInfo, useSetRecommend } from "./api/recommend.ts";
import { TenantPicker, type PickedTenant } from "./tenant-picker.tsx";

const typeOptions = [
  { value: String(RecommendType.Commission), label: "计佣金" },
  { value: String(RecommendType.Plain), label: "仅记录，不计佣金" },
];

export function RecommendDialog({ tenant, onOpenChange }: { tenant: TenantListItem | null; onOpenChange: (open: boolean) => void }) {
  const info = useRecommendInfo(tenant?.id ?? null);
  const save = useSetRecommend();
  const [agency, setAgency] = useState<PickedTenant | null>(null);
  const [type, setType] = useState(String(RecommendType.Commission));
  useEffect(() => {
    const r = info.data;
    setAgency(r?.recommandTenantId ? { id: r.recommandTenantId, name: r.recommendTenantName ?? "" } : null);
    setType(String(r?.type ?? RecommendType.Commission));
  }, [info.data, tenant]);

  const submit = (recommandTenantId: string | null) =>
    save.mutate(
      { tenantId: tenant!.id, recommandTenantId, type: Number(type) },
      {
        onSuccess: (r) => {
          toast.success(
            r.recommendTenantName ? `已设置：${r.tenantName} 由 ${r.recommendTenantName} 推荐` : `已清除 ${r.tenantName} 的推荐关系`,
          );
          onOpenChange(false);
        },
      },
    );

  return (
    <Dialog open={!!tenant} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md" data-testid="admin-recommend-dialog">
        <DialogHeader>
          <DialogTitle>推荐关系：{tenant?.tenantName}</DialogTitle>
          <DialogDescription>
            推荐公司（代理）在该公司每次购买时按系统配置 Agency.CommissionRate 的比例获得佣金，计入其余额。
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-3">
          <div className="text-sm" data-testid="admin-recommend-current">
            当前推荐公司：<span className="font-medium">{info.data?.recommendTenantName ?? "无"}</span>
          </div>
          <TenantPicker
            id="recommend-search"
            label="推荐公司"
            value={agency}
            onChange={setAgency}
            excludeId={tenant?.id}
            testId="admin-recommend"
          />
          <div className="flex flex-col gap-1.5">
            <Label>推荐类型</Label>
            <AllSelect
              value={type}
              onChange={setType}
              label="推荐类型"
              options={typeOptions}
              className="w-48"
              testId="admin-recommend-type"
            />
          </div>
        </div>
        <DialogFooter>
          {info.data?.recommandTenantId ? (
            <Button variant="outline" loading={save.isPending} onClick={() => submit(null)} data-testid="admin-recommend-clear">
              清除推荐
            </Button>
          ) : null}
          <Button disabled={!agency} loading={save.isPending} onClick={() => submit(agency!.id)} data-testid="admin-recommend-save">
            保存
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
