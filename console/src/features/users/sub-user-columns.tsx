// The sub-account table's columns: identity, contact, the enable switch, the per-user limits, creation time and the
// row actions (edit, reset password, clear data); and 子账号统计's (products and sales per user).
import type { SubUser } from "#shared/contract/users.ts";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Switch } from "#shared/ui/switch.tsx";
import { DateCell } from "../../components/list/date-cell.tsx";
import { formatAmount } from "../../lib/format.ts";
import { formatLimit } from "./format.ts";

export type SubUserRowActions = {
  onToggleActive: (user: SubUser, enable: boolean) => void;
  onEdit: (user: SubUser) => void;
  onResetPassword: (user: SubUser) => void;
  onClear: (user: SubUser) => void;
  /** Users whose enable/disable call is on its way (their switch waits). */
  pendingIds: ReadonlySet<string>;
};

const actionClass = "text-primary hover:text-primary h-7 px-2";
const dangerClass = "text-destructive hover:text-destructive hover:bg-destructive/10 h-7 px-2";

const dash = (v: string | null) => v || <span className="text-muted-foreground">-</span>;
const limitCell = (v: number | null) => <span className={v == null ? "text-muted-foreground" : "tabular-nums"}>{formatLimit(v)}</span>;

export function subUserColumns(a: SubUserRowActions): DataTableColumn<SubUser>[] {
  return [
    {
      id: "userName",
      header: "用户名",
      cell: (u) => (
        <div className="flex min-w-0 flex-col">
          <span className="font-medium" data-testid="sub-user-name">
            {u.userName}
          </span>
          {u.remark ? (
            <span className="text-muted-foreground max-w-56 truncate text-xs" title={u.remark}>
              {u.remark}
            </span>
          ) : null}
        </div>
      ),
    },
    { id: "email", header: "邮箱", cell: (u) => dash(u.email) },
    { id: "phoneNumber", header: "手机号", width: 130, cell: (u) => dash(u.phoneNumber) },
    {
      id: "isActive",
      header: "状态",
      width: 100,
      cell: (u) => (
        <label className="flex items-center gap-2 whitespace-nowrap">
          <Switch
            checked={u.isActive}
            disabled={a.pendingIds.has(u.id)}
            onCheckedChange={(next) => a.onToggleActive(u, next)}
            aria-label={u.isActive ? `禁用 ${u.userName}` : `启用 ${u.userName}`}
            data-testid="sub-user-active-switch"
          />
          <span className={u.isActive ? "text-success text-xs" : "text-muted-foreground text-xs"}>{u.isActive ? "启用" : "禁用"}</span>
        </label>
      ),
    },
    { id: "limitMeliAccount", header: "店铺数上限", width: 96, align: "right", cell: (u) => limitCell(u.limitMeliAccount) },
    { id: "collectCount", header: "采集数上限", width: 96, align: "right", cell: (u) => limitCell(u.collectCount) },
    { id: "productCount", header: "产品数上限", width: 96, align: "right", cell: (u) => limitCell(u.productCount) },
    {
      id: "creationTime",
      header: "创建时间",
      width: 160,
      cell: (u) => <DateCell iso={u.creationTime} />,
    },
    {
      id: "actions",
      header: "操作",
      width: 210,
      cell: (u) => (
        <div className="-ml-2 flex items-center gap-0.5 whitespace-nowrap">
          <Button variant="ghost" size="sm" className={actionClass} onClick={() => a.onEdit(u)} data-testid="sub-user-edit">
            编辑
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className={actionClass}
            onClick={() => a.onResetPassword(u)}
            data-testid="sub-user-reset-password"
          >
            重置密码
          </Button>
          <Button variant="ghost" size="sm" className={dangerClass} onClick={() => a.onClear(u)} data-testid="sub-user-clear">
            清除数据
          </Button>
        </div>
      ),
    },
  ];
}

/** One account's figures over the range (GetSubUserStaticInfo). */
export type StatRow = { userId: string; userName: string; productCount: number; totalAmount: string };

/** 子账号统计: the user name, the products and the sales over the range. */
export const subUserStatColumns: DataTableColumn<StatRow>[] = [
  { id: "userName", header: "用户名", cell: (r) => <span className="font-medium">{r.userName}</span> },
  {
    id: "productCount",
    header: "产品数",
    align: "right",
    width: 160,
    cell: (r) => <span className="tabular-nums">{r.productCount.toLocaleString("zh-CN")}</span>,
  },
  {
    id: "totalAmount",
    header: "销售额",
    align: "right",
    width: 200,
    cell: (r) => <span className="tabular-nums">{formatAmount(r.totalAmount)}</span>,
  },
];
