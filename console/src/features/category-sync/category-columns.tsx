// The category table's columns: the id, the Chinese name (from AckCategory, or set by hand) beside the site's own
// Spanish/Portuguese/English name with their paths, the sale fees, the reference name and whether the picker offers it
// (停用/启用 changes it with its subtree).
import type { MeliCategory } from "#shared/contract/category.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";

const fee = (v: number | null) => (v === null ? "-" : `${v}%`);

export function categoryColumns(
  onEditRefer: (category: MeliCategory) => void,
  onToggle: (category: MeliCategory) => void,
): DataTableColumn<MeliCategory>[] {
  return [
    { id: "cateId", header: "类目ID", width: 120, cell: (c) => <span className="font-mono text-xs">{c.cateId}</span> },
    {
      id: "zh",
      header: "中文名",
      cell: (c) => (
        <div className="flex min-w-0 flex-col" data-testid="category-zh">
          <span className={c.zh ? "font-medium" : "text-muted-foreground"}>{c.zh || "未翻译"}</span>
          {c.fullZh ? <span className="text-muted-foreground line-clamp-2 text-xs">{c.fullZh}</span> : null}
        </div>
      ),
    },
    {
      id: "name",
      header: "站点名称",
      cell: (c) => (
        <div className="flex min-w-0 flex-col" data-testid="category-name">
          <span>{c.name}</span>
          <span className="text-muted-foreground line-clamp-2 text-xs" title={c.fullName}>
            {c.fullName}
          </span>
        </div>
      ),
    },
    { id: "leaf", header: "叶子", width: 60, cell: (c) => (c.isLeaf ? "是" : "否") },
    {
      id: "fees",
      header: "费用（经典 / 高级）",
      width: 140,
      cell: (c) => (c.isLeaf ? <span className="tabular-nums">{`${fee(c.classicFee)} / ${fee(c.premiumFee)}`}</span> : "-"),
    },
    { id: "alias", header: "参考名", width: 140, cell: (c) => c.alias ?? <span className="text-muted-foreground">-</span> },
    {
      id: "enable",
      header: "状态",
      width: 80,
      cell: (c) =>
        c.enable && c.meliStatus === "enabled" ? <Badge variant="success">启用</Badge> : <Badge variant="secondary">停用</Badge>,
    },
    {
      id: "actions",
      header: "操作",
      width: 150,
      cell: (c) => (
        <div className="flex gap-1">
          <Button size="sm" variant="ghost" onClick={() => onEditRefer(c)} data-testid="category-edit-refer">
            参考名
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onToggle(c)} data-testid="category-toggle">
            {c.enable ? "停用" : "启用"}
          </Button>
        </div>
      ),
    },
  ];
}
