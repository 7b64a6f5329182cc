// The sub-account list: search (user name, email, phone, remark) and 全部/启用/禁用 filter, server paging kept in the URL,
// the enable switch (confirmed), and the row actions: edit, reset password, clear data (confirmed; the task is then
// followed until it has finished).
import { Plus } from "lucide-react";
import { useState } from "react";
import type { SubUser } from "#shared/contract/users.ts";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState, useReplaceSearchParams } from "../../components/list/use-list-url-state.ts";
import { useClearSubUserInfo } from "./api/clear-sub-user-info.ts";
import { useSetSubUserEnabled } from "./api/edit-sub-users.ts";
import { useSubUsers } from "./api/get-sub-users.ts";
import { ClearTaskList, type TrackedClearTask } from "./clear-tasks.tsx";
import { ResetPasswordDialog } from "./reset-password-dialog.tsx";
import { subUserListSchema, toSubUsersQuery } from "./search-params.ts";
import { subUserColumns } from "./sub-user-columns.tsx";
import { CreateSubUserDialog, EditSubUserDialog } from "./sub-user-dialog.tsx";

const filters: ListFilters = [
  {
    kind: "search",
    key: "q",
    label: "搜索子账号",
    placeholder: "搜索用户名、邮箱、手机号、备注",
    maxLength: 100,
    className: "sm:w-72",
    testId: "sub-users-search",
  },
  {
    kind: "facet",
    key: "active",
    label: "状态",
    options: [
      { value: "all", label: "全部" },
      { value: "active", label: "启用" },
      { value: "inactive", label: "禁用" },
    ],
    className: "w-32",
    testId: "sub-users-active-filter",
    itemTestId: "sub-users-active",
  },
];

export type SubUserListProps = {
  clearTasks: TrackedClearTask[];
  onClearStarted: (task: TrackedClearTask) => void;
  onClearDismissed: (taskId: string) => void;
};

export function SubUserList({ clearTasks, onClearStarted, onClearDismissed }: SubUserListProps) {
  const listState = useListUrlState(subUserListSchema, useReplaceSearchParams());
  const { state, filtered } = listState;

  // react-query compares keys by value, so a fresh object each render is the same query.
  const list = useSubUsers(toSubUsersQuery(state));
  const table = listTable(list, listState);
  useKeepPageInRange(listState.state, settledTotal(list), listState.setPage);

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<SubUser | null>(null);
  const [resetting, setResetting] = useState<SubUser | null>(null);
  const [pendingIds, setPendingIds] = useState<ReadonlySet<string>>(new Set());
  const setEnabled = useSetSubUserEnabled();
  const clear = useClearSubUserInfo();

  async function onToggleActive(u: SubUser, enable: boolean) {
    const ok = await confirm(
      enable
        ? { title: `确认启用子账号 ${u.userName} 吗？`, description: "启用后该子账号可以正常登录使用。", tone: "info", confirmText: "启用" }
        : {
            title: `确认禁用子账号 ${u.userName} 吗？`,
            description: "禁用后该子账号会立即退出登录，且无法再登录，直到重新启用。",
            tone: "warning",
            confirmText: "禁用",
          },
    );
    if (!ok) return;
    setPendingIds((s) => new Set(s).add(u.id));
    setEnabled.mutate(
      { userId: u.id, enable },
      {
        onSuccess: () => toast.success(enable ? `子账号 ${u.userName} 已启用` : `子账号 ${u.userName} 已禁用`),
        onSettled: () =>
          setPendingIds((s) => {
            const next = new Set(s);
            next.delete(u.id);
            return next;
          }),
      },
    );
  }

  async function onClear(u: SubUser) {
    const ok = await confirm({
      title: `确认清除子账号 ${u.userName} 的数据吗？`,
      description: "将清除该子账号的业务数据并使其退出登录，清除后无法恢复。账号本身会保留。",
      tone: "danger",
      confirmText: "清除数据",
    });
    if (!ok) return;
    clear.mutate(u.id, {
      onSuccess: ({ taskId }) => {
        onClearStarted({ taskId, userName: u.userName });
        toast.info(`已提交清除 ${u.userName} 数据的任务`);
      },
    });
  }

  const columns = subUserColumns({
    onToggleActive: (u, enable) => void onToggleActive(u, enable),
    onEdit: setEditing,
    onResetPassword: setResetting,
    onClear: (u) => void onClear(u),
    pendingIds,
  });

  return (
    <div className="flex flex-col gap-4">
      <ListToolbar filters={filters} state={state} onChange={listState.update}>
        <RefreshButton withLabel fetching={list.isFetching} onRefresh={list.refetch} data-testid="sub-users-refresh" />
        <Button className="ml-auto" onClick={() => setCreating(true)} data-testid="sub-users-create">
          <Plus />
          新增子账号
        </Button>
      </ListToolbar>

      <ClearTaskList tasks={clearTasks} onDismiss={onClearDismissed} />

      <DataTable
        aria-label="子账号列表"
        columns={columns}
        {...table}
        rowKey={(u) => u.id}
        emptyText={filtered ? "没有符合条件的子账号" : "还没有子账号，点击右上角“新增子账号”创建"}
        className="[&_table]:min-w-[1100px]"
      />

      <CreateSubUserDialog open={creating} onOpenChange={setCreating} />
      <EditSubUserDialog user={editing} onClose={() => setEditing(null)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </div>
  );
}
