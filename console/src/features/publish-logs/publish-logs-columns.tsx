// The publish log's columns: when, the call (method and path), the site, the answer's status code, how long it took,
// and 详情 (the request and the answer in a drawer).
import type { MeliCallLog } from "#shared/contract/meli-logs.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";

const statusTone = (s: number | null) => (s === null ? "destructive" : s < 300 ? "success" : s < 500 ? "warning" : "destructive");

export const publishLogColumns = (open: (l: MeliCallLog) => void): DataTableColumn<MeliCallLog>[] => [
  { id: "time", header: "时间", width: 160, cell: (l) => <span className="text-xs tabular-nums">{formatDateTime(l.creationTime)}</span> },
  {
    id: "call",
    header: "调用",
    cell: (l) => (
      <span className="block truncate font-mono text-xs" title={`${l.method} ${l.path}`} data-testid="publish-logs-call">
        {l.method} {l.path}
      </span>
    ),
  },
  {
    id: "site",
    header: "站点",
    width: 90,
    cell: (l) => <span className="text-xs">{l.site ? (MELI_SITES[l.site as keyof typeof MELI_SITES]?.name ?? l.site) : "-"}</span>,
  },
  {
    id: "status",
    header: "状态码",
    width: 80,
    cell: (l) => <Badge variant={statusTone(l.status)}>{l.status ?? "无应答"}</Badge>,
  },
  {
    id: "duration",
    header: "耗时",
    width: 80,
    align: "right",
    cell: (l) => <span className="text-xs tabular-nums">{l.durationMs ?? "-"} ms</span>,
  },
  {
    id: "actions",
    header: "操作",
    width: 70,
    cell: (l) => (
      <Button
        variant="ghost"
        size="sm"
        className="text-primary -ml-2 h-7 px-2"
        onClick={() => open(l)}
        data-testid={`publish-logs-open-${l.id}`}
      >
        详情
      </Button>
    ),
  },
];
