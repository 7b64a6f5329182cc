// The orders table's columns: the goods (first line's image and title, how many pieces, its source shop with the
// order's margin at the sources' last known prices and 去采购), the order and pack numbers
// with the shop and site, the buyer and where it ships, the amount with the profit under it, the status with the
// shipment's, the shipping deadline in the seller's time (overdue in red), the order time, and the row actions
// (details, label, re-read). Cells stay within two lines so rows keep one height.
import { FileDown, RefreshCw } from "lucide-react";
import { OrderStatus } from "#shared/contract/enums.ts";
import type { OrderRow } from "#shared/contract/orders.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { purchaseUrlOf } from "#shared/contract/order-sources.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import type { TableDensity } from "#shared/ui/data-table-view.tsx";
import { Thumb } from "../../components/list/thumb.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { PurchaseLink } from "./order-sources-section.tsx";
import { deadlineOf, moneyText, orderMarginOf, orderStatusLabel, orderStatusTones, shipmentStatusLabel } from "./order-names.ts";

export type OrderRowActions = {
  density: TableDensity;
  /** The clock the deadlines are read against (ms; ticks every minute). */
  now: number;
  /** How many orders of each pack this page shows. */
  packSizes: Map<string, number>;
  onOpen: (row: OrderRow) => void;
  onPack: (packId: string) => void;
  onLabel: (row: OrderRow) => void;
  onRefresh: (row: OrderRow) => void;
  /** The order whose label or re-read is under way. */
  busy: string | null;
  /** Whether the order arrived while the screen was open (marked 新). */
  isFresh: (id: string) => boolean;
};

const siteCode = (site: number) => MELI_SITES[site as keyof typeof MELI_SITES]?.code.toUpperCase() ?? String(site);

export const deadlineTone = { overdue: "text-destructive font-medium", soon: "text-warning", ok: "text-muted-foreground" } as const;

/** The amount, and the profit under it: red (with the reason) for a loss or a margin under the shop's minimum. */
function AmountCell({ row: r }: { row: OrderRow }) {
  const cancelled = r.orderStatus === OrderStatus.Cancelled;
  const margin = orderMarginOf(r);
  const why = r.profitDetail.complete ? "利润 = 售价 − 佣金 − 运费 − 商品成本" : `成本不完整：${r.profitDetail.missing.join("；")}`;
  return (
    <div className="flex flex-col items-end gap-0.5 text-xs tabular-nums">
      <span className="whitespace-nowrap" data-testid="order-amount">
        {moneyText(r.totalAmount, r.currency)}
      </span>
      <span
        className={cn(
          "whitespace-nowrap",
          cancelled ? "text-muted-foreground line-through" : margin.warning ? "text-destructive font-medium" : "text-success",
        )}
        title={cancelled ? "订单已取消，不计利润" : margin.warning ? `${margin.warning}\n${why}` : `利润率 ${margin.percent}%；${why}`}
        data-margin={cancelled ? undefined : margin.status}
        data-testid="order-profit"
      >
        {margin.warning && !cancelled ? "! " : ""}利润 {moneyText(r.profit)}
        {r.profitDetail.complete ? "" : " *"}
      </span>
    </div>
  );
}

/** The margin at the sources' last known prices (bought lines at their cost), as the drawer's 货源 section reads it. */
function SourceMarginText({ m }: { m: OrderRow["sourceMargin"] }) {
  if (!m || m.margin === null) return null;
  const why = `按货源最新价格（已采购按采购成本）：成本 ${moneyText(m.cost, m.currency)}，利润 ${moneyText(m.profit, m.currency)}`;
  return (
    <span
      className={cn("shrink-0 tabular-nums", m.profit < 0 ? "text-destructive font-medium" : "text-success")}
      title={m.complete ? why : `${why}\n${m.missing.join("；")}`}
      data-testid="order-source-margin-row"
    >
      货源利润率 {m.margin}%{m.complete ? "" : " *"}
    </span>
  );
}

