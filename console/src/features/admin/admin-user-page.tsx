// /admin/user (spec §2, host only): the host's tenants screen. The tenants with their main accounts, searched, filtered,
// sorted and paged on the server (GetTenants); opening a tenant account, remarks, unlocking, password resets and the
// main account's summary; and (issue 31) each tenant's statistics drawer and the 更多 menu: moving shop groups, copying
// to another tenant, recovering or purging deleted products, caches, indexes, clearing and the tenant's own database,
// the long ones followed live;
// 平台维护 over all tenants: the Mercado Libre calls per tenant (GetStatLogStatics) and the shared rate state (RemoveDist).
import { ChevronDown, Plus } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { z } from "zod";
import type { TenantListItem } from "#shared/contract/hosted.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable, PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "#shared/ui/dropdown-menu.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { useTenants, type TenantListQuery } from "./api/get-tenants.ts";
import { useUnlockTenant } from "./api/manage-tenants.ts";
import { useRemoveDist } from "./api/tenant-maintenance.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { choiceParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState, useReplaceSearchParams } from "../../components/list/use-list-url-state.ts";
import { tenantColumns, type TenantAction } from "./tenant-columns.tsx";
import { OpenTenantDialog, ResetTenantPasswordDialog, TenantRemarkDialog, TenantUserInfoDialog } from "./tenant-dialogs.tsx";
import { RecommendDialog } from "./recommend-dialog.tsx";
import { ClearTenantDialog, IndexReportDialog, RecoverDeletedDialog } from "./tenant-maintenance-dialogs.tsx";
import { TenantDatabaseDialog } from "./tenant-database-dialog.tsx";
import { isQuickAction, useQuickActions, type IndexReport, type QuickAction } from "./tenant-quick-actions.ts";
import { TenantTaskDialog, type FollowedTask } from "./tenant-task.tsx";
import { CopyToTenantDialog, MigrateShopsDialog } from "./tenant-transfer-dialogs.tsx";
import type { CopyKind } from "./api/tenant-transfer.ts";
import { RemoveShopsDialog } from "./remove-shops-dialog.tsx";
import { StatLogDialog } from "./stat-log-dialog.tsx";
import { TransferProductsDialog } from "./transfer-products-dialog.tsx";

/** The drawer brings its chart library: loaded when a tenant's statistics are first opened. */
const TenantStatisticsDrawer = lazy(() => import("./tenant-statistics-drawer.tsx"));

const copyKinds: Partial<Record<TenantAction, CopyKind>> = {
  copyProducts: "products",
  copyCollects: "collects",
  copyGroups: "groups",
  copyWords: "words",
};

/** The sort options (values are GetTenants' Sorting); the first is the default. */
const SORTS = ["creationTime desc", "creationTime asc", "tenantName asc", "accountExpireTime asc", "balance desc"] as const;
const sortLabels: Record<(typeof SORTS)[number], string> = {
  "creationTime desc": "最新创建",
  "creationTime asc": "最早创建",
  "tenantName asc": "公司名称",
  "accountExpireTime asc": "即将到期",
  "balance desc": "余额最多",
};

/** ?q=&active=&sort=&page=&size= */
const tenantListSchema = z.object({
  q: textParam(200),
  active: choiceParam(["active", "inactive"]),
  sort: choiceParam(SORTS, SORTS[0]),
  page: pageParam(),
  size: pageSizeParam(PAGE_SIZE_OPTIONS, 10),
});

const filters: ListFilters = [
  {
    kind: "search",
    key: "q",
    label: "搜索租户",
    placeholder: "公司名称、主账号、邮箱、手机号、备注",
    maxLength: 200,
    className: "sm:w-80",
    testId: "admin-tenants-search",
  },
  {
    kind: "facet",
    key: "active",
    label: "状态",
    options: [
      { value: "all", label: "全部状态" },
      { value: "active", label: "启用" },
      { value: "inactive", label: "停用" },
    ],
    className: "w-32",
    testId: "admin-tenants-active",
  },
  {
    kind: "facet",
    key: "sort",
    label: "排序",
    options: SORTS.map((s) => ({ value: s, label: sortLabels[s] })),
    className: "w-32",
    testId: "admin-tenants-sort",
  },
];

type DialogAction = Exclude<TenantAction, "unlock" | QuickAction>;
type OpenDialog = { kind: "open" } | { kind: "statLog" } | { kind: DialogAction; tenant: TenantListItem } | null;

