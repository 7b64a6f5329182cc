// /proudcts/publish-records/v2 (spec §2, issues 15 and 16): two views. 在线刊登 (the default) is the listing centre
// (listing-centre.tsx); 刊登批次 (?view=batches, or a link to one batch ?batch=…) is the publish batches, newest first (shop group, sites, status and
// counts, time), filtered by shop group and status; a batch opens in a drawer listing its listings (status, site,
// item id with its permalink, title, price, the reason when refused or skipped with the pre-flight's problems). Both
// follow live while a batch runs (publishBatch events; polling while the stream is down). A finished batch's refused,
// failed and skipped listings are published again by 重试失败 (the row) or 重试所选 (picked in the drawer), with the
// products as they are now; the batch's progress then shows live again.
import { ExternalLink, RotateCcw, X } from "lucide-react";
import { useState } from "react";
import type { Listing, PublishBatch } from "#shared/contract/publish.ts";
import { isBatchRunning } from "#shared/publish/batch.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable, type DataTableColumn } from "#shared/ui/data-table.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { cn } from "#shared/ui/cn.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams, type SetTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { ListingCentre } from "./listing-centre.tsx";
import { listingListSchema } from "./listing-search-params.ts";
import { FollowingRefresh } from "../../components/list/following-refresh.tsx";
import { ALL_SHOPS, ShopGroupFilter } from "../../components/list/shop-group-filter.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { BATCH_POLL_MS, useBatchListings, usePublishBatches } from "./api/get-publish-batches.ts";
import { isListingRetryable, retryableCount, useRetryPublish } from "./api/retry-publish.ts";
import { BatchProgress } from "./batch-progress.tsx";
import {
  batchStatusLabel,
  batchStatusOptions,
  batchStatusTones,
  listingStatusLabel,
  listingStatusTones,
  siteName,
} from "./publish-names.ts";

const ALL = "all";
const PAGE_SIZE = 20;

const batchColumns = (open: (b: PublishBatch) => void, retry: (b: PublishBatch) => void): DataTableColumn<PublishBatch>[] => [
  {
    id: "shop",
    header: "店铺 / 站点",
    cell: (b) => (
      <div className="flex flex-col gap-0.5" data-testid={`publish-records-row-${b.id}`}>
        <span className="font-medium">{b.accountGroupName ?? b.accountGroupId}</span>
        <span className="text-muted-foreground text-xs">{b.sites.map(siteName).join("、")}</span>
      </div>
    ),
  },
  {
    id: "status",
    header: "状态",
    width: 110,
    cell: (b) => (
      <Badge variant={batchStatusTones[b.status] ?? "outline"} data-testid="publish-records-status" data-status={b.status}>
        {isBatchRunning(b.status) ? <Spinner /> : null}
        {batchStatusLabel(b.status)}
      </Badge>
    ),
  },
  {
    id: "counts",
    header: "总数 / 成功 / 失败 / 未发送",
    width: 200,
    cell: (b) => (
      <span className="tabular-nums" data-testid="publish-records-counts">
        {b.total} / <span className="text-success">{b.success}</span> / <span className="text-destructive">{b.fail}</span> /{" "}
        <span className="text-warning">{b.skipped}</span>
      </span>
    ),
  },
  {
    id: "time",
    header: "提交 / 更新时间",
    width: 160,
    cell: (b) => (
      <div className="text-muted-foreground flex flex-col text-xs tabular-nums">
        <span>{formatDateTime(b.creationTime)}</span>
        <span>{formatDateTime(b.lastUpdateTime)}</span>
      </div>
    ),
  },
  {
    id: "actions",
    header: "操作",
    width: 170,
    cell: (b) => (
      <div className="-ml-2 flex items-center gap-1">
        <Button
          variant="ghost"
          size="sm"
          className="text-primary h-7 px-2"
          onClick={() => open(b)}
          data-testid={`publish-records-open-${b.id}`}
        >
          查看明细
        </Button>
        {retryableCount(b) > 0 ? (
          <Button
            variant="ghost"
            size="sm"
            className="text-primary h-7 px-2"
            onClick={() => retry(b)}
            data-testid={`publish-records-retry-${b.id}`}
          >
            <RotateCcw className="size-3.5" />
            重试失败
          </Button>
        ) : null}
      </div>
    ),
  },
];