export function orderColumns(a: OrderRowActions): DataTableColumn<OrderRow>[] {
  const compact = a.density === "compact";
  return [
    {
      id: "goods",
      header: "商品",
      hideable: false,
      cell: (r) => {
        const first = r.items[0];
        const pieces = r.items.reduce((n, i) => n + i.num, 0);
        return (
          <div className="flex min-w-0 items-center gap-2" data-testid={`order-row-${r.orderNo}`} data-fresh={a.isFresh(r.id)}>
            {a.isFresh(r.id) ? (
              <span className="bg-primary text-primary-foreground shrink-0 rounded px-1 text-[10px]" data-testid="order-fresh">
                新
              </span>
            ) : null}
            <Thumb src={r.thumb ?? first?.thumb} alt={first?.title ?? "商品图片"} size={compact ? 36 : 48} />
            <div className="flex min-w-0 flex-col gap-0.5">
              <button
                type="button"
                className="hover:text-primary line-clamp-1 text-left text-xs font-medium"
                title={first?.title ?? ""}
                onClick={() => a.onOpen(r)}
              >
                {first?.title ?? "-"}
              </button>
              <span className="text-muted-foreground line-clamp-1 text-xs">
                {r.items.length > 1 ? `${r.items.length} 种商品，` : ""}共 {pieces} 件{first?.sku ? ` · SKU ${first.sku}` : ""}
              </span>
              {first?.source?.offerUrl || r.sourceMargin ? (
                <span className="text-muted-foreground flex min-w-0 items-center gap-1 text-xs" data-testid="order-row-source">
                  <span className="truncate">{first?.source?.shopName ?? "货源"}</span>
                  <SourceMarginText m={r.sourceMargin} />
                  {first?.source?.offerUrl ? (
                    <PurchaseLink url={purchaseUrlOf(first.source.platformType, first.source.offerUrl, first.sku)} />
                  ) : null}
                </span>
              ) : null}
            </div>
          </div>
        );
      },
    },
    {
      id: "order",
      header: "订单号 / 店铺",
      width: 170,
      cell: (r) => (
        <div className="flex min-w-0 flex-col gap-0.5 text-xs">
          <span className="flex items-center gap-1">
            <span className="font-mono tabular-nums" data-testid="order-no">
              {r.orderNo}
            </span>
            {r.packId ? (
              <button
                type="button"
                className="text-primary shrink-0 text-[11px] hover:underline"
                title={`合并订单 ${r.packId}：查看同一包裹的全部订单`}
                onClick={() => a.onPack(r.packId!)}
                data-testid="order-pack"
              >
                合并{(a.packSizes.get(r.packId) ?? 0) > 1 ? `×${a.packSizes.get(r.packId)}` : ""}
              </button>
            ) : null}
          </span>
          <span className="text-muted-foreground flex min-w-0 items-center gap-1">
            <Badge variant="outline" className="px-1 py-0 text-[10px]">
              {siteCode(r.site)}
            </Badge>
            <span className="truncate">{r.shopName ?? "-"}</span>
          </span>
        </div>
      ),
    },
    {
      id: "buyer",
      header: "买家 / 收货地",
      width: 140,
      cell: (r) => {
        const where = [r.recieveAddress?.city, r.recieveAddress?.state].filter(Boolean).join("，");
        return (
          <div className="flex min-w-0 flex-col gap-0.5 text-xs">
            <span className="truncate">{r.recieveAddress?.name || r.buyerNickname || "-"}</span>
            <span className="text-muted-foreground truncate" title={r.recieveAddress?.address ?? ""}>
              {where || "-"}
            </span>
          </div>
        );
      },
    },
    {
      id: "amount",
      header: "金额 / 利润",
      width: 120,
      align: "right",
      cell: (r) => <AmountCell row={r} />,
    },
    {
      id: "status",
      header: "状态",
      width: 96,
      cell: (r) => (
        <div className="flex flex-col items-start gap-0.5">
          <Badge variant={orderStatusTones[r.orderStatus] ?? "outline"} data-testid="order-status" data-status={r.orderStatus}>
            {orderStatusLabel(r.orderStatus)}
          </Badge>
          <span
            className="text-muted-foreground truncate text-[11px]"
            title={[r.shipmentStatus, r.shipmentSubstatus].filter(Boolean).join(" / ")}
          >
            {shipmentStatusLabel(r.shipmentStatus) ?? r.meliStatus}
          </span>
        </div>
      ),
    },
    {
      id: "deadline",
      header: "发货截止",
      width: 116,
      cell: (r) => {
        const d = deadlineOf(r.mustSendTime, r.orderStatus, a.now);
        return (
          <div className="flex flex-col gap-0.5 text-xs" data-testid="order-deadline" data-state={d?.state ?? "none"}>
            <span className="tabular-nums" title={formatDateTime(r.mustSendTime)}>
              {r.mustSendTime ? formatDateTime(r.mustSendTime).slice(5, 16) : "-"}
            </span>
            {d ? <span className={cn("text-[11px]", deadlineTone[d.state])}>{d.text}</span> : null}
          </div>
        );
      },
    },
    {
      id: "orderTime",
      header: "下单时间",
      width: 100,
      cell: (r) => (
        <div className="flex flex-col text-xs tabular-nums" title={formatDateTime(r.orderTime)}>
          <span>{formatDateTime(r.orderTime).slice(0, 10)}</span>
          <span className="text-muted-foreground">{formatDateTime(r.orderTime).slice(11, 16)}</span>
        </div>
      ),
    },
    {
      id: "actions",
      header: "操作",
      width: 136,
      cell: (r) => (
        <div className="-ml-2 flex items-center">
          <Button variant="ghost" size="sm" className="text-primary h-7 px-1.5" onClick={() => a.onOpen(r)} data-testid="order-open">
            详情
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="text-primary h-7 px-1.5"
            disabled={!r.labelReady || a.busy === r.id}
            title={r.labelReady ? "下载面单（PDF）" : "订单可发货（待打单）后才能下载面单"}
            onClick={() => a.onLabel(r)}
            data-testid="order-label"
          >
            <FileDown className="size-3.5" />
            面单
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label="从美客多同步该订单"
            title="从美客多同步该订单"
            disabled={a.busy === r.id}
            onClick={() => a.onRefresh(r)}
            data-testid="order-refresh"
          >
            <RefreshCw className="size-3.5" />
          </Button>
        </div>
      ),
    },
  ];
}
