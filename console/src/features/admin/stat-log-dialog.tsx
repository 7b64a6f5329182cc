// 平台维护 → 接口调用统计 on the tenants screen (issue 31, GetStatLogStatics): the Mercado Libre calls each tenant made over
// whole local days, answered and failed side by side, most first. Two asks (status 1 and 2) over the same period.
import { useMemo, useState } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { DataTable, type DataTableColumn } from "#shared/ui/data-table.tsx";
import { DateInput, toDayText } from "#shared/ui/date-input.tsx";
import { useStatLogStatics } from "./api/tenant-maintenance.ts";
import { deletionRange } from "./clear-confirm.ts";

type Row = { tenantId: string; tenantName: string; ok: number; failed: number };

const n = (v: number) => <span className="tabular-nums">{v.toLocaleString("zh-CN")}</span>;

const columns: DataTableColumn<Row>[] = [
  { id: "tenant", header: "公司", cell: (r) => <span className="truncate">{r.tenantName}</span> },
  { id: "ok", header: "成功", width: 100, align: "right", cell: (r) => n(r.ok) },
  {
    id: "failed",
    header: "失败",
    width: 100,
    align: "right",
    cell: (r) => (r.failed ? <span className="text-destructive">{n(r.failed)}</span> : n(0)),
  },
  { id: "total", header: "合计", width: 110, align: "right", cell: (r) => <span className="font-medium">{n(r.ok + r.failed)}</span> },
];

const daysAgo = (days: number) => toDayText(new Date(Date.now() - days * 86_400_000));

export function StatLogDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [first, setFirst] = useState(() => daysAgo(6));
  const [last, setLast] = useState(() => daysAgo(0));
  const range = deletionRange(first, last);
  const period = range ? { startTime: range.startTime, endTime: range.endTime } : {};
  const ok = useStatLogStatics({ ...period, status: 1 }, open && !!range);
  const failed = useStatLogStatics({ ...period, status: 2 }, open && !!range);

  const rows = useMemo(() => {
    const byTenant = new Map<string, Row>();
    const row = (t: { tenantId: string; tenantName: string }) => {
      const r = byTenant.get(t.tenantId) ?? { tenantId: t.tenantId, tenantName: t.tenantName, ok: 0, failed: 0 };
      byTenant.set(t.tenantId, r);
      return r;
    };
    for (const t of ok.data ?? []) row(t).ok = t.count;
    for (const t of failed.data ?? []) row(t).failed = t.count;
    return [...byTenant.values()].sort((a, b) => b.ok + b.failed - (a.ok + a.failed) || a.tenantName.localeCompare(b.tenantName));
  }, [ok.data, failed.data]);
  const total = rows.reduce((s, r) => s + r.ok + r.failed, 0);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl" data-testid="stat-log-dialog">
        <DialogHeader>
          <DialogTitle>接口调用统计</DialogTitle>
          <DialogDescription>各公司在所选日期内调用美客多接口的次数（含首尾两天），成功指接口返回 2xx。</DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap items-center gap-2">
          <DateInput value={first} onChange={setFirst} max={last} aria-label="开始日期" className="w-36" data-testid="stat-log-start" />
          <span className="text-muted-foreground text-sm">至</span>
          <DateInput value={last} onChange={setLast} min={first} aria-label="结束日期" className="w-36" data-testid="stat-log-end" />
          {range ? (
            <span className="text-muted-foreground ml-auto text-sm" data-testid="stat-log-total">
              共 {rows.length} 家公司，{total.toLocaleString("zh-CN")} 次调用
            </span>
          ) : (
            <span className="text-destructive text-sm">请选择有效的日期范围</span>
          )}
        </div>
        <div className="max-h-[60vh] overflow-auto">
          <DataTable
            aria-label="接口调用统计"
            columns={columns}
            rows={rows}
            rowKey={(r) => r.tenantId}
            loading={ok.isFetching || failed.isFetching}
            emptyText={ok.isError || failed.isError ? "统计加载失败，请稍后重试" : "所选日期内没有接口调用"}
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