const listingColumns: DataTableColumn<Listing>[] = [
  {
    id: "title",
    header: "标题",
    cell: (l) => (
      <div className="flex min-w-0 flex-col gap-0.5">
        <span className="line-clamp-2 text-xs font-medium" title={l.title || l.productTitle || ""} data-testid="publish-listing-title">
          {l.title || l.productTitle || "-"}
        </span>
        {l.reason ? (
          <span className="text-destructive line-clamp-3 text-xs" title={l.reason} data-testid="publish-listing-reason">
            {l.reason}
          </span>
        ) : null}
        {l.problems.length > 0 && !l.reason ? (
          <span className="text-muted-foreground text-xs">{l.problems.map((p) => p.message).join("；")}</span>
        ) : null}
      </div>
    ),
  },
  { id: "site", header: "站点", width: 80, cell: (l) => <span className="text-xs">{siteName(l.site)}</span> },
  {
    id: "status",
    header: "状态",
    width: 120,
    cell: (l) => (
      <Badge variant={listingStatusTones[l.status] ?? "outline"} data-testid="publish-listing-status" data-status={l.status}>
        {listingStatusLabel(l.status)}
      </Badge>
    ),
  },
  {
    id: "item",
    header: "商品ID",
    width: 140,
    cell: (l) =>
      l.itemId ? (
        l.permalink ? (
          <a
            href={l.permalink}
            target="_blank"
            rel="noreferrer"
            className="text-primary inline-flex items-center gap-1 text-xs hover:underline"
            data-testid="publish-listing-item"
          >
            {l.itemId}
            <ExternalLink className="size-3" />
          </a>
        ) : (
          <span className="text-xs" data-testid="publish-listing-item">
            {l.itemId}
          </span>
        )
      ) : (
        <span className="text-muted-foreground text-xs">-</span>
      ),
  },
  {
    id: "price",
    header: "价格",
    width: 110,
    align: "right",
    cell: (l) => <span className="text-xs tabular-nums">{l.price !== null ? `${l.price} ${l.currency ?? ""}` : "-"}</span>,
  },
];

