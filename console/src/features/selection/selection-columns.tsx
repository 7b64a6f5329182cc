// The selection library's columns: the listing (picture, title, item id, cross-border and status badges, the last read's
// error), site, seller, price (and the original one when it differs), the price and sold trends over the reads, when it
// was last read, and the actions (open on Mercado Libre, 推入采集).
import { ExternalLink, PackagePlus } from "lucide-react";
import type { CompetitorListing } from "#shared/contract/selection.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { meliItemStatusName } from "#shared/contract/names.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Thumb } from "../../components/list/thumb.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { Sparkline } from "./sparkline.tsx";

const siteName = (site: number | null) => (site ? (MELI_SITES[site as keyof typeof MELI_SITES]?.name ?? String(site)) : "-");
const money = (v: number | null, currency: string | null) => (v === null ? "-" : `${v.toLocaleString("zh-CN")} ${currency ?? ""}`.trim());

const trend = (l: CompetitorListing, pick: (p: CompetitorListing["history"][number]) => number | null, what: string) => {
  const values = l.history.map(pick);
  const known = values.filter((v): v is number => v !== null);
  const label = known.length ? `${what}：${known[0]} → ${known[known.length - 1]}（${known.length} 次读取）` : `${what}：暂无读取`;
  return <Sparkline values={values} label={label} />;
};

export const selectionColumns = (
  collect: (l: CompetitorListing) => void,
  collecting: string | null,
): DataTableColumn<CompetitorListing>[] => [
  {
    id: "listing",
    header: "刊登",
    cell: (l) => (
      <div className="flex min-w-0 items-center gap-2">
        <Thumb src={l.image} alt={l.title ?? l.sku} size={40} />
        <div className="min-w-0">
          <div className="truncate text-sm" title={l.title ?? undefined}>
            {l.title ?? <span className="text-muted-foreground">尚未读取</span>}
          </div>
          <div className="text-muted-foreground flex items-center gap-1 font-mono text-xs">
            {l.sku}
            {l.isCbt ? <Badge variant="outline">跨境</Badge> : null}
            {l.status && l.status !== "active" ? <Badge variant="warning">{meliItemStatusName(l.status)}</Badge> : null}
          </div>
          {l.error ? <div className="text-destructive text-xs">{l.error}</div> : null}
        </div>
      </div>
    ),
  },
  { id: "site", header: "站点", width: 90, cell: (l) => <span className="text-xs">{siteName(l.site)}</span> },
  {
    id: "seller",
    header: "卖家",
    width: 120,
    cell: (l) => (
      <span className="text-xs">
        {l.sellerId ?? "-"}
        {l.sellerCountry ? <span className="text-muted-foreground"> · {l.sellerCountry}</span> : null}
      </span>
    ),
  },
  {
    id: "price",
    header: "价格",
    width: 130,
    align: "right",
    cell: (l) => (
      <div className="text-xs tabular-nums">
        <div>{money(l.price, l.currencyId)}</div>
        {l.originalPrice !== null && l.originalPrice !== l.price ? (
          <div className="text-muted-foreground line-through">{money(l.originalPrice, l.currencyId)}</div>
        ) : null}
      </div>
    ),
  },
  { id: "priceTrend", header: "价格走势", width: 110, cell: (l) => trend(l, (p) => p.price, "价格") },
  { id: "sold", header: "销量", width: 70, align: "right", cell: (l) => <span className="text-xs tabular-nums">{l.sold ?? "-"}</span> },
  { id: "soldTrend", header: "销量走势", width: 110, cell: (l) => trend(l, (p) => p.sold, "销量") },
  {
    id: "read",
    header: "最近读取",
    width: 150,
    cell: (l) => <span className="text-xs tabular-nums">{l.lastReadTime ? formatDateTime(l.lastReadTime) : "等待读取"}</span>,
  },
  {
    id: "actions",
    header: "操作",
    width: 150,
    cell: (l) => (
      <div className="flex items-center gap-1">
        {l.permalink ? (
          <Button variant="ghost" size="sm" className="h-7 px-2" asChild>
            <a href={l.permalink} target="_blank" rel="noreferrer noopener" aria-label="打开刊登">
              <ExternalLink className="size-4" />
            </a>
          </Button>
        ) : null}
        <Button
          variant="ghost"
          size="sm"
          className="text-primary h-7 px-2"
          disabled={!l.permalink || collecting === l.id}
          onClick={() => collect(l)}
          data-testid={`selection-collect-${l.sku}`}
        >
          <PackagePlus className="size-4" />
          推入采集
        </Button>
      </div>
    ),
  },
];
