// The collection task table's columns: the product (image, title or URL, source item id), platform, status, the
// crawler's message in Chinese (with the next retry), attempts, owner (main accounts), times and 重试.
import { ExternalLink } from "lucide-react";
import type { CollectTask } from "#shared/contract/collect.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { displayUrl } from "./format.ts";
import { Thumb } from "../../components/list/thumb.tsx";
import { platformLabel } from "../../lib/labels.ts";
import { taskMessageText, taskView, taskViewLabels, taskViewTones } from "./labels.ts";

export type TaskRowActions = {
  onRetry: (task: CollectTask) => void;
  /** Tasks whose retry is on its way. */
  pendingIds: ReadonlySet<string>;
  showOwner: boolean;
};

/** A finished task can be run again: failed, blocked or cancelled ones to try again, a succeeded one to refresh. */
export const canRetry = (t: CollectTask) =>
  t.taskStatus === TaskStatus.Failed || t.taskStatus === TaskStatus.Cancelled || t.taskStatus === TaskStatus.Succeeded;

const timeOnly = (iso: string) => formatDateTime(iso).slice(11);

export function taskColumns(a: TaskRowActions): DataTableColumn<CollectTask>[] {
  const columns: (DataTableColumn<CollectTask> | null)[] = [
    { id: "image", header: "图片", width: 60, cell: (t) => <Thumb src={t.image} alt={t.title ?? "商品图片"} size={40} /> },
    {
      id: "product",
      header: "商品",
      cell: (t) => (
        <div className="flex min-w-0 flex-col gap-0.5" data-testid={`collect-task-row-${t.id}`}>
          {t.title ? (
            <span className="truncate font-medium" title={t.title}>
              {t.title}
            </span>
          ) : null}
          <a
            href={t.url}
            target="_blank"
            rel="noopener noreferrer"
            title={t.url}
            className={
              t.title
                ? "text-muted-foreground hover:text-primary inline-flex min-w-0 items-center gap-1 text-xs"
                : "hover:text-primary inline-flex min-w-0 items-center gap-1"
            }
          >
            <span className="truncate">{displayUrl(t.url)}</span>
            <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
          </a>
          {t.sku ? <span className="text-muted-foreground text-xs tabular-nums">ID {t.sku}</span> : null}
        </div>
      ),
    },
    { id: "platform", header: "平台", width: 84, cell: (t) => <Badge variant="outline">{platformLabel(t.platformType)}</Badge> },
    {
      id: "status",
      header: "状态",
      width: 92,
      cell: (t) => {
        const view = taskView(t.taskStatus, t.message);
        return (
          <Badge variant={taskViewTones[view]} data-testid="collect-task-status" data-status={view}>
            {view === "running" ? <Spinner /> : null}
            {taskViewLabels[view]}
          </Badge>
        );
      },
    },
    {
      id: "message",
      header: "信息",
      width: 230,
      cell: (t) => {
        const text = taskMessageText(t.message);
        const view = taskView(t.taskStatus, t.message);
        return (
          <div className="flex min-w-0 flex-col gap-0.5">
            <span
              className={
                view === "blocked"
                  ? "text-warning line-clamp-2 text-xs"
                  : view === "failed"
                    ? "text-destructive line-clamp-2 text-xs"
                    : "text-muted-foreground line-clamp-2 text-xs"
              }
              title={t.message ?? undefined}
              data-testid="collect-task-message"
            >
              {text || "-"}
            </span>
            {t.nextRunAt && t.taskStatus === TaskStatus.Pending ? (
              <span className="text-muted-foreground text-xs">下次重试 {timeOnly(t.nextRunAt)}</span>
            ) : null}
          </div>
        );
      },
    },
    {
      id: "attempts",
      header: "次数",
      width: 60,
      align: "right",
      cell: (t) => <span className="tabular-nums">{t.attempts}</span>,
    },
    a.showOwner
      ? { id: "owner", header: "采集人", width: 90, cell: (t) => <span className="block truncate">{t.owner ?? "-"}</span> }
      : null,
    {
      id: "time",
      header: "创建 / 完成时间",
      width: 150,
      cell: (t) => (
        <div className="text-muted-foreground flex flex-col text-xs whitespace-nowrap tabular-nums">
          <span>{formatDateTime(t.creationTime)}</span>
          <span>{t.finishedAt ? formatDateTime(t.finishedAt) : "-"}</span>
        </div>
      ),
    },
    {
      id: "actions",
      header: "操作",
      width: 88,
      cell: (t) =>
        canRetry(t) ? (
          <Button
            variant="ghost"
            size="sm"
            className="text-primary hover:text-primary -ml-2 h-7 px-2"
            loading={a.pendingIds.has(t.id)}
            onClick={() => a.onRetry(t)}
            data-testid={`collect-task-retry-${t.id}`}
          >
            {t.taskStatus === TaskStatus.Succeeded ? "重新采集" : "重试"}
          </Button>
        ) : (
          <span className="text-muted-foreground text-xs">-</span>
        ),
    },
  ];
  return columns.filter((c): c is DataTableColumn<CollectTask> => c !== null);
}
