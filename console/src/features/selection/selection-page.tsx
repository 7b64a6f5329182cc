// /proudcts/selection (spec §2, host only): the selection library. The host pastes Mercado Libre listing URLs or item
// ids to watch (CreawlUrl); a job reads each every few hours, and the list shows each listing's competitor fields
// (spec §3: seller and country, price and original price, sold, cross-border or not) with sparklines of its price and
// sold count over the reads; 推入采集 sends a listing's page to the collection centre (Collect CrawlProductByTool), from
// where it becomes a product like any collected one.
import { ExternalLink, PackagePlus, Plus } from "lucide-react";
import { useState } from "react";
import type { CompetitorListing } from "#shared/contract/selection.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable, type DataTableColumn } from "#shared/ui/data-table.tsx";
import { Input } from "#shared/ui/input.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { Thumb } from "../../components/list/thumb.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { useSelection } from "./api/get-selection.ts";
import { useCollectListing, useWatchListings } from "./api/watch-listings.ts";
import { Sparkline } from "./sparkline.tsx";
import { meliItemStatusName } from "#shared/contract/names.ts";
import { watchResultText } from "./watch-result.ts";

const PAGE_SIZE = 50;
const ALL_SITES = "all";

const siteName = (site: number | null) => (site ? (MELI_SITES[site as keyof typeof MELI_SITES]?.name ?? String(site)) : "-");
const money = (v: number | null, currency: string | null) => (v === null ? "-" : `${v.toLocaleString("zh-CN")} ${currency ?? ""}`.trim());

/** The pasted text as entries: one per line (or separated by spaces or commas). */
export const entriesOf = (text: string) =>
  text
    .split(/[\s,，]+/)
    .map((s) => s.trim())
    .filter(Boolean);

const trend = (l: CompetitorListing, pick: (p: CompetitorListing["history"][number]) => number | null, what: string) => {
  const values = l.history.map(pick);
  const known = values.filter((v): v is number => v !== null);
  const label = known.length ? `${what}：${known[0]} → ${known[known.length - 1]}（${known.length} 次读取）` : `${what}：暂无读取`;
  return <Sparkline values={values} label={label} />;
};

const columns = (collect: (l: CompetitorListing) => void, collecting: string | null): DataTableColumn<CompetitorListing>[] => [
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

export default function SelectionPage({ route }: PageProps) {
  const [text, setText] = useState("");
  const [sku, setSku] = useState("");
  const [site, setSite] = useState(ALL_SITES);
  const [page, setPage] = useState(1);
  const [collecting, setCollecting] = useState<string | null>(null);
  const list = useSelection({
    ...(sku.trim() ? { Skus: [sku.trim()] } : {}),
    ...(site !== ALL_SITES ? { Site: Number(site) } : {}),
    Sorting: "creationTime desc",
    SkipCount: (page - 1) * PAGE_SIZE,
    MaxResultCount: PAGE_SIZE,
  });
  const watch = useWatchListings({
    mutationConfig: {
      onSuccess: (r) => {
        setText("");
        toast[r.invalid.length ? "warning" : "success"](watchResultText(r));
      },
    },
  });
  const collect = useCollectListing({
    mutationConfig: {
      onSuccess: (r) => toast.success(r.message || "已加入采集任务，可在采集中心查看"),
      onSettled: () => setCollecting(null),
    },
  });
  const rows = list.data?.items ?? [];
  const total = list.data?.totalCount ?? 0;
  const entries = entriesOf(text);

  return (
    <Card data-testid="selection-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            关注美客多上的竞品刊登：粘贴刊登链接或编号（如
            MLM123456789），系统定时读取价格和销量并记录走势；看中的刊登可推入采集中心，作为新产品采集。
          </CardDescription>
        </div>
        <RefreshButton fetching={list.isFetching} onRefresh={list.refetch} data-testid="selection-refresh" />
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <div className="flex flex-wrap items-end gap-2">
          <Textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="每行一个刊登链接或编号"
            aria-label="刊登链接或编号"
            className="min-h-16 flex-1 basis-80"
            data-testid="selection-urls"
          />
          <Button disabled={!entries.length || watch.isPending} onClick={() => watch.mutate(entries)} data-testid="selection-add">
            <Plus className="size-4" />
            加入选品库{entries.length ? `（${entries.length}）` : ""}
          </Button>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Input
            value={sku}
            onChange={(e) => {
              setSku(e.target.value);
              setPage(1);
            }}
            placeholder="按编号或链接筛选"
            aria-label="按编号筛选"
            className="w-64"
            data-testid="selection-sku"
          />
          <Select
            value={site}
            onValueChange={(v) => {
              setSite(v);
              setPage(1);
            }}
          >
            <SelectTrigger aria-label="站点" className="w-36" data-testid="selection-site">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_SITES}>全部站点</SelectItem>
              {Object.entries(MELI_SITES).map(([n, s]) => (
                <SelectItem key={n} value={n}>
                  {s.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <span className="text-muted-foreground ml-auto text-sm" data-testid="selection-total">
            共 <b className="text-foreground tabular-nums">{total.toLocaleString("zh-CN")}</b> 个刊登
          </span>
        </div>
        <DataTable
          aria-label="选品库"
          columns={columns((l) => {
            setCollecting(l.id);
            collect.mutate(l);
          }, collecting)}
          rows={rows}
          rowKey={(l) => l.id}
          loading={list.isFetching && (rows.length === 0 || list.isPlaceholderData)}
          emptyText="选品库还是空的：粘贴刊登链接加入"
          view={{ density: "compact" }}
          pagination={{ page, pageSize: PAGE_SIZE, total, onChange: (p) => setPage(p) }}
        />
      </CardContent>
    </Card>
  );
}
