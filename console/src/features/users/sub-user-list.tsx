// The sub-account list: search (user name, email, phone, remark) and 全部/启用/禁用 filter, server paging kept in the URL,
// the enable switch (confirmed), and the row actions: edit, reset password, clear data (confirmed; the task is then
// followed until it has finished).
import { Plus, Search } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import type { SubUser } from "@shared/contract/users.ts";
import { Button } from "@shared/ui/button.tsx";
import { confirm } from "@shared/ui/confirm.tsx";
import { DataTable, DataTableToolbar } from "@shared/ui/data-table.tsx";
import { Input } from "@shared/ui/input.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@shared/ui/select.tsx";
import { toast } from "@shared/ui/toast.tsx";
import { RefreshButton } from "@shared/ui/refresh-button.tsx";
import { useClearSubUserInfo, useSetSubUserEnabled, useSubUsers } from "./api.ts";
import { ClearTaskList, type TrackedClearTask } from "./clear-tasks.tsx";
import { ResetPasswordDialog } from "./reset-password-dialog.tsx";
import { readListState, toSubUsersQuery, writeListState, type ActiveFilter, type SubUserListState } from "./search-params.ts";
import { subUserColumns } from "./sub-user-columns.tsx";
import { CreateSubUserDialog, EditSubUserDialog } from "./sub-user-dialog.tsx";

const SEARCH_DEBOUNCE_MS = 400;

const activeOptions: { value: ActiveFilter; label: string }[] = [
  { value: "all", label: "全部" },
  { value: "active", label: "启用" },
  { value: "inactive", label: "禁用" },
];

export type SubUserListProps = {
  clearTasks: TrackedClearTask[];
  onClearStarted: (task: TrackedClearTask) => void;
  onClearDismissed: (taskId: string) => void;
};

export function SubUserList({ clearTasks, onClearStarted, onClearDismissed }: SubUserListProps) {
  const [params, setParams] = useSearchParams();
  const state = readListState(params);
  const setState = (patch: Partial<SubUserListState>) =>
    setParams((prev) => writeListState(prev, { ...readListState(prev), ...patch }), { replace: true });

  // react-query compares keys by value, so a fresh object each render is the same query.
  const list = useSubUsers(toSubUsersQuery(state));
  const rows = list.data?.items ?? [];
  const total = list.data?.totalCount ?? 0;

  // The search box applies itself after a pause in typing (Enter applies at once); the URL is the source of truth.
  const [searchText, setSearchText] = useState(state.search);
  const applied = useRef(state.search);
  useEffect(() => {
    if (state.search === applied.current) return;
    applied.current = state.search;
    setSearchText(state.search);
  }, [state.search]);
  const applySearch = (text: string) => {
    if (text.trim() === applied.current.trim()) return;
    applied.current = text.trim();
    setState({ search: text, page: 1 });
  };
  useEffect(() => {
    const timer = setTimeout(() => applySearch(searchText), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  // A page past the end (after filtering, or an old link) moves to the last page.
  useEffect(() => {
    if (!list.data || list.isPlaceholderData) return;
    const lastPage = Math.max(1, Math.ceil(total / state.pageSize));
    if (state.page > lastPage) setState({ page: lastPage });
  }, [list.data, list.isPlaceholderData, total, state.page, state.pageSize]);

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
      <DataTableToolbar>
        <div className="relative w-full sm:w-72">
          <Search
            aria-hidden="true"
            className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
          />
          <Input
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") applySearch(searchText);
            }}
            placeholder="搜索用户名、邮箱、手机号、备注"
            aria-label="搜索子账号"
            maxLength={100}
            className="pl-8"
            data-testid="sub-users-search"
          />
        </div>
        <Select value={state.active} onValueChange={(v) => setState({ active: v as ActiveFilter, page: 1 })}>
          <SelectTrigger className="w-32" aria-label="状态" data-testid="sub-users-active-filter">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {activeOptions.map((o) => (
              <SelectItem key={o.value} value={o.value} data-testid={`sub-users-active-${o.value}`}>
                {o.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <RefreshButton withLabel fetching={list.isFetching} onRefresh={list.refetch} data-testid="sub-users-refresh" />
        <Button className="ml-auto" onClick={() => setCreating(true)} data-testid="sub-users-create">
          <Plus />
          新增子账号
        </Button>
      </DataTableToolbar>

      <ClearTaskList tasks={clearTasks} onDismiss={onClearDismissed} />

      <DataTable
        aria-label="子账号列表"
        columns={columns}
        rows={rows}
        rowKey={(u) => u.id}
        loading={list.isFetching && (rows.length === 0 || list.isPlaceholderData)}
        emptyText={state.search || state.active !== "all" ? "没有符合条件的子账号" : "还没有子账号，点击右上角“新增子账号”创建"}
        pagination={{
          page: state.page,
          pageSize: state.pageSize,
          total,
          onChange: (page, pageSize) => setState({ page, pageSize }),
        }}
        className="[&_table]:min-w-[1100px]"
      />

      <CreateSubUserDialog open={creating} onOpenChange={setCreating} />
      <EditSubUserDialog user={editing} onClose={() => setEditing(null)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </div>
  );
}
