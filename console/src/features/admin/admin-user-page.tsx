// /admin/user (spec §2, host only): the tenants with their main accounts, searched, filtered, sorted and paged on the
// server (GetTenants); opening a tenant account, remarks, unlocking, password resets and the main account's summary.
import { Plus } from "lucide-react";
import { useEffect, useState } from "react";
import type { TenantListItem } from "@shared/contract/hosted.ts";
import { Button } from "@shared/ui/button.tsx";
import { Card } from "@shared/ui/card.tsx";
import { confirm } from "@shared/ui/confirm.tsx";
import { DataTable, DataTableToolbar } from "@shared/ui/data-table.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@shared/ui/select.tsx";
import { toast } from "@shared/ui/toast.tsx";
import { RefreshButton } from "@shared/ui/refresh-button.tsx";
import type { PageProps } from "../../app/pages.tsx";
import { useTenants, useUnlockTenant, type TenantListQuery } from "./api.ts";
import { pagingOf, useListParams, type ActiveFilter } from "./list-params.ts";
import { SearchInput } from "@shared/ui/search-input.tsx";
import { tenantColumns, type TenantAction } from "./tenant-columns.tsx";
import { OpenTenantDialog, ResetTenantPasswordDialog, TenantRemarkDialog, TenantUserInfoDialog } from "./tenant-dialogs.tsx";

/** The sort options (values are GetTenants' Sorting); the first is the default. */
const SORTS = ["creationTime desc", "creationTime asc", "tenantName asc", "accountExpireTime asc", "balance desc"] as const;
const sortLabels: Record<(typeof SORTS)[number], string> = {
  "creationTime desc": "最新创建",
  "creationTime asc": "最早创建",
  "tenantName asc": "公司名称",
  "accountExpireTime asc": "即将到期",
  "balance desc": "余额最多",
};

const activeLabels: Record<ActiveFilter, string> = { all: "全部状态", active: "启用", inactive: "停用" };

type OpenDialog = { kind: "open" } | { kind: Exclude<TenantAction, "unlock">; tenant: TenantListItem } | null;

export default function AdminUserPage(_props: PageProps) {
  const [params, update] = useListParams(SORTS);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const unlock = useUnlockTenant();

  const query: TenantListQuery = {
    ...(params.search.trim() ? { Search: params.search.trim() } : {}),
    ...(params.active === "all" ? {} : { IsActive: params.active === "active" }),
    Sorting: params.sort,
    ...pagingOf(params),
  };
  const { data, isPending, isFetching, refetch } = useTenants(query);

  // A page past the end (the list shrank, or an old link) moves to the last page.
  const lastPage = Math.max(1, Math.ceil((data?.totalCount ?? 0) / params.pageSize));
  useEffect(() => {
    if (data && !isFetching && params.page > lastPage) update({ page: lastPage });
  }, [data, isFetching, params.page, lastPage, update]);

  async function onAction(action: TenantAction, tenant: TenantListItem) {
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

  const columns = tenantColumns((action, tenant) => void onAction(action, tenant));
  const tenantOf = (kind: Exclude<TenantAction, "unlock">) => (dialog && dialog.kind === kind ? dialog.tenant : null);
  const closeDialog = (open: boolean) => !open && setDialog(null);

  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="admin-user-page">
      <DataTableToolbar>
        <SearchInput
          value={params.search}
          onSearch={(search) => update({ search })}
          placeholder="公司名称、主账号、邮箱、手机号、备注"
          aria-label="搜索租户"
          className="sm:w-80"
          data-testid="admin-tenants-search"
        />
        <Select value={params.active} onValueChange={(v) => update({ active: v as ActiveFilter })}>
          <SelectTrigger className="w-32" aria-label="状态" data-testid="admin-tenants-active">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(Object.keys(activeLabels) as ActiveFilter[]).map((k) => (
              <SelectItem key={k} value={k} data-testid={`admin-tenants-active-${k}`}>
                {activeLabels[k]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={params.sort} onValueChange={(v) => update({ sort: v })}>
          <SelectTrigger className="w-32" aria-label="排序" data-testid="admin-tenants-sort">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {SORTS.map((s) => (
              <SelectItem key={s} value={s}>
                {sortLabels[s]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <div className="ml-auto flex gap-2">
          <RefreshButton fetching={isFetching} onRefresh={refetch} data-testid="admin-tenants-refresh" />
          <Button onClick={() => setDialog({ kind: "open" })} data-testid="admin-tenants-open">
            <Plus />
            开通租户
          </Button>
        </div>
      </DataTableToolbar>

      <DataTable
        aria-label="租户列表"
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(t) => t.id}
        loading={isPending || isFetching}
        emptyText={params.search || params.active !== "all" ? "没有符合条件的租户" : "暂无租户"}
        pagination={{
          page: params.page,
          pageSize: params.pageSize,
          total: data?.totalCount ?? 0,
          onChange: (page, pageSize) => update(pageSize === params.pageSize ? { page } : { page: 1, pageSize }),
        }}
      />

      <OpenTenantDialog open={dialog?.kind === "open"} onOpenChange={closeDialog} />
      <TenantRemarkDialog tenant={tenantOf("remark")} onOpenChange={closeDialog} />
      <ResetTenantPasswordDialog tenant={tenantOf("reset")} onOpenChange={closeDialog} />
      <TenantUserInfoDialog tenant={tenantOf("info")} onOpenChange={closeDialog} />
    </Card>
  );
}
