// The site table's columns: the site, its tree version, what the last sync stored (categories, leaves with attributes,
// leaves with fees, Chinese names) with the sync times, and the row's 同步 button.
import type { CategorySiteStatus } from "#shared/contract/category.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";

export const siteLabel = (site: number) => {
  const s = MELI_SITES[site as MeliSiteNumber];
  return s ? `${s.name}（${s.code}）` : `站点 ${site}`;
};

/** "n / of" with the time the part was last read under it. */
function Part({ count, of, time, testId }: { count: number; of: number; time: string | null; testId: string }) {
  return (
    <div className="flex flex-col">
      <span className="tabular-nums" data-testid={testId}>
        {count}
        <span className="text-muted-foreground"> / {of}</span>
      </span>
      <span className="text-muted-foreground text-xs">{time ? formatDateTime(time) : "未同步"}</span>
    </div>
  );
}

export function siteColumns(onSync: (site: number) => void, syncing: boolean): DataTableColumn<CategorySiteStatus>[] {
  return [
    { id: "site", header: "站点", width: 130, cell: (s) => <span className="font-medium">{siteLabel(s.site)}</span> },
    {
      id: "state",
      header: "状态",
      width: 90,
      // By the tree's sync time: the Chinese names also rebuild a never-synced site's (empty) tree.
      cell: (s) =>
        s.syncTime ? (
          <Badge variant="success">已同步</Badge>
        ) : (
          <Badge variant="secondary" data-testid="site-unsynced">
            未同步
          </Badge>
        ),
    },
    {
      id: "categories",
      header: "类目（叶子 / 全部）",
      width: 170,
      cell: (s) => <Part count={s.leafCount} of={s.categoryCount} time={s.syncTime} testId="site-category-count" />,
    },
    {
      id: "attributes",
      header: "属性（已读叶子）",
      width: 170,
      cell: (s) => <Part count={s.attributeCount} of={s.leafCount} time={s.attrSyncTime} testId="site-attribute-count" />,
    },
    {
      id: "fees",
      header: "费用（已读叶子）",
      width: 170,
      cell: (s) => <Part count={s.feeCount} of={s.leafCount} time={s.feeSyncTime} testId="site-fee-count" />,
    },
    {
      id: "zh",
      header: "中文名",
      width: 110,
      cell: (s) => (
        <span className="tabular-nums">
          {s.zhCount}
          <span className="text-muted-foreground"> / {s.categoryCount}</span>
        </span>
      ),
    },
    {
      id: "version",
      header: "版本",
      cell: (s) => (
        <span className="text-muted-foreground font-mono text-xs" title={s.version ?? undefined}>
          {s.syncTime && s.version ? s.version.slice(0, 12) : "-"}
        </span>
      ),
    },
    {
      id: "actions",
      header: "操作",
      width: 90,
      cell: (s) => (
        <Button size="sm" variant="outline" disabled={syncing} onClick={() => onSync(s.site)} data-testid={`sync-site-${s.site}`}>
          同步
        </Button>
      ),
    },
  ];
}
