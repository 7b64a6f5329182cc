// Margin that follows the rate in the listing centre (issue 32): the 利润率 column (now, by today's rates, fees and
// shop rule, against when priced), and the 重新定价 dialog: a dry run's preview of old and new price and margin, then
// the batch (its progress follows above the table as every batch's), and the undo of the batch just started.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { MarginDriftPage, RepriceResult } from "#shared/contract/margin-drift.ts";
import { formatMoney } from "#shared/publish/price.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { ListingKind } from "./api/listings.ts";
import { previewReprice, useReprice, useUndoReprice, type RepriceBody } from "./api/margin-drift.ts";
import type { ListingTableRow } from "./listing-columns.tsx";

type DriftRow = MarginDriftPage["items"][number];

/** The margin filter's choices (GetMarginDrift `margin`). */
export const MARGIN_FILTERS = { low: "利润率低于店铺最低", negative: "亏损（利润为负）" } as const;

const tone = { negative: "text-destructive", low: "text-warning", ok: "text-success" } as const;
const money = (minor: number | null, currency: string | null) => (minor === null || !currency ? "—" : formatMoney(minor, currency));

/** The 利润率 column: the margin now (coloured against the shop's minimum) over the margin when priced. */
export function marginColumn(driftOf: (id: string) => DriftRow | undefined): DataTableColumn<ListingTableRow> {
  return {
    id: "margin",
    header: "利润率（当前/定价时）",
    width: 120,
    align: "right",
    cell: (r) => {
      const d = driftOf(r.id);
      if (!d) return <span className="text-muted-foreground text-xs">—</span>;
      if (!d.now)
        return (
          <span className="text-muted-foreground text-xs" title={d.reason ?? ""}>
            无法计算
          </span>
        );
      const moved = d.priced && d.priced.marginPercent !== d.now.marginPercent;
      return (
        <div
          className="flex flex-col items-end text-xs tabular-nums"
          data-testid={`listing-margin-${r.id}`}
          data-status={d.now.status}
          title={`店铺最低利润率 ${d.minMargin}%；当前汇率 ${d.now.rate}${d.priced ? `，定价时 ${d.priced.rate}` : ""}`}
        >
          <span className={tone[d.now.status]}>{d.now.marginPercent}%</span>
          <span className="text-muted-foreground">
            {d.priced ? `${d.priced.marginPercent}%` : "—"}
            {moved ? " ⇢" : ""}
          </span>
        </div>
      );
    },
  };
}

/**
 * 重新定价: the selection (ids, or the filter with its margin filter) priced by the formula today. Opening runs the dry
 * run; 确认 starts the batch (onStarted shows its progress) and leaves 撤销 for it until the dialog closes.
 */
export function RepriceDialog(p: {
  kind: ListingKind;
  body: RepriceBody;
  onClose: () => void;
  onStarted: (t: { taskId: string; total: number; label: string }) => void;
}) {
  const preview = useQuery({
    queryKey: ["repricePreview", p.kind, p.body],
    queryFn: () => previewReprice(p.kind, p.body),
    staleTime: 0,
    gcTime: 0,
  });
  const apply = useReprice(p.kind);
  const undo = useUndoReprice(p.kind);
  const [taskId, setTaskId] = useState<string | null>(null);
  const r: RepriceResult | undefined = preview.data;
  const busy = apply.isPending || undo.isPending;
  return (
    <Dialog open onOpenChange={(o) => !o && !busy && p.onClose()}>
      <DialogContent className="sm:max-w-3xl" data-testid="reprice-dialog">
        <DialogHeader>
          <DialogTitle>重新定价</DialogTitle>
          <DialogDescription>
            按刊登时的同一公式，以当前汇率、类目费率和店铺定价规则重新计算售价；逐条修改美客多上的价格（与批量改价同一通道），原价格保留，可撤销。
          </DialogDescription>
        </DialogHeader>
        {!r ? (
          <div className="flex items-center gap-2 text-sm" data-testid="reprice-loading">
            <Spinner /> 正在计算…
          </div>
        ) : (
          <div className="flex flex-col gap-2 text-sm">
            <p data-testid="reprice-summary" data-changed={r.changed}>
              共 <b className="tabular-nums">{r.total}</b> 条：需改价 <b className="tabular-nums">{r.changed}</b> 条，无法计算{" "}
              <b className="tabular-nums">{r.unpriced}</b> 条，其余价格不变。
            </p>
            {r.changes.length ? (
              <div className="max-h-80 overflow-auto rounded-md border">
                <table className="w-full text-xs" data-testid="reprice-preview">
                  <thead className="bg-muted/50 sticky top-0">
                    <tr className="text-left">
                      <th className="px-2 py-1">商品ID</th>
                      <th className="px-2 py-1 text-right">原价</th>
                      <th className="px-2 py-1 text-right">新价</th>
                      <th className="px-2 py-1 text-right">当前利润率</th>
                      <th className="px-2 py-1 text-right">新利润率</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.changes.map((c) => (
                      <tr key={c.id} className="border-t" data-testid={`reprice-row-${c.id}`}>
                        <td className="px-2 py-1">{c.itemId}</td>
                        <td className="px-2 py-1 text-right tabular-nums">{money(c.listingPrice, c.listingCurrency)}</td>
                        <td className="px-2 py-1 text-right tabular-nums">{money(c.nextListingPrice, c.listingCurrency)}</td>
                        <td className="px-2 py-1 text-right tabular-nums">{c.marginNow ? `${c.marginNow.marginPercent}%` : "—"}</td>
                        <td className="px-2 py-1 text-right tabular-nums">{c.marginNext.marginPercent}%</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
            {r.changed > r.changes.length ? <p className="text-muted-foreground text-xs">仅列出前 {r.changes.length} 条</p> : null}
            {r.reasons.length ? (
              <p className="text-muted-foreground text-xs" data-testid="reprice-reasons">
                无法计算：{[...new Set(r.reasons.map((x) => x.reason))].join("；")}
              </p>
            ) : null}
            {taskId ? (
              <Badge variant="outline" data-testid="reprice-started">
                已开始重新定价，进度见列表上方
              </Badge>
            ) : null}
          </div>
        )}
        <DialogFooter>
          {taskId ? (
            <Button
              variant="outline"
              loading={undo.isPending}
              onClick={() =>
                undo.mutate(taskId, {
                  onSuccess: (t) => {
                    toast.success("已开始撤销，恢复原价格");
                    p.onStarted({ ...t, label: "撤销重新定价" });
                    p.onClose();
                  },
                })
              }
              data-testid="reprice-undo"
            >
              撤销（恢复原价格）
            </Button>
          ) : null}
          <Button variant="outline" onClick={p.onClose} disabled={busy}>
            {taskId ? "关闭" : "取消"}
          </Button>
          {!taskId ? (
            <Button
              loading={apply.isPending}
              disabled={!r || r.changed === 0}
              onClick={() =>
                apply.mutate(p.body, {
                  onSuccess: (res) => {
                    if (!res.taskId) return;
                    setTaskId(res.taskId);
                    p.onStarted({ taskId: res.taskId, total: res.changed, label: "重新定价" });
                  },
                })
              }
              data-testid="reprice-submit"
            >
              确认改价（{r?.changed ?? 0} 条）
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
