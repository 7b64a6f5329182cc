// The authorization centre's columns: on /module-auth/auth the grants held (查看商品), the applications received (通过 /
// 驳回 / 撤销授权) and the grantor's products in the 查看商品 dialog; on /module-auth/apply the company's own applications
// (重新申请).
import { PackageSearch } from "lucide-react";
import { ModuleAuthStatus } from "#shared/contract/enums.ts";
import type { ModuleAuth } from "#shared/contract/module-auth.ts";
import type { ProductListItem } from "#shared/contract/product.ts";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Thumb } from "../../components/list/thumb.tsx";
import { formatPrice } from "../../lib/format.ts";
import { AuthStatusBadge, contentText, timeCell } from "./status.tsx";

/** The grants the company holds, each with 查看商品. */
export function heldColumns(onOpen: (a: ModuleAuth) => void): DataTableColumn<ModuleAuth>[] {
  return [
    { id: "authTenantName", header: "授权公司", cell: (a) => <span className="font-medium">{a.authTenantName}</span> },
    { id: "authContent", header: "授权内容", width: 180, cell: (a) => contentText(a.authContent) },
    { id: "auditTime", header: "授权时间", width: 170, cell: (a) => timeCell(a.auditTime) },
    { id: "expireTime", header: "到期时间", width: 170, cell: (a) => timeCell(a.expireTime) },
    {
      id: "actions",
      header: "操作",
      width: 110,
      cell: (a) => (
        <Button variant="ghost" size="sm" onClick={() => onOpen(a)} data-testid="auth-open-products">
          <PackageSearch />
          查看商品
        </Button>
      ),
    },
  ];
}

export type GivenRowActions = {
  approve: (a: ModuleAuth) => void;
  reject: (a: ModuleAuth) => void;
  revoke: (a: ModuleAuth) => void;
  /** An audit or a revoke is on its way: the buttons wait. */
  busy: boolean;
};

/** The applications made to the company: 通过 / 驳回 a pending one, 撤销授权 a grant in force. */
export function givenColumns(actions: GivenRowActions): DataTableColumn<ModuleAuth>[] {
  return [
    { id: "tenantName", header: "申请公司", cell: (a) => <span className="font-medium">{a.tenantName}</span> },
    { id: "authContent", header: "申请内容", width: 160, cell: (a) => contentText(a.authContent) },
    { id: "expireTime", header: "到期时间", width: 170, cell: (a) => timeCell(a.expireTime) },
    { id: "auditStatus", header: "状态", width: 90, cell: (a) => <AuthStatusBadge status={a.auditStatus} /> },
    { id: "creationTime", header: "申请时间", width: 170, cell: (a) => timeCell(a.creationTime) },
    {
      id: "remark",
      header: "备注 / 原因",
      cell: (a) => <span className="text-muted-foreground">{[a.remark, a.reason].filter(Boolean).join(" / ") || "-"}</span>,
    },
    {
      id: "actions",
      header: "操作",
      width: 150,
      cell: (a) =>
        a.auditStatus === ModuleAuthStatus.Pending ? (
          <div className="flex gap-1">
            <Button size="sm" disabled={actions.busy} onClick={() => actions.approve(a)} data-testid="auth-approve">
              通过
            </Button>
            <Button size="sm" variant="outline" disabled={actions.busy} onClick={() => actions.reject(a)} data-testid="auth-reject">
              驳回
            </Button>
          </div>
        ) : a.auditStatus === ModuleAuthStatus.Approved ? (
          <Button size="sm" variant="ghost" disabled={actions.busy} onClick={() => actions.revoke(a)} data-testid="auth-revoke">
            撤销授权
          </Button>
        ) : null,
    },
  ];
}

/** The grantor's products seen through a grant. */
export const grantProductColumns: DataTableColumn<ProductListItem>[] = [
  { id: "image", header: "图片", width: 72, cell: (p) => <Thumb src={p.image} alt={p.titleText} size={40} /> },
  { id: "titleText", header: "标题", cell: (p) => <span className="line-clamp-2">{p.titleText || "-"}</span> },
  { id: "sku", header: "SKU", width: 150, cell: (p) => p.sku ?? "-" },
  {
    id: "price",
    header: "价格",
    width: 120,
    align: "right",
    cell: (p) => <span className="tabular-nums">{formatPrice(p.price, null, p.currency)}</span>,
  },
  { id: "creationTime", header: "创建时间", width: 170, cell: (p) => timeCell(p.creationTime) },
];

const canReApply = (a: ModuleAuth) => a.auditStatus === ModuleAuthStatus.Rejected || a.auditStatus === ModuleAuthStatus.Expired;

/** The company's own applications: 重新申请 one refused or expired. */
export function applicationColumns(onReApply: (a: ModuleAuth) => void): DataTableColumn<ModuleAuth>[] {
  return [
    { id: "authTenantName", header: "授权公司", cell: (a) => <span className="font-medium">{a.authTenantName}</span> },
    { id: "authContent", header: "申请内容", width: 160, cell: (a) => contentText(a.authContent) },
    { id: "expireTime", header: "到期时间", width: 170, cell: (a) => timeCell(a.expireTime) },
    { id: "auditStatus", header: "状态", width: 90, cell: (a) => <AuthStatusBadge status={a.auditStatus} /> },
    { id: "creationTime", header: "申请时间", width: 170, cell: (a) => timeCell(a.creationTime) },
    { id: "reason", header: "审核意见", cell: (a) => <span className="text-muted-foreground">{a.reason || "-"}</span> },
    {
      id: "actions",
      header: "操作",
      width: 110,
      cell: (a) =>
        canReApply(a) ? (
          <Button variant="ghost" size="sm" onClick={() => onReApply(a)} data-testid="auth-reapply">
            重新申请
          </Button>
        ) : null,
    },
  ];
}
