// The agency's columns (/finance/agency/list): the tenants it recommended (status, type, when, account expiry, the
// commission each earned, its remark and 备注) and its commission entries. Amounts in yuan; a positive one is green.
import { Pencil } from "lucide-react";
import type { AgencyTransaction, InviteRecord } from "#shared/contract/agency.ts";
import { RecommendType } from "#shared/contract/enums.ts";
import { formatYuan, walletLogTypeNames } from "#shared/contract/wallet.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";

const recommendTypeLabels: Record<number, string> = { [RecommendType.Commission]: "计佣金", [RecommendType.Plain]: "不计佣金" };
const yuanCell = (v: number, testId?: string) => (
  <span className={cn("tabular-nums", v > 0 && "text-emerald-600")} data-testid={testId}>
    {formatYuan(v)}
  </span>
);
const time = (iso: string | null) => <span className="tabular-nums">{iso ? formatDateTime(iso) : "-"}</span>;

/** The tenants recommended by the company, each with 备注. */
export function inviteColumns(onEdit: (r: InviteRecord) => void): DataTableColumn<InviteRecord>[] {
  return [
    { id: "tenentName", header: "公司", cell: (r) => <span className="font-medium">{r.tenentName}</span> },
    {
      id: "isActive",
      header: "状态",
      width: 90,
      cell: (r) => (r.isActive ? <Badge>启用</Badge> : <Badge variant="secondary">停用</Badge>),
    },
    { id: "type", header: "推荐类型", width: 100, cell: (r) => recommendTypeLabels[r.type] ?? "-" },
    { id: "recommendTime", header: "推荐时间", width: 170, cell: (r) => time(r.recommendTime) },
    { id: "expireTime", header: "账号到期", width: 170, cell: (r) => (r.expireTime ? time(r.expireTime) : "长期") },
    { id: "balance", header: "累计佣金", width: 130, align: "right", cell: (r) => yuanCell(r.balance, "agency-invite-commission") },
    { id: "remark", header: "备注", cell: (r) => <span className="text-muted-foreground">{r.remark || "-"}</span> },
    {
      id: "actions",
      header: "操作",
      width: 90,
      cell: (r) => (
        <Button variant="ghost" size="sm" onClick={() => onEdit(r)} data-testid="agency-edit-remark">
          <Pencil />
          备注
        </Button>
      ),
    },
  ];
}

/** The commission entries. */
export const transactionColumns: DataTableColumn<AgencyTransaction>[] = [
  { id: "creationTime", header: "时间", width: 180, cell: (r) => time(r.creationTime) },
  { id: "inviteTenantName", header: "公司", width: 180, cell: (r) => r.inviteTenantName ?? "-" },
  { id: "type", header: "类型", width: 100, cell: (r) => walletLogTypeNames[r.type] ?? `类型 ${r.type}` },
  { id: "money", header: "金额", width: 130, align: "right", cell: (r) => yuanCell(r.money) },
  { id: "remark", header: "说明", cell: (r) => <span className="text-muted-foreground">{r.remark || "-"}</span> },
];
