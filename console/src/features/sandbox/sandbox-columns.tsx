// The sandbox page's order table: the order id, the item, the order's and the shipment's status, when it was placed.
import type { SandboxOrder } from "#shared/contract/meli-sandbox.ts";
import { shipmentStatusLabel } from "#shared/contract/orders.ts";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";

const statusLabels: Record<string, string> = {
  paid: "已付款",
  payment_required: "待付款",
  payment_in_process: "付款中",
  cancelled: "已取消",
};

/** The sandbox's newest orders. */
export const sandboxOrderColumns: DataTableColumn<SandboxOrder>[] = [
  { id: "id", header: "订单号", width: 190, cell: (o) => <span className="font-mono text-xs">{o.id}</span> },
  { id: "title", header: "商品", cell: (o) => `${o.title}${o.itemId ? `（${o.itemId}）` : ""}` },
  { id: "status", header: "订单状态", width: 100, cell: (o) => statusLabels[o.status] ?? o.status },
  {
    id: "shipment",
    header: "物流状态",
    width: 100,
    cell: (o) => shipmentStatusLabel(o.shipmentStatus) ?? "—",
  },
  { id: "created", header: "下单时间", width: 170, cell: (o) => formatDateTime(o.dateCreated) },
];
