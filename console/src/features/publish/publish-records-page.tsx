// /proudcts/publish-records/v2 (spec §2, issues 15 and 16): two views. 在线刊登 (the default) is the listing centre
// (listing-centre.tsx); 刊登批次 (?view=batches, or a link to one batch ?batch=…) is the publish batches, newest first
// (shop group, sites, status and counts, time), filtered by shop group and status (in the URL, batch-search-params.ts;
// a batch's drawer pages on its own, see docs/decisions.md); a batch opens in a drawer listing its listings (status, site,
// item id with its permalink, title, price, the reason when refused or skipped with the pre-flight's problems). Both
// follow live while a batch runs (publishBatch events; polling while the stream is down). A finished batch's refused,
// failed and skipped listings are published again by 重试失败 (the row) or 重试所选 (picked in the drawer), with the
// products as they are now; the batch's progress then shows live again.
import { RotateCcw, X } from "lucide-react";
import { useState } from "react";
import type { PublishBatch } from "#shared/contract/publish.ts";
import { isBatchRunning } from "#shared/publish/batch.ts";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { cn } from "#shared/ui/cn.ts";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState, type SearchParamsSource } from "../../components/list/use-list-url-state.ts";
import { useLocalPaging } from "../../components/list/use-local-paging.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { ListingCentre } from "./listing-centre.tsx";
import { listingListSchema } from "./listing-search-params.ts";
import { FollowingRefresh } from "../../components/list/following-refresh.tsx";
import { shopGroupListFilter } from "../../components/list/shop-group-filter.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { BATCH_POLL_MS, useBatchListings, usePublishBatches } from "./api/get-publish-batches.ts";
import { isListingRetryable, retryableCount, useRetryPublish } from "./api/retry-publish.ts";
import { batchColumns, batchListingColumns } from "./batch-columns.tsx";
import { BatchProgress } from "./batch-progress.tsx";
import { batchListSchema, toBatchesQuery, type BatchListState } from "./batch-search-params.ts";
import { batchStatusOptions, siteName } from "./publish-names.ts";

/** A batch's listings in its drawer, a page at a time. */
const BATCH_LISTING_PAGE_SIZE = 50;

/** The publish batches: asked for by name, or opened from a batch's progress (?batch=…). */
const isBatchesView = (params: URLSearchParams) => params.get("view") === "batches" || params.has("batch");

const batchFilters = (state: BatchListState, update: (change: Partial<BatchListState>) => void): ListFilters => [
  shopGroupListFilter("shop", state.shop, (shop) => update({ shop }), "publish-records-shop"),
  {
    kind: "facet",
    key: "status",
    label: "状态",
    all: "全部状态",
    options: batchStatusOptions,
    className: "w-40",
    testId: "publish-records-status-filter",
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
  const paging = useLocalPaging(BATCH_LISTING_PAGE_SIZE);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const listings = useBatchListings(
    batch ? { batchId: batch.id, skipCount: (paging.page - 1) * paging.size, maxResultCount: paging.size } : null,
  );
  useKeepPageInRange(paging, settledTotal(listings), paging.setPage);
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
        paging.reset();
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
            columns={batchListingColumns}
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
            pagination={{ page: paging.page, pageSize: paging.size, total: listings.data?.totalCount ?? 0, onChange: paging.onPageChange }}
            className="[&_table]:min-w-[720px] [&_table]:table-fixed"
          />
        </div>
      </SheetContent>
    </Sheet>
  );
}

export default function PublishRecordsPage({ route }: PageProps) {
  const source = useTabSearchParams(route.path);
  const [params, setParams] = source;
  const listState = useListUrlState(listingListSchema, source);
  const batches = isBatchesView(params);
  // Each view starts from its own defaults: the other's filters and page are not carried over.
  const showView = (v: "listings" | "batches") =>
    setParams((prev) => (v === "batches" ? new URLSearchParams({ view: "batches" }) : isBatchesView(prev) ? new URLSearchParams() : prev));
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
        {batches ? <BatchRecords source={source} /> : <ListingCentre listState={listState} />}
      </CardContent>
    </Card>
  );
}

function BatchRecords({ source }: { source: SearchParamsSource }) {
  const [params, setParams] = source;
  const listState = useListUrlState(batchListSchema, source);
  const { state } = listState;
  const list = usePublishBatches(toBatchesQuery(state));
  const table = listTable(list, listState);
  const { rows } = table;
  useKeepPageInRange(state, settledTotal(list), listState.setPage);
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
      <ListToolbar filters={batchFilters(state, listState.update)} state={state} onChange={listState.update}>
        <span className="text-muted-foreground ml-auto text-sm" data-testid="publish-records-total">
          共 <b className="text-foreground tabular-nums">{table.pagination.total}</b> 批
        </span>
        <FollowingRefresh list={list} following={following} pollMs={BATCH_POLL_MS} testId="publish-records" />
      </ListToolbar>
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
        {...table}
        rowKey={(b) => b.id}
        emptyText="还没有刊登记录：在商品列表勾选商品后点击“刊登”"
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
