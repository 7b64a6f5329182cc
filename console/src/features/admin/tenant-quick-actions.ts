// The 更多 actions that need no form, only a confirmation: purge deleted products and clear the call log (tasks the
// page follows), clear the caches and rebuild the indexes (answered at once: a toast, the index report).
import type { CreateTenantMongoIndexResult } from "#shared/contract/tenant-admin.ts";
import type { TenantListItem } from "#shared/contract/hosted.ts";
import { TaskType } from "#shared/contract/enums.ts";
import { confirm } from "#shared/ui/confirm.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useClearMeliStat, useCreateTenantMongoIndex, useRemoveAllDelProduct, useRemoveTenantCache } from "./api/tenant-maintenance.ts";
import type { FollowedTask } from "./tenant-task.tsx";

const QUICK_ACTIONS = ["purge", "clearStat", "clearCache", "reindex"] as const;
export type QuickAction = (typeof QUICK_ACTIONS)[number];
export const isQuickAction = (a: string): a is QuickAction => (QUICK_ACTIONS as readonly string[]).includes(a);

export type IndexReport = { tenantName: string; result: CreateTenantMongoIndexResult };

export function useQuickActions(onTask: (task: FollowedTask) => void, onIndexReport: (report: IndexReport) => void) {
  const purge = useRemoveAllDelProduct();
  const clearStat = useClearMeliStat();
  const clearCache = useRemoveTenantCache();
  const reindex = useCreateTenantMongoIndex();
  const count = (n: number) => n.toLocaleString("zh-CN");

  return async function run(action: QuickAction, tenant: TenantListItem) {
    const name = tenant.tenantName;
    switch (action) {
      case "purge":
        if (
          await confirm({
            title: "彻底删除已删除商品",
            description: `公司「${name}」回收的已删除商品将被永久删除，之后无法再恢复。确定继续吗？`,
            tone: "danger",
            confirmText: "彻底删除",
          })
        )
          purge.mutate(tenant.id, {
            onSuccess: (r) =>
              onTask({
                taskId: r.taskId,
                taskType: TaskType.PurgeDeletedProducts,
                title: "彻底删除已删除商品",
                description: `公司 ${name}，共 ${count(r.total)} 个商品`,
              }),
          });
        return;
      case "clearStat":
        if (
          await confirm({
            title: "清除美客多统计",
            description: `将删除公司「${name}」全部的美客多接口调用记录，确定继续吗？`,
            tone: "danger",
            confirmText: "清除",
          })
        )
          clearStat.mutate(tenant.id, {
            onSuccess: (r) =>
              onTask({
                taskId: r.taskId,
                taskType: TaskType.Maintenance,
                title: "清除美客多统计",
                description: `公司 ${name}，共 ${count(r.total)} 条调用记录`,
              }),
          });
        return;
      case "clearCache":
        if (
          await confirm({
            title: "清除缓存",
            description: `将清除公司「${name}」的店铺访问令牌、美客多费用、图片尺寸等缓存，下次使用时重新获取。确定继续吗？`,
            tone: "warning",
            confirmText: "清除",
          })
        )
          clearCache.mutate(tenant.id, {
            onSuccess: (r) =>
              toast.success(`已清除公司 ${name} 的缓存：${r.cleared.map((c) => `${c.name} ${count(c.count)} 项`).join("，") || "无缓存"}`),
          });
        return;
      case "reindex":
        if (
          await confirm({
            title: "重建索引",
            description: `将检查数据表索引（重建缺失或失效的）、更新统计信息并核对公司「${name}」的计数，数据量大时需要一些时间。确定继续吗？`,
            tone: "info",
            confirmText: "开始",
          })
        ) {
          const started = toast.loading("正在重建索引...");
          reindex.mutate(tenant.id, {
            onSuccess: (result) => onIndexReport({ tenantName: name, result }),
            onSettled: () => toast.dismiss(started),
          });
        }
        return;
    }
  };
}
