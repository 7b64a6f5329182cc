// 类目映射's columns: the source platform and category, the site, the Mercado Libre category (Chinese path and id), how
// often it was used, when it changed, and 修改 / 删除.
import type { CategoryMapping } from "#shared/contract/category-mapping.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { DateCell } from "../../components/list/date-cell.tsx";
import { platformLabel } from "../../lib/labels.ts";

export type CategoryMappingRowActions = { onEdit: (m: CategoryMapping) => void; onDelete: (m: CategoryMapping) => void };

const siteLabel = (site: number) => MELI_SITES[site as MeliSiteNumber]?.name ?? `站点 ${site}`;

export function categoryMappingColumns(a: CategoryMappingRowActions): DataTableColumn<CategoryMapping>[] {
  return [
    { id: "platform", header: "来源平台", width: 90, cell: (m) => platformLabel(m.platformType) },
    {
      id: "source",
      header: "来源类目",
      cell: (m) => (
        <span className="block truncate" title={m.sourcePath ? `${m.sourcePath}（${m.sourceKey}）` : m.sourceKey}>
          {m.sourcePath ?? <span className="font-mono text-xs">{m.sourceKey}</span>}
        </span>
      ),
    },
    { id: "site", header: "站点", width: 80, cell: (m) => siteLabel(m.site) },
    {
      id: "category",
      header: "美客多类目",
      cell: (m) => (
        <span className="block truncate" title={`${m.categoryName}（${m.cateId}）`} data-testid={`category-mappings-category-${m.id}`}>
          {m.fullZh ?? m.categoryName}
          <span className="text-muted-foreground ml-1.5 font-mono text-xs">{m.cateId}</span>
        </span>
      ),
    },
    { id: "uses", header: "使用次数", width: 80, align: "right", cell: (m) => <span className="tabular-nums">{m.useCount}</span> },
    { id: "time", header: "更新时间", width: 150, cell: (m) => <DateCell iso={m.lastModificationTime} className="text-foreground" /> },
    {
      id: "actions",
      header: "操作",
      width: 110,
      cell: (m) => (
        <div className="-ml-2 flex gap-0.5">
          <Button variant="link" size="sm" className="px-2" onClick={() => a.onEdit(m)} data-testid={`category-mappings-edit-${m.id}`}>
            修改
          </Button>
          <Button
            variant="link"
            size="sm"
            className="text-destructive px-2"
            onClick={() => a.onDelete(m)}
            data-testid={`category-mappings-delete-${m.id}`}
          >
            删除
          </Button>
        </div>
      ),
    },
  ];
}
