// The finance tables' columns: the ledger (time, type, signed amount, balance after, remark, who), top-ups and
// withdrawals (for the seller; the host's lists add the company and the review action). Amounts in yuan, two decimals.
import type { ChargeRecord, WalletLogEntry, Withdrawal } from "#shared/contract/wallet.ts";
import { formatYuan } from "#shared/contract/wallet.ts";
import { ChargeStatus, WithdrawStatus } from "#shared/contract/enums.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";
import {
  chargeStatusLabel,
  payTypeLabel,
  reviewTones,
  walletLogTypeLabel,
  withdrawSourceLabel,
  withdrawStatusLabel,
} from "./finance-names.ts";
import { signedYuanText } from "./money.ts";
import { ReceiptThumb } from "./receipt-image.tsx";

const time = (iso: string | null) => <span className="text-xs tabular-nums">{formatDateTime(iso)}</span>;
const money = (yuan: number, testId?: string) => (
  <span className="font-medium tabular-nums" data-testid={testId}>
    {formatYuan(yuan)}
  </span>
);
const text = (value: string | null | undefined) => (
  <span className="text-muted-foreground block truncate text-xs" title={value ?? ""}>
    {value || "-"}
  </span>
);

export function walletLogColumns(): DataTableColumn<WalletLogEntry>[] {
  return [
    { id: "time", header: "时间", width: 160, cell: (r) => time(r.creationTime) },
    {
      id: "type",
      header: "类型",
      width: 100,
      cell: (r) => (
        <Badge variant="outline" data-testid="wallet-log-type" data-type={r.type}>
          {walletLogTypeLabel(r.type)}
        </Badge>
      ),
    },
    {
      id: "money",
      header: "金额（元）",
      width: 140,
      align: "right",
      cell: (r) => (
        <span
          className={cn("font-medium tabular-nums", r.money > 0 ? "text-success" : r.money < 0 ? "text-destructive" : "")}
          data-testid="wallet-log-money"
        >
          {signedYuanText(r.money)}
        </span>
      ),
    },
    { id: "balance", header: "余额（元）", width: 140, align: "right", cell: (r) => money(r.balance, "wallet-log-balance") },
    {
      id: "remark",
      header: "说明",
      cell: (r) => text([r.remark, r.inviteTenantName ? `来自 ${r.inviteTenantName}` : null].filter(Boolean).join(" · ")),
    },
    { id: "user", header: "操作人", width: 120, cell: (r) => text(r.userName ?? (r.userId ? null : "系统")) },
  ];
}

const statusBadge = (label: string, status: number, reason: string | null, testId: string) => (
  <div className="flex min-w-0 flex-col items-start gap-0.5">
    <Badge variant={reviewTones[status] ?? "outline"} data-testid={testId} data-status={status}>
      {label}
    </Badge>
    {reason ? (
      <span className="text-destructive max-w-full truncate text-[11px]" title={reason}>
        原因：{reason}
      </span>
    ) : null}
  </div>
);

/** The host's 审核 on a record still pending; 已处理 once reviewed. */
function reviewColumn<T extends { status: number }>(onReview: (row: T) => void, pending: number, testId: string): DataTableColumn<T> {
  return {
    id: "actions",
    header: "操作",
    width: 80,
    cell: (r) =>
      r.status === pending ? (
        <Button size="sm" className="h-7" onClick={() => onReview(r)} data-testid={testId}>
          审核
        </Button>
      ) : (
        <span className="text-muted-foreground text-xs">已处理</span>
      ),
  };
}

export type RecordColumnsOptions<T> = {
  /** The host's list: the company column and the review action. */
  host?: { onReview: (row: T) => void };
};

export function chargeColumns({ host }: RecordColumnsOptions<ChargeRecord> = {}): DataTableColumn<ChargeRecord>[] {
  const columns: (DataTableColumn<ChargeRecord> | null)[] = [
    { id: "time", header: "提交时间", width: 160, cell: (r) => time(r.creationTime) },
    host
      ? {
          id: "tenant",
          header: "公司",
          width: 150,
          cell: (r) => (
            <div className="flex min-w-0 flex-col text-xs">
              <span className="truncate font-medium">{r.tenantName}</span>
              <span className="text-muted-foreground truncate">{r.userName ?? ""}</span>
            </div>
          ),
        }
      : null,
    { id: "money", header: "金额（元）", width: 130, align: "right", cell: (r) => money(r.money, "charge-money-cell") },
    { id: "payType", header: "转账方式", width: 96, cell: (r) => <span className="text-xs">{payTypeLabel(r.payType)}</span> },
    { id: "pic", header: "凭证", width: 72, cell: (r) => <ReceiptThumb pic={r.pic} testId="charge-receipt-thumb" /> },
    { id: "remark", header: "备注", cell: (r) => text(r.remark) },
    {
      id: "status",
      header: "状态",
      width: 150,
      cell: (r) =>
        statusBadge(chargeStatusLabel(r.status), r.status, r.status === ChargeStatus.Rejected ? r.reason : null, "charge-status"),
    },
    { id: "auditTime", header: "审核时间", width: 160, cell: (r) => time(r.auditTime) },
    host ? reviewColumn(host.onReview, ChargeStatus.Pending, "charge-review") : null,
  ];
  return columns.filter((c): c is DataTableColumn<ChargeRecord> => !!c);
}

export function withdrawColumns({ host }: RecordColumnsOptions<Withdrawal> = {}): DataTableColumn<Withdrawal>[] {
  const columns: (DataTableColumn<Withdrawal> | null)[] = [
    { id: "time", header: "申请时间", width: 160, cell: (r) => time(r.creationTime) },
    host
      ? { id: "tenant", header: "公司", width: 150, cell: (r) => <span className="truncate text-xs font-medium">{r.tenantName}</span> }
      : null,
    { id: "money", header: "金额（元）", width: 130, align: "right", cell: (r) => money(r.money, "withdraw-money-cell") },
    { id: "account", header: "支付宝账号", width: 170, cell: (r) => <span className="truncate text-xs">{r.alipayAccount}</span> },
    { id: "source", header: "来源", width: 90, cell: (r) => <span className="text-xs">{withdrawSourceLabel(r.source)}</span> },
    { id: "remark", header: "备注", cell: (r) => text(r.remark) },
    {
      id: "status",
      header: "状态",
      width: 170,
      cell: (r) =>
        statusBadge(withdrawStatusLabel(r.status), r.status, r.status === WithdrawStatus.Rejected ? r.reason : null, "withdraw-status"),
    },
    { id: "auditTime", header: "审核时间", width: 160, cell: (r) => time(r.auditTime) },
    host ? reviewColumn(host.onReview, WithdrawStatus.Pending, "withdraw-review") : null,
  ];
  return columns.filter((c): c is DataTableColumn<Withdrawal> => !!c);
}
