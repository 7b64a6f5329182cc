// The settings the product reads (issue 28: 系统配置 was an empty table until the host typed a key): each with its
// name, key, meaning, kind, default and value now, from the server's registry (GetKnownSettings), edited in place.
import { useState } from "react";
import type { KnownSetting } from "#shared/contract/setting-registry.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Card } from "#shared/ui/card.tsx";
import { DataTable, type DataTableColumn } from "#shared/ui/data-table.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { DateCell } from "../../components/list/date-cell.tsx";
import { useKnownSettings } from "./api/known-settings.ts";
import { KnownSettingDialog } from "./known-setting-dialog.tsx";

/** The value as the table shows it: secrets masked, long values cut, unset as 默认. */
function ValueCell({ s }: { s: KnownSetting }) {
  if (s.value === null || !s.value.trim()) return <span className="text-muted-foreground">（默认）</span>;
  const shown = s.kind === "secret" ? "••••••" + s.value.slice(-4) : s.value;
  return (
    <span className="block max-w-72 truncate font-mono text-xs" title={s.kind === "secret" ? undefined : shown.slice(0, 300)}>
      {shown}
    </span>
  );
}

export function KnownSettingsTable() {
  const known = useKnownSettings();
  const [editing, setEditing] = useState<KnownSetting | null>(null);

  const columns: DataTableColumn<KnownSetting>[] = [
    {
      id: "name",
      header: "名称",
      width: 200,
      cell: (s) => (
        <div className="flex flex-col">
          <span className="font-medium">{s.name}</span>
          <span className="text-muted-foreground font-mono text-xs">{s.key}</span>
        </div>
      ),
    },
    { id: "description", header: "含义", cell: (s) => <span className="block min-w-64 text-xs leading-5">{s.description}</span> },
    { id: "kind", header: "类型", width: 90, cell: (s) => <Badge variant="secondary">{s.kindName}</Badge> },
    { id: "default", header: "默认值", width: 150, cell: (s) => <span className="text-xs">{s.defaultText}</span> },
    { id: "value", header: "当前值", width: 220, cell: (s) => <ValueCell s={s} /> },
    {
      id: "time",
      header: "更新时间",
      width: 150,
      cell: (s) => (s.lastModificationTime ? <DateCell iso={s.lastModificationTime} className="text-foreground" /> : <span>-</span>),
    },
    {
      id: "actions",
      header: "操作",
      width: 70,
      cell: (s) => (
        <Button variant="link" size="sm" className="px-0" onClick={() => setEditing(s)} data-testid={`known-setting-edit-${s.key}`}>
          编辑
        </Button>
      ),
    },
  ];

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