function BatchDrawer({
  batch,
  retried,
  onRetried,
  onClose,
}: {
  batch: PublishBatch | null;
  /** The batch as the last retry answered it (its progress shows at the top while it is this batch). */
  retried: PublishBatch | null;
  onRetried: (b: PublishBatch) => void;
  onClose: () => void;
}) {
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const listings = useBatchListings(batch ? { batchId: batch.id, skipCount: (page - 1) * 50, maxResultCount: 50 } : null);
  const rows = listings.data?.items ?? [];
  const retryable = new Set(rows.filter((l) => isListingRetryable(l.status)).map((l) => l.id));
  // Only refused, failed and skipped rows can be picked; a picked row that was published since drops out.
  const selected = new Set([...picked].filter((id) => retryable.has(id)));
  const running = batch ? isBatchRunning(batch.status) : false;
  const retry = useRetryPublish();

  async function onRetrySelected() {
    if (!batch || !selected.size) return;
    const ok = await confirm({
      title: `重试所选的 ${selected.size} 条刊登？`,
      description: "按商品当前的资料重新检查并刊登；仍未通过刊登前检查的会再次标为未发送，并写明原因。",
      tone: "info",
      confirmText: "重试",
    });
    if (!ok) return;
    retry.mutate(
      { batchId: batch.id, listingIds: [...selected] },
      {
        onSuccess: (b) => {
          toast.success(`已重新提交 ${selected.size} 条刊登`);
          setPicked(new Set());
          onRetried(b);
        },
      },
    );
  }

  return (
    <Sheet
      open={!!batch}
      onOpenChange={(o) => {
        if (o) return;
        setPicked(new Set());
        onClose();
      }}
    >
      <SheetContent className="w-full sm:max-w-4xl" data-testid="publish-batch-drawer">
        <SheetHeader>
          <SheetTitle>刊登明细</SheetTitle>
          <SheetDescription>
            {batch
              ? `${batch.accountGroupName ?? ""} · ${batch.sites.map(siteName).join("、")} · ${formatDateTime(batch.creationTime)}`
              : ""}
          </SheetDescription>
        </SheetHeader>
        <div className="flex flex-col gap-3 overflow-auto px-4 pb-4">
          {batch && retried?.id === batch.id ? <BatchProgress submitted={batch} /> : null}
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-muted-foreground">
              {running
                ? "这批仍在刊登中，完成后可重试失败的刊登"
                : retryable.size
                  ? `勾选失败或未发送的刊登后可重试（本页 ${retryable.size} 条可重试）`
                  : "本页没有需要重试的刊登"}
            </span>
            <Button
              size="sm"
              className="ml-auto"
              disabled={running || !selected.size || retry.isPending}
              onClick={() => void onRetrySelected()}
              data-testid="publish-batch-retry-selected"
            >
              {retry.isPending ? <Spinner /> : <RotateCcw className="size-3.5" />}
              重试所选{selected.size ? ` (${selected.size})` : ""}
            </Button>
          </div>
          <DataTable
            aria-label="刊登明细"
            columns={listingColumns}
            rows={rows}
            rowKey={(l) => l.id}
            loading={listings.isFetching && rows.length === 0}
            emptyText="这批没有刊登记录"
            view={{ density: "compact" }}
            selection={
              running || !retryable.size
                ? undefined
                : { selected, onChange: (next) => setPicked(new Set([...next].filter((id) => retryable.has(id)))) }
            }
            pagination={{ page, pageSize: 50, total: listings.data?.totalCount ?? 0, onChange: (p) => setPage(p) }}
            className="[&_table]:min-w-[720px] [&_table]:table-fixed"
          />
        </div>
      </SheetContent>
    </Sheet>
  );
}

export default function PublishRecordsPage({ route }: PageProps) {
  const [params, setParams] = useTabSearchParams(route.path);
  const listState = useListUrlState(listingListSchema, [params, setParams]);
  // The publish batches: asked for by name, or opened from a batch's progress (?batch=…).
  const batches = params.get("view") === "batches" || params.has("batch");
  const showView = (v: "listings" | "batches") =>
    setParams((prev) => {
      const next = new URLSearchParams(v === "batches" ? { view: "batches" } : prev);
      if (v === "listings") {
        next.delete("view");
        next.delete("batch");
      }
      return next;
    });
  return (
    <Card data-testid="publish-records-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            {batches
              ? "每次提交刊登为一批：查看每批的进度和结果，点开查看每个商品在各站点的刊登状态、商品ID和失败原因。"
              : "店铺在美客多上的刊登：按状态查看，直接改价改库存，批量改价、上下架、同步，并查看每条刊登的调用日志。"}
          </CardDescription>
        </div>
        <div className="bg-muted/50 flex rounded-md p-0.5" role="tablist" aria-label="视图">
          {(["listings", "batches"] as const).map((v) => (
            <button
              key={v}
              type="button"
              role="tab"
              aria-selected={batches === (v === "batches")}
              className={cn(
                "rounded-md px-3 py-1.5 text-sm",
                batches === (v === "batches") ? "bg-background shadow-sm" : "text-muted-foreground hover:text-foreground",
              )}
              onClick={() => showView(v)}
              data-testid={`publish-records-view-${v}`}
            >
              {v === "listings" ? "在线刊登" : "刊登批次"}
            </button>
          ))}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        {batches ? <BatchRecords params={params} setParams={setParams} /> : <ListingCentre listState={listState} />}
      </CardContent>
    </Card>
  );
}

