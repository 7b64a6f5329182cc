// 子账号统计: per-user figures (products, sales) over a date range, for every account of the company (the main
// account included). The range lives in the URL (from/to); without it the last 30 days are shown.
import { Package, TrendingUp, Users } from "lucide-react";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { Button } from "#shared/ui/button.tsx";
import { DataTable, DataTableToolbar } from "#shared/ui/data-table.tsx";
import { DateInput } from "#shared/ui/date-input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { StatCard } from "#shared/ui/stat-card.tsx";
import { useSubUserStats } from "./api/get-sub-users.ts";
import { formatAmount, localDayRange } from "../../lib/format.ts";
import { subUserStatColumns } from "./sub-user-columns.tsx";
import { lastDays } from "./format.ts";
import { DEFAULT_STATS_DAYS, readStatsRange, writeStatsRange, type StatsRange } from "./search-params.ts";

/** GetSubUserStaticInfo's StartDate/EndDate for a local day range. */
function statsRange(start: string, end: string) {
  const { from, to } = localDayRange(start, end);
  return { ...(from ? { StartDate: from } : {}), ...(to ? { EndDate: to } : {}) };
}

const presets: { label: string; range: () => StatsRange }[] = [
  { label: "近7天", range: () => lastDays(7) },
  { label: "近30天", range: () => lastDays(30) },
  { label: "近90天", range: () => lastDays(90) },
  { label: "全部", range: () => ({ start: "", end: "" }) },
];

export function SubUserStats() {
  const [params, setParams] = useSearchParams();
  const applied = readStatsRange(params, lastDays(DEFAULT_STATS_DAYS));
  const [draft, setDraft] = useState<StatsRange>(applied);
  // The draft follows the applied range when the URL changes it (adjusted while rendering, not in an effect).
  const appliedKey = `${applied.start}|${applied.end}`;
  const [draftOf, setDraftOf] = useState(appliedKey);
  if (draftOf !== appliedKey) {
    setDraftOf(appliedKey);
    setDraft(applied);
  }

  const invalid = !!draft.start && !!draft.end && draft.start > draft.end;
  const apply = (range: StatsRange) => setParams((prev) => writeStatsRange(prev, range), { replace: true });

  const stats = useSubUserStats(statsRange(applied.start, applied.end));
  const rows = stats.data ?? [];
  const totalProducts = rows.reduce((sum, r) => sum + r.productCount, 0);
  const totalAmount = rows.reduce((sum, r) => sum + (Number(r.totalAmount) || 0), 0);
  const loading = stats.isPending;

  return (
    <div className="flex flex-col gap-4">
      <DataTableToolbar className="items-end">
        <div className="flex flex-col gap-1.5">
          <Label>开始日期</Label>
          <DateInput
            aria-label="开始日期"
            className="w-40"
            value={draft.start}
            max={draft.end || undefined}
            onChange={(start) => setDraft((d) => ({ ...d, start }))}
            data-testid="sub-user-stats-start"
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label>结束日期</Label>
          <DateInput
            aria-label="结束日期"
            className="w-40"
            value={draft.end}
            min={draft.start || undefined}
            onChange={(end) => setDraft((d) => ({ ...d, end }))}
            data-testid="sub-user-stats-end"
          />
        </div>
        <Button onClick={() => apply(draft)} disabled={invalid} loading={stats.isFetching && !loading} data-testid="sub-user-stats-query">
          查询
        </Button>
        <div className="flex flex-wrap items-center gap-1">
          {presets.map((p) => (
            <Button key={p.label} variant="ghost" size="sm" onClick={() => apply(p.range())}>
              {p.label}
            </Button>
          ))}
        </div>
      </DataTableToolbar>
      {invalid ? (
        <p role="alert" className="text-destructive -mt-2 text-xs">
          开始日期不能晚于结束日期
        </p>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard title="账号数" value={rows.length} hint="含主账号" icon={<Users />} loading={loading} />
        <StatCard title="产品数合计" value={totalProducts.toLocaleString("zh-CN")} icon={<Package />} loading={loading} />
        <StatCard title="销售额合计" value={formatAmount(String(totalAmount))} icon={<TrendingUp />} loading={loading} />
      </div>

      <div data-testid="sub-user-stats-table">
        <DataTable
          aria-label="子账号统计"
          columns={subUserStatColumns}
          rows={rows}
          rowKey={(r) => r.userId}
          loading={stats.isFetching}
          emptyText="所选时间范围内没有统计数据"
        />
      </div>
    </div>
  );
}
