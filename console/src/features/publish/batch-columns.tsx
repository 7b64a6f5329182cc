// The publish batches' columns (shop group and sites, status, counts, when, 查看明细 / 重试失败) and those of a batch's
// listings in its drawer (title with the reason or the pre-flight's problems, site, status, item id with its permalink,
// price).
import { ExternalLink, RotateCcw } from "lucide-react";
import type { Listing, PublishBatch } from "#shared/contract/publish.ts";
import { isBatchRunning } from "#shared/publish/batch.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { retryableCount } from "./api/retry-publish.ts";
import { batchStatusLabel, batchStatusTones, listingStatusLabel, listingStatusTones, siteName } from "./publish-names.ts";

export const batchColumns = (open: (b: PublishBatch) => void, retry: (b: PublishBatch) => void): DataTableColumn<PublishBatch>[] => [
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

export const batchListingColumns: DataTableColumn<Listing>[] = [
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
