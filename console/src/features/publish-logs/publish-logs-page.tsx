// /proudcts/publish-logs (spec §2, issue 15): every call made to Mercado Libre for a listing (MeliStatLog), newest
// first, filtered by shop group and call day; a row opens a drawer with the request and the answer (GetLogDetail,
// tokens scrubbed by the server), JSON pretty-printed.
import { useState } from "react";
import type { MeliCallLog } from "#shared/contract/meli-logs.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable, type DataTableColumn } from "#shared/ui/data-table.tsx";
import { DateInput } from "#shared/ui/date-input.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { ALL_SHOPS, ShopGroupFilter } from "../../components/list/shop-group-filter.tsx";
import { formatDateTime, localDayRange } from "../../lib/format.ts";
import { useMeliLogDetail, useMeliLogs } from "./api/get-meli-logs.ts";

const PAGE_SIZE = 50;

/** A stored body as shown: JSON pretty-printed, anything else as stored. */
export function prettyBody(body: string | null): string {
  if (body === null || body === "") return "（无）";
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

const statusTone = (s: number | null) => (s === null ? "destructive" : s < 300 ? "success" : s < 500 ? "warning" : "destructive");

const columns = (open: (l: MeliCallLog) => void): DataTableColumn<MeliCallLog>[] => [
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

function LogDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const detail = useMeliLogDetail(id);
  const d = detail.data;
  return (
    <Sheet open={!!id} onOpenChange={(o) => void (o ? null : onClose())}>
      <SheetContent className="w-full sm:max-w-3xl" data-testid="publish-logs-drawer">
        <SheetHeader>
          <SheetTitle>调用详情</SheetTitle>
          <SheetDescription>
            {d ? `${d.method} ${d.path} · ${d.status ?? "无应答"} · ${formatDateTime(d.creationTime)}` : ""}
          </SheetDescription>
        </SheetHeader>
        <div className="flex flex-col gap-3 overflow-auto px-4 pb-4">
          {detail.isLoading ? <Spinner /> : null}
          {d ? (
            <>
              <h4 className="text-sm font-medium">请求</h4>
              <pre className="bg-muted max-h-[40vh] overflow-auto rounded-md p-3 text-xs" data-testid="publish-logs-request">
                {prettyBody(d.request)}
              </pre>
              <h4 className="text-sm font-medium">应答</h4>
              <pre className="bg-muted max-h-[40vh] overflow-auto rounded-md p-3 text-xs" data-testid="publish-logs-response">
                {prettyBody(d.response)}
              </pre>
            </>
          ) : null}
        </div>
      </SheetContent>
    </Sheet>
  );
}

export default function PublishLogsPage({ route }: PageProps) {
  const [group, setGroup] = useState(ALL_SHOPS);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const range = localDayRange(from, to);
  const list = useMeliLogs({
    ...(group !== ALL_SHOPS ? { AccountgroupId: group } : {}),
    ...(range.from ? { StartTime: range.from } : {}),
    ...(range.to ? { EndTime: range.to } : {}),
    Sorting: "creationTime desc",
    SkipCount: (page - 1) * PAGE_SIZE,
    MaxResultCount: PAGE_SIZE,
  });
  const rows = list.data?.items ?? [];
  const total = list.data?.totalCount ?? 0;
  const capped = list.data?.totalCountCapped ?? false;
  const reset = (f: () => void) => {
    f();
    setPage(1);
  };

  return (
    <Card data-testid="publish-logs-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>刊登时向美客多发出的每次调用：请求、应答、状态码和耗时，用于排查刊登失败的原因（令牌已隐去）。</CardDescription>
        </div>
        <RefreshButton fetching={list.isFetching} onRefresh={list.refetch} data-testid="publish-logs-refresh" />
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <div className="flex flex-wrap items-center gap-2">
          <ShopGroupFilter value={group} onChange={(v) => reset(() => setGroup(v))} testId="publish-logs-shop" />
          <DateInput
            value={from}
            onChange={(d) => reset(() => setFrom(d))}
            max={to || undefined}
            aria-label="开始日期"
            className="w-36"
            data-testid="publish-logs-from"
          />
          <span className="text-muted-foreground text-sm">至</span>
          <DateInput
            value={to}
            onChange={(d) => reset(() => setTo(d))}
            min={from || undefined}
            aria-label="结束日期"
            className="w-36"
            data-testid="publish-logs-to"
          />
          <span className="text-muted-foreground ml-auto text-sm" data-testid="publish-logs-total">
            共 <b className="text-foreground tabular-nums">{`${total.toLocaleString("zh-CN")}${capped ? "+" : ""}`}</b> 次调用
          </span>
        </div>
        <DataTable
          aria-label="刊登日志"
          columns={columns((l) => setOpenId(l.id))}
          rows={rows}
          rowKey={(l) => l.id}
          loading={list.isFetching && (rows.length === 0 || list.isPlaceholderData)}
          emptyText="还没有刊登日志"
          view={{ density: "compact" }}
          pagination={{ page, pageSize: PAGE_SIZE, total, onChange: (p) => setPage(p) }}
          className={capped ? "[&_[data-slot=pagination-total]]:hidden" : undefined}
        />
      </CardContent>
      <LogDrawer id={openId} onClose={() => setOpenId(null)} />
    </Card>
  );
}