export default function AdminUserPage(_props: PageProps) {
  const listState = useListUrlState(tenantListSchema, useReplaceSearchParams());
  const { state, filtered } = listState;
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const unlock = useUnlockTenant();
  const [followed, setFollowed] = useState<FollowedTask | null>(null);
  const [indexReport, setIndexReport] = useState<IndexReport | null>(null);
  const runQuick = useQuickActions(setFollowed, setIndexReport);
  const removeDist = useRemoveDist();

  const query: TenantListQuery = {
    ...(state.q.trim() ? { Search: state.q.trim() } : {}),
    ...(state.active === "all" ? {} : { IsActive: state.active === "active" }),
    Sorting: state.sort,
    SkipCount: (state.page - 1) * state.size,
    MaxResultCount: state.size,
  };
  const tenants = useTenants(query);
  const { data, isPending, isFetching, refetch } = tenants;
  useKeepPageInRange(listState.state, settledTotal(tenants), listState.setPage);

  async function onAction(action: TenantAction, tenant: TenantListItem) {
    if (isQuickAction(action)) return runQuick(action, tenant);
    if (action !== "unlock") {
      setDialog({ kind: action, tenant });
      return;
    }
    const ok = await confirm({
      title: "解锁登录",
      description: `将清除公司「${tenant.tenantName}」所有账号的登录锁定和失败次数，确定继续吗？`,
      tone: "warning",
      confirmText: "解锁",
    });
    if (ok) unlock.mutate(tenant.id, { onSuccess: () => toast.success(`已解锁公司 ${tenant.tenantName} 的全部账号`) });
  }

  async function tidyRateState() {
    const ok = await confirm({
      title: "清理限流状态",
      description: "将删除各公司没有限制中调用的限流记录，并释放已过期的令牌刷新锁。正在限流或排队的调用不受影响。确定继续吗？",
      tone: "info",
      confirmText: "清理",
    });
    if (ok)
      removeDist.mutate(undefined, {
        onSuccess: (r) =>
          toast.success(
            `已清理 ${r.removedBuckets} 条限流记录（保留限制中的 ${r.keptBuckets} 条），释放 ${r.clearedLeases} 个过期的令牌刷新锁`,
          ),
      });
  }

  const columns = tenantColumns((action, tenant) => void onAction(action, tenant));
  const tenantOf = (kind: DialogAction) => (dialog && dialog.kind === kind ? dialog.tenant : null);
  const copyKind = dialog && "tenant" in dialog ? (copyKinds[dialog.kind] ?? null) : null;

  const closeDialog = (open: boolean) => !open && setDialog(null);
  const dialogProps = { onOpenChange: closeDialog, onTask: setFollowed };

  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="admin-user-page">
      <ListToolbar filters={filters} state={state} onChange={listState.update}>
        <div className="ml-auto flex gap-2">
          <RefreshButton fetching={isFetching} onRefresh={refetch} data-testid="admin-tenants-refresh" />
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline" data-testid="admin-tenants-platform">
                平台维护
                <ChevronDown className="size-3.5" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => setDialog({ kind: "statLog" })} data-testid="admin-tenants-stat-log">
                接口调用统计
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => void tidyRateState()} data-testid="admin-tenants-remove-dist">
                清理限流状态
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
          <Button onClick={() => setDialog({ kind: "open" })} data-testid="admin-tenants-open">
            <Plus />
            开通租户
          </Button>
        </div>
      </ListToolbar>

      <DataTable
        aria-label="租户列表"
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(t) => t.id}
        loading={isPending || isFetching}
        emptyText={filtered ? "没有符合条件的租户" : "暂无租户"}
        pagination={{ page: state.page, pageSize: state.size, total: data?.totalCount ?? 0, onChange: listState.onPageChange }}
      />

      <OpenTenantDialog open={dialog?.kind === "open"} onOpenChange={closeDialog} />
      <TenantRemarkDialog tenant={tenantOf("remark")} onOpenChange={closeDialog} />
      <ResetTenantPasswordDialog tenant={tenantOf("reset")} onOpenChange={closeDialog} />
      <TenantUserInfoDialog tenant={tenantOf("info")} onOpenChange={closeDialog} />
      <RecommendDialog tenant={tenantOf("recommend")} onOpenChange={closeDialog} />
      <MigrateShopsDialog tenant={tenantOf("migrate")} {...dialogProps} />
      <CopyToTenantDialog tenant={copyKind && dialog && "tenant" in dialog ? dialog.tenant : null} kind={copyKind} {...dialogProps} />
      <TransferProductsDialog tenant={tenantOf("transferProducts")} {...dialogProps} />
      <RemoveShopsDialog tenant={tenantOf("removeShops")} {...dialogProps} />
      <StatLogDialog open={dialog?.kind === "statLog"} onOpenChange={closeDialog} />
      <RecoverDeletedDialog tenant={tenantOf("recover")} {...dialogProps} />
      <ClearTenantDialog tenant={tenantOf("clear")} {...dialogProps} />
      <TenantDatabaseDialog tenant={tenantOf("database")} {...dialogProps} />
      <IndexReportDialog report={indexReport} onClose={() => setIndexReport(null)} />
      {followed ? <TenantTaskDialog key={followed.taskId} task={followed} onClose={() => setFollowed(null)} /> : null}
      {dialog?.kind === "stats" ? (
        <Suspense fallback={null}>
          <TenantStatisticsDrawer tenant={dialog.tenant} onOpenChange={closeDialog} />
        </Suspense>
      ) : null}
    </Card>
  );
}
