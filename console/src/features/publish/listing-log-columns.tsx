// A listing's call log's columns (its drawer): the call (with why, when a repricing made it), the answer's status, how
// long it took, when.
import type { MeliCallLog } from "#shared/contract/meli-logs.ts";
import { Badge } from "#shared/ui/badge.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";

const tone = (status: number | null) => (status === null || status >= 500 ? "destructive" : status >= 400 ? "warning" : "success");

export const listingLogColumns: DataTableColumn<MeliCallLog>[] = [
  {
    id: "call",
    header: "请求",
    cell: (l) => (
      <div className="flex min-w-0 flex-col gap-0.5">
        <span className="truncate font-mono text-xs" title={l.path} data-testid="listing-log-call">
          {l.method} {l.path}
        </span>
        {l.reason ? (
          <span className="text-muted-foreground text-xs break-all whitespace-normal" data-testid="listing-log-reason">
            {l.reason}
          </span>
        ) : null}
      </div>
    ),
  },
  {
    id: "status",
    header: "结果",
    width: 70,
    cell: (l) => <Badge variant={tone(l.status)}>{l.status ?? "无响应"}</Badge>,
  },
  {
    id: "ms",
    header: "耗时",
    width: 70,
    align: "right",
    cell: (l) => <span className="text-xs tabular-nums">{l.durationMs ?? "-"} ms</span>,
  },
  { id: "time", header: "时间", width: 140, cell: (l) => <span className="text-xs tabular-nums">{formatDateTime(l.creationTime)}</span> },
];
