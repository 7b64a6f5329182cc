// A listing's log: every call made to Mercado Libre for it (publish, edits, syncs), newest first; a row opens the
// request and the answer as stored (tokens scrubbed). Its page is the drawer's own (useLocalPaging), not the URL's.
import { useState } from "react";
import { DataTable } from "#shared/ui/data-table.tsx";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useLocalPaging } from "../../components/list/use-local-paging.ts";
import { LOG_PAGE_SIZE, useListingLogDetail, useListingLogs } from "./api/listings.ts";
import type { ListingTableRow } from "./listing-columns.tsx";
import { listingLogColumns } from "./listing-log-columns.tsx";

function LogDetail({ id }: { id: string }) {
  const detail = useListingLogDetail(id);
  if (detail.isLoading) return <Spinner />;
  if (!detail.data) return null;
  return (
    <div className="grid gap-2 md:grid-cols-2" data-testid="listing-log-detail">
      {(["request", "response"] as const).map((k) => (
        <div key={k} className="flex min-w-0 flex-col gap-1">
          <span className="text-muted-foreground text-xs">{k === "request" ? "请求内容" : "返回内容"}</span>
          <pre className="bg-muted max-h-64 overflow-auto rounded p-2 text-[11px] break-all whitespace-pre-wrap">
            {detail.data[k] ?? "（无）"}
          </pre>
        </div>
      ))}
    </div>
  );
}

export function ListingLogsDrawer({ listing, onClose }: { listing: ListingTableRow | null; onClose: () => void }) {
  const paging = useLocalPaging(LOG_PAGE_SIZE);
  const [opened, setOpened] = useState<string | null>(null);
  const logs = useListingLogs(listing?.id ?? null, paging);
  useKeepPageInRange(paging, settledTotal(logs), paging.setPage);
  const rows = logs.data?.items ?? [];
  return (
    <Sheet
      open={!!listing}
      onOpenChange={(o) => {
        if (o) return;
        paging.reset();
        setOpened(null);
        onClose();
      }}
    >
      <SheetContent className="w-full sm:max-w-3xl" data-testid="listing-logs-drawer">
        <SheetHeader>
          <SheetTitle>刊登日志</SheetTitle>
          <SheetDescription>
            {listing ? `${listing.itemId ?? "未上线"} · ${listing.title ?? listing.productTitle ?? ""}` : ""}
          </SheetDescription>
        </SheetHeader>
        <div className="flex flex-col gap-3 overflow-auto px-4 pb-4">
          <DataTable
            aria-label="刊登日志"
            columns={listingLogColumns}
            rows={rows}
            rowKey={(l) => l.id}
            loading={logs.isFetching && rows.length === 0}
            emptyText="这条刊登还没有调用美客多的记录"
            view={{ density: "compact" }}
            onRowClick={(l) => setOpened(l.id === opened ? null : l.id)}
            pagination={{ page: paging.page, pageSize: paging.size, total: logs.data?.totalCount ?? 0, onChange: paging.onPageChange }}
            className="[&_table]:min-w-[600px] [&_table]:table-fixed"
          />
          {opened ? <LogDetail id={opened} /> : <p className="text-muted-foreground text-xs">点击一行查看请求和返回内容</p>}
        </div>
      </SheetContent>
    </Sheet>
  );
}
