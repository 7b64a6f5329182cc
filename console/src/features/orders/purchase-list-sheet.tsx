// 采购单 (issue 32): what to buy for the list filter's ready-to-ship orders, by source shop, one line per offer and
// variant with its quantity summed over the orders (去采购 opens the offer on the variant), each line marked bought with
// its unit cost and the purchase order's number (every order line of it gets its share, which then counts in that
// order's profit), and the list exported as xlsx (a task, then its file).
import { FileSpreadsheet, ShoppingCart } from "lucide-react";
import { useState } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import type { PurchaseListLine } from "#shared/contract/order-sources.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { Thumb } from "../../components/list/thumb.tsx";
import { ExportTaskDialog } from "../../components/task/task-progress.tsx";
import {
  purchaseFilterOf,
  useDownloadPurchaseList,
  useExportPurchaseList,
  useMarkBought,
  usePurchaseList,
  type PurchaseFilter,
} from "./api/order-sources.ts";
import { PurchaseLink } from "./order-sources-section.tsx";
import { moneyText } from "./order-names.ts";
import type { OrderQuery } from "./order-search-params.ts";

function MarkBoughtForm({ line, onDone }: { line: PurchaseListLine; onDone: () => void }) {
  const [unitCost, setUnitCost] = useState(line.source?.lastKnownPrice != null ? String(line.source.lastKnownPrice) : "");
  const [no, setNo] = useState("");
  const mark = useMarkBought();
  const open = line.orders.filter((o) => !o.purchase);
  const cost = Number(unitCost);
  const valid = unitCost.trim() !== "" && Number.isFinite(cost) && cost >= 0;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="purchase-mark-form">
      <Input
        className="h-7 w-24"
        inputMode="decimal"
        placeholder="单价"
        aria-label="采购单价"
        value={unitCost}
        onChange={(e) => setUnitCost(e.target.value)}
        data-testid="purchase-unit-cost"
      />
      <Input
        className="h-7 w-36"
        placeholder="采购单号"
        aria-label="采购单号"
        maxLength={100}
        value={no}
        onChange={(e) => setNo(e.target.value)}
        data-testid="purchase-order-no"
      />
      <Button
        size="sm"
        disabled={!valid || !open.length}
        loading={mark.isPending}
        onClick={() =>
          mark.mutate(
            { lines: open, unitCost: Math.round(cost * 100) / 100, purchaseOrderNo: no.trim() },
            {
              onSuccess: () => {
                toast.success(`已标记采购 ${open.reduce((n, o) => n + o.quantity, 0)} 件`);
                onDone();
              },
            },
          )
        }
        data-testid="purchase-mark-save"
      >
        标记已采购
      </Button>
    </div>
  );
}

function LineRow({ l }: { l: PurchaseListLine }) {
  const [marking, setMarking] = useState(false);
  const s = l.source;
  const done = l.boughtQuantity >= l.quantity;
  return (
    <div className="flex flex-col gap-1.5 p-2 text-xs" data-testid="purchase-line" data-key={l.key}>
      <div className="flex items-center gap-3">
        <Thumb src={l.thumb} alt={l.title} size={40} />
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="line-clamp-1 font-medium">{l.title}</span>
          <span className="text-muted-foreground truncate">
            {s?.variant ? `SKU ${s.variant.sku}${s.variant.values.length ? ` · ${s.variant.values.join(" / ")}` : ""}` : "未匹配到来源规格"}
            {" · "}订单 {[...new Set(l.orders.map((o) => o.orderNo))].join("，")}
          </span>
        </div>
        <div className="flex shrink-0 flex-col items-end gap-0.5 tabular-nums">
          <span className="font-semibold" data-testid="purchase-line-quantity">
            × {l.quantity}
          </span>
          <span className="text-muted-foreground">
            {s?.lastKnownPrice != null
              ? `${moneyText(s.lastKnownPrice, s.currency)} · 约 ${moneyText(l.estimatedCost, s.currency)}`
              : "无价格"}
          </span>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2 pl-[52px]">
        <PurchaseLink url={s?.purchaseUrl} testId="purchase-line-link" />
        {done ? (
          <Badge variant="success" data-testid="purchase-line-bought">
            已采购
          </Badge>
        ) : l.boughtQuantity ? (
          <Badge variant="warning">
            已采购 {l.boughtQuantity}/{l.quantity}
          </Badge>
        ) : null}
        {!done && !marking ? (
          <Button size="sm" variant="outline" className="h-7" onClick={() => setMarking(true)} data-testid="purchase-line-mark">
            <ShoppingCart />
            标记已采购
          </Button>
        ) : null}
        {marking && !done ? <MarkBoughtForm line={l} onDone={() => setMarking(false)} /> : null}
      </div>
    </div>
  );
}

export function PurchaseListSheet({ filter, onClose }: { filter: OrderQuery; onClose: () => void }) {
  const f: PurchaseFilter = purchaseFilterOf(filter);
  const list = usePurchaseList(f, true);
  const exporting = useExportPurchaseList();
  const download = useDownloadPurchaseList();
  const [taskId, setTaskId] = useState<string | null>(null);
  const groups = list.data?.groups ?? [];
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="w-full sm:max-w-2xl" data-testid="purchase-sheet">
        <SheetHeader>
          <SheetTitle>采购单</SheetTitle>
          <SheetDescription>
            当前筛选下待发货订单要采购的货源：按来源店铺分组，同一货源规格的数量合计。标记已采购的采购成本计入订单利润。
          </SheetDescription>
        </SheetHeader>
        <div className="flex flex-col gap-4 overflow-auto px-4 pb-6">
          <div className="flex items-center gap-2">
            <Button
              size="sm"
              variant="outline"
              disabled={!groups.length}
              loading={exporting.isPending}
              onClick={() => exporting.mutate(f, { onSuccess: (r) => setTaskId(r.taskId) })}
              data-testid="purchase-export"
            >
              <FileSpreadsheet />
              导出 Excel
            </Button>
            {list.data?.truncated ? <span className="text-warning text-xs">订单过多，仅显示前 5000 行，请缩小筛选范围</span> : null}
          </div>
          {list.isLoading ? <Spinner /> : null}
          {!list.isLoading && !groups.length ? (
            <p className="text-muted-foreground text-sm" data-testid="purchase-empty">
              没有待采购的订单
            </p>
          ) : null}
          {groups.map((g) => (
            <section key={g.shopId ?? g.shopName ?? "none"} className="flex flex-col gap-2" data-testid="purchase-group">
              <h3 className="flex items-center gap-2 text-sm font-semibold">
                {g.shopUrl ? (
                  <a href={g.shopUrl} target="_blank" rel="noreferrer" className="hover:text-primary">
                    {g.shopName ?? g.shopId}
                  </a>
                ) : (
                  (g.shopName ?? (g.shopId || "来源未知"))
                )}
                <span className="text-muted-foreground text-xs font-normal">{g.lines.length} 种</span>
              </h3>
              <div className="divide-y rounded-md border">
                {g.lines.map((l) => (
                  <LineRow key={l.key} l={l} />
                ))}
              </div>
            </section>
          ))}
        </div>
        {taskId ? (
          <ExportTaskDialog
            taskId={taskId}
            taskType={TaskType.ExportPurchaseList}
            title="正在导出采购单"
            description="采购单导出为 Excel，完成后可下载；也可稍后在任务中心查看。"
            download={download}
            testId="purchase-export"
            onClose={() => setTaskId(null)}
          />
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