function BatchRecords({ params, setParams }: { params: URLSearchParams; setParams: SetTabSearchParams }) {
  const [group, setGroup] = useState(ALL_SHOPS);
  const [status, setStatus] = useState(ALL);
  const [page, setPage] = useState(1);
  const list = usePublishBatches({
    ...(group !== ALL_SHOPS ? { accountGroupId: group } : {}),
    ...(status !== ALL ? { status: Number(status) } : {}),
    skipCount: (page - 1) * PAGE_SIZE,
    maxResultCount: PAGE_SIZE,
    sorting: "creationTime desc",
  });
  const rows = list.data?.items ?? [];
  const total = list.data?.totalCount ?? 0;
  const openId = params.get("batch");
  const [opened, setOpened] = useState<PublishBatch | null>(null);
  // The open batch as the list shows it now (its status and counts follow live), else as it was opened.
  const openKey = opened?.id ?? openId;
  const open = rows.find((b) => b.id === openKey) ?? opened ?? null;
  const following = rows.some((b) => isBatchRunning(b.status));
  const [retried, setRetried] = useState<PublishBatch | null>(null);
  const retriedNow = retried ? (rows.find((b) => b.id === retried.id) ?? retried) : null;
  const retry = useRetryPublish();

  async function onRetry(b: PublishBatch) {
    const n = retryableCount(b);
    const ok = await confirm({
      title: `重试这批中失败和未发送的 ${n} 条刊登？`,
      description:
        `失败 ${b.fail} 条、未发送 ${b.skipped} 条将按商品当前的资料重新检查并刊登；已成功的刊登不会改动，` +
        "仍未通过刊登前检查的会再次标为未发送，并写明原因。",
      tone: "info",
      confirmText: "重试",
    });
    if (!ok) return;
    retry.mutate(
      { batchId: b.id },
      {
        onSuccess: (answer) => {
          toast.success(`已重新提交 ${n} 条刊登`);
          setRetried(answer);
        },
      },
    );
  }

  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <ShopGroupFilter
          value={group}
          onChange={(v) => {
            setGroup(v);
            setPage(1);
          }}
          testId="publish-records-shop"
        />
        <Select
          value={status}
          onValueChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
        >
          <SelectTrigger className="w-40" aria-label="状态" data-testid="publish-records-status-filter">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>全部状态</SelectItem>
            {batchStatusOptions.map((o) => (
              <SelectItem key={o.value} value={String(o.value)}>
                {o.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <span className="text-muted-foreground ml-auto text-sm" data-testid="publish-records-total">
          共 <b className="text-foreground tabular-nums">{total}</b> 批
        </span>
        <FollowingRefresh list={list} following={following} pollMs={BATCH_POLL_MS} testId="publish-records" />
      </div>
      {retriedNow ? (
        <div className="flex items-start gap-2" data-testid="publish-records-retried">
          <div className="min-w-0 flex-1">
            <BatchProgress submitted={retriedNow} />
          </div>
          <Button variant="ghost" size="icon" className="size-8" aria-label="收起进度" onClick={() => setRetried(null)}>
            <X className="size-4" />
          </Button>
        </div>
      ) : null}
      <DataTable
        aria-label="刊登记录"
        columns={batchColumns(setOpened, (b) => void onRetry(b))}
        rows={rows}
        rowKey={(b) => b.id}
        loading={list.isFetching && (rows.length === 0 || list.isPlaceholderData)}
        emptyText="还没有刊登记录：在商品列表勾选商品后点击“刊登”"
        pagination={{ page, pageSize: PAGE_SIZE, total, onChange: (p) => setPage(p) }}
        className="[&_table]:min-w-[860px] [&_table]:table-fixed"
      />
      <BatchDrawer
        batch={open}
        retried={retriedNow}
        onRetried={setRetried}
        onClose={() => {
          setOpened(null);
          if (openId)
            setParams((prev) => {
              const next = new URLSearchParams(prev);
              next.delete("batch");
              next.set("view", "batches");
              return next;
            });
        }}
      />
    </>
  );
}
