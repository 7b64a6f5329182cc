// The URL queue's columns: the URL with its platform, status, the crawler's message, crawl count, owner (main
// accounts), times and the row actions (重新采集 for a finished URL, 删除).
import { ExternalLink } from "lucide-react";
import type { AquiredUrl } from "#shared/contract/collect.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { DateCell } from "../../components/list/date-cell.tsx";
import { displayUrl } from "./format.ts";
import { platformLabel } from "../../lib/labels.ts";
import { taskMessageText, taskView, taskViewLabels, taskViewTones } from "./labels.ts";

export type UrlRowActions = {
  onReCrawl: (row: AquiredUrl) => void;
  onDelete: (row: AquiredUrl) => void;
  showOwner: boolean;
};

const actionClass = "text-primary hover:text-primary h-7 px-2";
const dangerClass = "text-destructive hover:text-destructive hover:bg-destructive/10 h-7 px-2";

export const isFinishedUrl = (r: AquiredUrl) => r.status === TaskStatus.Succeeded || r.status === TaskStatus.Failed;

export function urlQueueColumns(a: UrlRowActions): DataTableColumn<AquiredUrl>[] {
  const columns: (DataTableColumn<AquiredUrl> | null)[] = [
    {
      id: "url",
      header: "商品链接",
      cell: (r) => (
        <div className="flex min-w-0 items-center gap-2" data-testid={`collect-url-row-${r.id}`}>
          <Badge variant="outline" className="shrink-0">
            {platformLabel(r.platformType)}
          </Badge>
          <a
            href={r.url}
            target="_blank"
            rel="noopener noreferrer"
            className="hover:text-primary inline-flex min-w-0 items-center gap-1"
            title={r.url}
          >
            <span className="truncate">{displayUrl(r.url)}</span>
            <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
          </a>
        </div>
      ),
    },
    {
      id: "status",
      header: "状态",
      width: 92,
      cell: (r) => {
        const view = taskView(r.status, r.message);
        return (
          <Badge variant={taskViewTones[view]} data-testid="collect-url-status" data-status={view}>
            {view === "running" ? <Spinner /> : null}
            {taskViewLabels[view]}
          </Badge>
        );
      },
    },
    {
      id: "message",
      header: "信息",
      width: 220,
      cell: (r) => {
        const text = taskMessageText(r.message);
        return text ? (
          <span className="text-muted-foreground block truncate text-xs" title={r.message ?? undefined}>
            {text}
          </span>
        ) : (
          <span className="text-muted-foreground">-</span>
        );
      },
    },
    {
      id: "crawlCount",
      header: "次数",
      width: 60,
      align: "right",
      cell: (r) => <span className="tabular-nums">{r.crawlCount}</span>,
    },
    a.showOwner
      ? { id: "owner", header: "添加人", width: 90, cell: (r) => <span className="block truncate">{r.owner ?? "-"}</span> }
      : null,
    {
      id: "time",
      header: "添加时间",
      width: 150,
      cell: (r) => <DateCell iso={r.creationTime} className="text-xs" />,
    },
    {
      id: "actions",
      header: "操作",
      width: 140,
      cell: (r) => (
        <div className="-ml-2 flex items-center gap-0.5 whitespace-nowrap">
          <Button
            variant="ghost"
            size="sm"
            className={actionClass}
            disabled={!isFinishedUrl(r)}
            title={isFinishedUrl(r) ? undefined : "采集完成后才能重新采集"}
            onClick={() => a.onReCrawl(r)}
            data-testid={`collect-url-recrawl-${r.id}`}
          >
            重新采集
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className={dangerClass}
            onClick={() => a.onDelete(r)}
            data-testid={`collect-url-delete-${r.id}`}
          >
            删除
          </Button>
        </div>
      ),
    },
  ];
  return columns.filter((c): c is DataTableColumn<AquiredUrl> => c !== null);
}
