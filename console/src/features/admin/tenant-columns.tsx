// The tenant list's columns: the company, its main account, figures, state, remark and the row actions.
import type { TenantListItem } from "#shared/contract/hosted.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#shared/ui/dropdown-menu.tsx";
import { ChevronDown } from "lucide-react";
import { Fragment } from "react";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatAmount, formatDateTime, formatDay } from "../../lib/format.ts";
import { isLocked, paymentTypeLabel } from "./format.ts";

/** The row's own buttons. */
type RowAction = "info" | "remark" | "unlock" | "reset" | "recommend" | "stats";
/** 更多: moving, copying and maintenance (issue 31), in the menu's order; a separator before each group's first. */
const moreActions = [
  { action: "migrate", label: "迁移店铺" },
  { action: "copyProducts", label: "复制商品", group: true },
  { action: "transferProducts", label: "复制指定商品" },
  { action: "copyCollects", label: "复制采集箱" },
  { action: "copyGroups", label: "复制标签分组" },
  { action: "copyWords", label: "复制侵权词" },
  { action: "recover", label: "恢复已删除商品", group: true },
  { action: "clearCache", label: "清除缓存" },
  { action: "reindex", label: "重建索引" },
  { action: "database", label: "独立数据库", group: true },
  { action: "purge", label: "彻底删除已删除商品", group: true, destructive: true },
  { action: "clearStat", label: "清除美客多统计", destructive: true },
  { action: "removeShops", label: "移除店铺", destructive: true },
  { action: "clear", label: "清空数据", destructive: true },
] as const;
type MoreAction = (typeof moreActions)[number]["action"];
export type TenantAction = RowAction | MoreAction;

export function tenantColumns(onAction: (action: TenantAction, tenant: TenantListItem) => void): DataTableColumn<TenantListItem>[] {
  return [
    {
      id: "tenantName",
      header: "公司名称",
      width: 180,
      cell: (t) => (
        <div className="flex min-w-0 flex-col">
          <span className="truncate font-medium" title={t.tenantName}>
            {t.tenantName}
          </span>
          <span className="text-muted-foreground text-xs">创建于 {formatDay(t.creationTime)}</span>
        </div>
      ),
    },
    {
      id: "mainAccount",
      header: "主账号",
      width: 200,
      cell: (t) => (
        <div className="flex min-w-0 flex-col">
          <span className="truncate">{t.userName ?? "-"}</span>
          {(t.email || t.phoneNumber) && (
            <span className="text-muted-foreground truncate text-xs" title={[t.email, t.phoneNumber].filter(Boolean).join(" · ")}>
              {[t.email, t.phoneNumber].filter(Boolean).join(" · ")}
            </span>
          )}
        </div>
      ),
    },
    {
      id: "subAccountCount",
      header: "子账号",
      width: 80,
      align: "right",
      cell: (t) => <span className="tabular-nums">{t.subAccountCount}</span>,
    },
    {
      id: "balance",
      header: "余额",
      width: 110,
      align: "right",
      cell: (t) => <span className="tabular-nums">{formatAmount(t.balance)}</span>,
    },
    { id: "payment", header: "付费方式", width: 90, cell: (t) => paymentTypeLabel(t.accountPaymentType) },
    {
      id: "expire",
      header: "到期时间",
      width: 110,
      cell: (t) => {
        if (!t.accountExpireTime) return <span className="text-muted-foreground">不限</span>;
        const expired = new Date(t.accountExpireTime).getTime() < Date.now();
        return (
          <span className={expired ? "text-destructive" : undefined} title={expired ? "已过期" : undefined}>
            {formatDay(t.accountExpireTime)}
          </span>
        );
      },
    },
    {
      id: "state",
      header: "状态",
      width: 120,
      cell: (t) => (
        <span className="flex flex-wrap gap-1">
          {t.isActive ? <Badge variant="success">启用</Badge> : <Badge variant="destructive">停用</Badge>}
          {isLocked(t.lockoutEnd) && (
            <Badge variant="warning" title={`锁定至 ${formatDateTime(t.lockoutEnd)}`}>
              已锁定
            </Badge>
          )}
        </span>
      ),
    },
    {
      id: "remark",
      header: "备注",
      cell: (t) =>
        t.remark ? (
          <span className="block truncate" title={t.remark}>
            {t.remark}
          </span>
        ) : (
          <span className="text-muted-foreground">-</span>
        ),
    },
    {
      id: "actions",
      header: "操作",
      width: 420,
      cell: (t) => (
        <div className="-ml-2 flex flex-nowrap gap-0.5">
          <Button variant="link" size="sm" className="px-2" onClick={() => onAction("stats", t)} data-testid={`admin-tenant-stats-${t.id}`}>
            统计
          </Button>
          <Button variant="link" size="sm" className="px-2" onClick={() => onAction("info", t)} data-testid={`admin-tenant-info-${t.id}`}>
            主账号
          </Button>
          <Button
            variant="link"
            size="sm"
            className="px-2"
            onClick={() => onAction("remark", t)}
            data-testid={`admin-tenant-remark-${t.id}`}
          >
            备注
          </Button>
          <Button
            variant="link"
            size="sm"
            className="px-2"
            onClick={() => onAction("unlock", t)}
            data-testid={`admin-tenant-unlock-${t.id}`}
          >
            解锁
          </Button>
          <Button
            variant="link"
            size="sm"
            className="px-2"
            disabled={!t.userId}
            onClick={() => onAction("reset", t)}
            data-testid={`admin-tenant-reset-${t.id}`}
          >
            重置密码
          </Button>
          <Button
            variant="link"
            size="sm"
            className="px-2"
            onClick={() => onAction("recommend", t)}
            data-testid={`admin-tenant-recommend-${t.id}`}
          >
            推荐
          </Button>
          <MoreMenu tenant={t} onAction={onAction} />
        </div>
      ),
    },
  ];
}

function MoreMenu({ tenant, onAction }: { tenant: TenantListItem; onAction: (action: TenantAction, tenant: TenantListItem) => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="link" size="sm" className="px-2" data-testid={`admin-tenant-more-${tenant.id}`}>
          更多
          <ChevronDown className="size-3.5" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {moreActions.map((a, i) => (
          <Fragment key={a.action}>
            {"group" in a && i > 0 ? <DropdownMenuSeparator /> : null}
            <DropdownMenuItem
              variant={"destructive" in a ? "destructive" : "default"}
              onSelect={() => onAction(a.action, tenant)}
              data-testid={`admin-tenant-action-${a.action}`}
            >
              {a.label}
            </DropdownMenuItem>
          </Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
