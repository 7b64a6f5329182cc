// The sub-account package tables' columns: the seller's purchases (/payment/package), and the host's packages on offer
// and every tenant's purchases (/admin/package). Amounts in yuan.
import { Pencil } from "lucide-react";
import type { HostSubAccOrder, SubAccOrder, SubAccPackage } from "#shared/contract/subaccount-orders.ts";
import { formatYuan } from "#shared/contract/wallet.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";

const time = (iso: string) => <span className="tabular-nums">{formatDateTime(iso)}</span>;
const yuan = (v: number) => <span className="tabular-nums">{formatYuan(v)}</span>;
const purchaseState = (o: { isActive: boolean }) => (o.isActive ? <Badge>生效中</Badge> : <Badge variant="secondary">已过期</Badge>);

/** The company's own purchases. */
export const myOrderColumns: DataTableColumn<SubAccOrder>[] = [
  { id: "creationTime", header: "购买时间", width: 180, cell: (o) => time(o.creationTime) },
  { id: "packageName", header: "套餐", cell: (o) => o.packageName },
  { id: "count", header: "子账号数", width: 100, align: "right", cell: (o) => o.count },
  { id: "days", header: "有效天数", width: 100, align: "right", cell: (o) => o.days },
  { id: "moeny", header: "金额", width: 130, align: "right", cell: (o) => yuan(o.moeny) },
  { id: "expireTime", header: "到期时间", width: 180, cell: (o) => time(o.expireTime) },
  { id: "isActive", header: "状态", width: 90, cell: purchaseState },
];

/** The packages as the host keeps them (withdrawn ones too), each with 编辑. */
export function packageColumns(onEdit: (p: SubAccPackage) => void): DataTableColumn<SubAccPackage>[] {
  return [
    { id: "name", header: "套餐名称", cell: (p) => <span className="font-medium">{p.name}</span> },
    { id: "count", header: "子账号数", width: 100, align: "right", cell: (p) => p.count },
    { id: "days", header: "有效天数", width: 100, align: "right", cell: (p) => p.days },
    { id: "price", header: "价格", width: 130, align: "right", cell: (p) => yuan(p.price) },
    { id: "sort", header: "排序", width: 80, align: "right", cell: (p) => p.sort },
    {
      id: "isActive",
      header: "状态",
      width: 90,
      cell: (p) => (p.isActive ? <Badge>上架中</Badge> : <Badge variant="secondary">已下架</Badge>),
    },
    { id: "creationTime", header: "创建时间", width: 180, cell: (p) => time(p.creationTime) },
    {
      id: "actions",
      header: "操作",
      width: 90,
      cell: (p) => (
        <Button variant="ghost" size="sm" onClick={() => onEdit(p)} data-testid="admin-package-edit">
          <Pencil />
          编辑
        </Button>
      ),
    },
  ];
}

/** Every tenant's purchases (the host). */
export const hostPurchaseColumns: DataTableColumn<HostSubAccOrder>[] = [
  { id: "creationTime", header: "购买时间", width: 180, cell: (o) => time(o.creationTime) },
  { id: "inviteTenantName", header: "公司", width: 160, cell: (o) => o.inviteTenantName },
  { id: "packageName", header: "套餐", cell: (o) => o.packageName },
  { id: "remark", header: "内容", width: 160, cell: (o) => o.remark },
  { id: "moeny", header: "金额", width: 120, align: "right", cell: (o) => yuan(o.moeny) },
  { id: "expireTime", header: "到期时间", width: 180, cell: (o) => time(o.expireTime) },
  { id: "isActive", header: "状态", width: 90, cell: purchaseState },
];
