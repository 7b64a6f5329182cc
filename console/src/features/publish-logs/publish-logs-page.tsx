// /proudcts/publish-logs (spec §2, issue 15): every call made to Mercado Libre for a listing (MeliStatLog), newest
// first, filtered by shop group and call day (filters and page in the URL); a row opens a drawer with the request and
// the answer (GetLogDetail, tokens scrubbed by the server), JSON pretty-printed.
import { useState } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { DateInput } from "#shared/ui/date-input.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { shopGroupListFilter } from "../../components/list/shop-group-filter.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useMeliLogDetail, useMeliLogs } from "./api/get-meli-logs.ts";
import { publishLogColumns } from "./publish-logs-columns.tsx";
import { publishLogListSchema, toMeliLogsQuery, type PublishLogListState } from "./publish-logs-search-params.ts";

/** A stored body as shown: JSON pretty-printed, anything else as stored. */
function prettyBody(body: string | null): string {
  if (body === null || body === "") return "（无）";
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

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

/** The shop group and the two call days, with the test ids the page has always had. */
const filtersOf = (state: PublishLogListState, update: (change: Partial<PublishLogListState>) => void): ListFilters => [
  shopGroupListFilter("shop", state.shop, (shop) => update({ shop }), "publish-logs-shop"),
  {
    kind: "custom",
    key: "from",
    render: () => (
      <>
        <DateInput
          value={state.from}
          onChange={(from) => update({ from })}
          max={state.to || undefined}
          aria-label="开始日期"
          className="w-36"
          data-testid="publish-logs-from"
        />
        <span className="text-muted-foreground text-sm">至</span>
        <DateInput
          value={state.to}
          onChange={(to) => update({ to })}
          min={state.from || undefined}
          aria-label="结束日期"
          className="w-36"
          data-testid="publish-logs-to"
        />
      </>
    ),
  },
];

export default function PublishLogsPage({ route }: PageProps) {
  const listState = useListUrlState(publishLogListSchema, useTabSearchParams(route.path));
  const { state } = listState;
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useMeliLogs(toMeliLogsQuery(state));
  const table = listTable(list, listState);
  const { rows } = table;
  const { total } = table.pagination;
  const capped = list.data?.totalCountCapped ?? false;
  // A capped total is only a lower bound: the last page is not known.
  useKeepPageInRange(state, settledTotal(list, capped), listState.setPage);

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
        <ListToolbar filters={filtersOf(state, listState.update)} state={state} onChange={listState.update}>
          <span className="text-muted-foreground ml-auto text-sm" data-testid="publish-logs-total">
            共 <b className="text-foreground tabular-nums">{`${total.toLocaleString("zh-CN")}${capped ? "+" : ""}`}</b> 次调用
          </span>
        </ListToolbar>
        <DataTable
          aria-label="刊登日志"
          columns={publishLogColumns((l) => setOpenId(l.id))}
          {...table}
          rowKey={(l) => l.id}
          emptyText="还没有刊登日志"
          view={{ density: "compact" }}
          className={capped ? "[&_[data-slot=pagination-total]]:hidden" : undefined}
        />
      </CardContent>
      <LogDrawer id={openId} onClose={() => setOpenId(null)} />
    </Card>
  );
}
