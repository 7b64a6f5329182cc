// The settings the product reads (issue 28: 系统配置 was an empty table until the host typed a key): each with its
// name, key, meaning, kind, default and value now, from the server's registry (GetKnownSettings), edited in place.
import { useState } from "react";
import type { KnownSetting } from "#shared/contract/setting-registry.ts";
import { Card } from "#shared/ui/card.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { useKnownSettings } from "./api/known-settings.ts";
import { KnownSettingDialog } from "./known-setting-dialog.tsx";
import { knownSettingColumns } from "./setting-columns.tsx";

export function KnownSettingsTable() {
  const known = useKnownSettings();
  const [editing, setEditing] = useState<KnownSetting | null>(null);

  const columns = knownSettingColumns(setEditing);

  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="known-settings">
      <div className="flex items-center justify-between gap-2">
        <div>
          <h3 className="font-medium">系统读取的配置</h3>
          <p className="text-muted-foreground text-xs">系统运行时读取的全部配置项；未设置的使用默认值。</p>
        </div>
        <RefreshButton fetching={known.isFetching} onRefresh={() => void known.refetch()} data-testid="known-settings-refresh" />
      </div>
      <DataTable
        aria-label="系统读取的配置"
        columns={columns}
        rows={known.data ?? []}
        rowKey={(s) => s.key}
        loading={known.isPending}
        emptyText="暂无配置项"
        className="[&_table]:min-w-[1000px]"
      />
      <KnownSettingDialog setting={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
