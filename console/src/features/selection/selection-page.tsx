// /proudcts/selection (spec §2, host only): the selection library. The host pastes Mercado Libre listing URLs or item
// ids to watch (CreawlUrl); a job reads each every few hours, and the list shows each listing's competitor fields
// (spec §3: seller and country, price and original price, sold, cross-border or not) with sparklines of its price and
// sold count over the reads (filters and page in the URL); 推入采集 sends a listing's page to the collection centre
// (Collect CrawlProductByTool), from where it becomes a product like any collected one.
import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useSelection } from "./api/get-selection.ts";
import { useCollectListing, useWatchListings } from "./api/watch-listings.ts";
import { selectionColumns } from "./selection-columns.tsx";
import { selectionListSchema, siteOptions, toSelectionQuery } from "./selection-search-params.ts";
import { watchResultText } from "./watch-result.ts";

const filters: ListFilters = [
  {
    kind: "search",
    key: "sku",
    label: "按编号筛选",
    placeholder: "按编号或链接筛选",
    plain: true,
    maxLength: 500,
    className: "sm:w-64",
    testId: "selection-sku",
  },
  { kind: "facet", key: "site", label: "站点", all: "全部站点", options: siteOptions, className: "w-36", testId: "selection-site" },
];

/** The pasted text as entries: one per line (or separated by spaces or commas). */
const entriesOf = (text: string) =>
  text
    .split(/[\s,，]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export default function SelectionPage({ route }: PageProps) {
  const listState = useListUrlState(selectionListSchema, useTabSearchParams(route.path));
  const { state } = listState;
  const [text, setText] = useState("");
  const [collecting, setCollecting] = useState<string | null>(null);
  const list = useSelection(toSelectionQuery(state));
  useKeepPageInRange(state, settledTotal(list), listState.setPage);
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
  const table = listTable(list, listState);
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
        <ListToolbar filters={filters} state={state} onChange={listState.update}>
          <span className="text-muted-foreground ml-auto text-sm" data-testid="selection-total">
            共 <b className="text-foreground tabular-nums">{table.pagination.total.toLocaleString("zh-CN")}</b> 个刊登
          </span>
        </ListToolbar>
        <DataTable
          aria-label="选品库"
          columns={selectionColumns((l) => {
            setCollecting(l.id);
            collect.mutate(l);
          }, collecting)}
          {...table}
          rowKey={(l) => l.id}
          emptyText="选品库还是空的：粘贴刊登链接加入"
          view={{ density: "compact" }}
        />
      </CardContent>
    </Card>
  );
}
