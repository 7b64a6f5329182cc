// 系统配置's columns: the settings the product reads (name and key, meaning, kind, default, value now with secrets
// masked, when changed, 编辑) and every stored setting (name, key, value, description, when changed, 编辑 / 删除).
import type { KnownSetting } from "#shared/contract/setting-registry.ts";
import type { Setting } from "#shared/contract/settings.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { DateCell } from "../../components/list/date-cell.tsx";

export type SettingRowActions = { onEdit: (s: Setting) => void; onDelete: (s: Setting) => void };

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

/** The settings the product reads, each edited with its rule. */
export function knownSettingColumns(onEdit: (s: KnownSetting) => void): DataTableColumn<KnownSetting>[] {
  return [
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
        <Button variant="link" size="sm" className="px-0" onClick={() => onEdit(s)} data-testid={`known-setting-edit-${s.key}`}>
          编辑
        </Button>
      ),
    },
  ];
}

/** A long value (the FAQ's JSON) is cut for the cell's tooltip. */
const preview = (value: string) => (value.length > 300 ? `${value.slice(0, 300)}…` : value);

/** Every stored setting. */
export function settingColumns(a: SettingRowActions): DataTableColumn<Setting>[] {
  return [
    {
      id: "name",
      header: "名称",
      width: 140,
      cell: (s) => (
        <span className="block truncate font-medium" title={s.name}>
          {s.name}
        </span>
      ),
    },
    {
      id: "key",
      header: "键",
      width: 200,
      cell: (s) => (
        <span className="block truncate font-mono text-xs" title={s.key}>
          {s.key}
        </span>
      ),
    },
    {
      id: "value",
      header: "值",
      cell: (s) =>
        s.value ? (
          <span className="block max-w-64 truncate font-mono text-xs" title={preview(s.value)}>
            {s.value}
          </span>
        ) : (
          <span className="text-muted-foreground">（空）</span>
        ),
    },
    {
      id: "description",
      header: "描述",
      width: 200,
      cell: (s) =>
        s.description ? (
          <span className="block max-w-40 truncate" title={s.description}>
            {s.description}
          </span>
        ) : (
          <span className="text-muted-foreground">-</span>
        ),
    },
    {
      id: "time",
      header: "更新时间",
      width: 150,
      cell: (s) => <DateCell iso={s.lastModificationTime ?? s.creationTime} className="text-foreground" />,
    },
    {
      id: "actions",
      header: "操作",
      width: 120,
      cell: (s) => (
        <div className="-ml-2 flex gap-0.5">
          <Button variant="link" size="sm" className="px-2" onClick={() => a.onEdit(s)} data-testid={`system-config-edit-${s.id}`}>
            编辑
          </Button>
          <Button
            variant="link"
            size="sm"
            className="text-destructive px-2"
            onClick={() => a.onDelete(s)}
            data-testid={`system-config-delete-${s.id}`}
          >
            删除
          </Button>
        </div>
      ),
    },
  ];
}
