// /admin/system_config (spec §2, host only): first every setting the product reads (known-settings-table.tsx: meaning,
// kind, default, value, edited with its rule), then every stored setting, searched and paged on the server (GetList),
// with create, edit and delete (keys of one's own too). Currency rates are managed at /user/currency.
import { Plus } from "lucide-react";
import { useState } from "react";
import { z } from "zod";
import type { Setting } from "#shared/contract/settings.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable, PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { useDeleteSetting } from "./api/edit-settings.ts";
import { useSettings, type SettingListQuery } from "./api/get-settings.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState, useReplaceSearchParams } from "../../components/list/use-list-url-state.ts";
import { KnownSettingsTable } from "./known-settings-table.tsx";
import { settingColumns } from "./setting-columns.tsx";
import { SettingDialog } from "./setting-dialog.tsx";

/** ?q=&page=&size= */
const settingListSchema = z.object({ q: textParam(200), page: pageParam(), size: pageSizeParam(PAGE_SIZE_OPTIONS, 10) });

const filters: ListFilters = [
  {
    kind: "search",
    key: "q",
    label: "搜索配置",
    placeholder: "名称、键、值或描述",
    maxLength: 200,
    className: "sm:w-80",
    testId: "system-config-search",
  },
];

export default function SystemConfigPage(_props: PageProps) {
  const listState = useListUrlState(settingListSchema, useReplaceSearchParams());
  const { state, filtered } = listState;
  const [editing, setEditing] = useState<{ setting: Setting | null } | null>(null);
  const remove = useDeleteSetting();

  const query: SettingListQuery = {
    ...(state.q.trim() ? { Search: state.q.trim() } : {}),
    SkipCount: (state.page - 1) * state.size,
    MaxResultCount: state.size,
  };
  const settings = useSettings(query);
  const { data, isPending, isFetching, refetch } = settings;
  useKeepPageInRange(listState.state, settledTotal(settings), listState.setPage);

  async function onDelete(s: Setting) {
    const ok = await confirm({
      title: "删除配置",
      description: `确定删除配置「${s.name}」（${s.key}）吗？删除后读取该键的功能将使用默认值。`,
      tone: "danger",
      confirmText: "删除",
    });
    if (ok) remove.mutate(s.id, { onSuccess: () => toast.success("配置已删除") });
  }

  const columns = settingColumns({ onEdit: (setting) => setEditing({ setting }), onDelete: (setting) => void onDelete(setting) });

  return (
    <div className="flex flex-col gap-4" data-testid="system-config-page">
      <KnownSettingsTable />
      <Card className="flex flex-col gap-3 p-4" data-testid="system-config-all">
        <h3 className="font-medium">全部已保存的配置</h3>
        <ListToolbar filters={filters} state={state} onChange={listState.update}>
          <div className="ml-auto flex gap-2">
            <RefreshButton fetching={isFetching} onRefresh={refetch} data-testid="system-config-refresh" />
            <Button onClick={() => setEditing({ setting: null })} data-testid="system-config-create">
              <Plus />
              新增配置
            </Button>
          </div>
        </ListToolbar>

        <DataTable
          aria-label="系统配置"
          columns={columns}
          rows={data?.items ?? []}
          rowKey={(s) => s.id}
          loading={isPending || isFetching}
          emptyText={filtered ? "没有符合条件的配置" : "暂无配置"}
          pagination={{ page: state.page, pageSize: state.size, total: data?.totalCount ?? 0, onChange: listState.onPageChange }}
        />

        <SettingDialog open={!!editing} setting={editing?.setting ?? null} onOpenChange={(open) => !open && setEditing(null)} />
      </Card>
    </div>
  );
}
