// /finance/agency/list (ours, issue 19 Agency; main account only): the company as an agency. The tenants the platform
// recorded as recommended by it (GetInviteRecords: status, account expiry, the commission each earned, its own remark,
// edited with EditRemark) and its commission entries (GetAgencyTransactionRecord), each credited to the wallet when a
// recommended tenant buys. Tab, search, filters and paging in the URL.
import { Coins, Users } from "lucide-react";
import { useEffect, useState } from "react";
import type { InviteRecord } from "#shared/contract/agency.ts";
import { formatYuan } from "#shared/contract/wallet.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { StatCard } from "#shared/ui/stat-card.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { ListTabs } from "../../components/list/list-tabs.tsx";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { inviteColumns, transactionColumns } from "./agency-columns.tsx";
import { useAgencyTransactions, useEditAgencyRemark, useInviteRecords } from "./api/agency.ts";
import { AGENCY_PAGE_SIZES, agencyListSchema, toInvitesQuery, toTransactionsQuery, type AgencyTab } from "./agency-search-params.ts";

const TABS: Record<AgencyTab, string> = { invites: "推荐的公司", commissions: "佣金记录" };
function RemarkDialog({ record, onClose }: { record: InviteRecord | null; onClose: () => void }) {
  const [remark, setRemark] = useState("");
  const save = useEditAgencyRemark();
  useEffect(() => setRemark(record?.remark ?? ""), [record]);
  const tooLong = remark.trim().length > 200;
  return (
    <Dialog open={!!record} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="agency-remark-dialog">
        <DialogHeader>
          <DialogTitle>备注：{record?.tenentName}</DialogTitle>
          <DialogDescription>备注只有本公司可见，留空则清除。</DialogDescription>
        </DialogHeader>
        <Input
          value={remark}
          onChange={(e) => setRemark(e.target.value)}
          maxLength={200}
          placeholder="例如 联系人、跟进情况"
          data-testid="agency-remark-input"
        />
        {tooLong ? <p className="text-destructive text-sm">备注最多 200 个字</p> : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            取消
          </Button>
          <Button
            loading={save.isPending}
            disabled={tooLong}
            onClick={() =>
              save.mutate(
                { id: record!.id, remark: remark.trim() },
                {
                  onSuccess: () => {
                    toast.success("备注已保存");
                    onClose();
                  },
                },
              )
            }
            data-testid="agency-remark-save"
          >
            保存
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export default function AgencyPage({ route }: PageProps) {
  const listState = useListUrlState(agencyListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;
  const invites = useInviteRecords(toInvitesQuery(state));
  const transactions = useAgencyTransactions(toTransactionsQuery(state));
  const active = state.tab === "invites" ? invites : transactions;
  useKeepPageInRange(state, settledTotal(active), listState.setPage);
  const [editing, setEditing] = useState<InviteRecord | null>(null);
  const totalCommission = invites.data?.totalCommission;

  const filters: ListFilters =
    state.tab === "invites"
      ? [
          { kind: "search", key: "q", label: "搜索公司名或备注", maxLength: 64, className: "w-56", testId: "agency-search" },
          {
            kind: "facet",
            key: "active",
            label: "状态",
            all: "全部状态",
            options: [
              { value: "true", label: "启用" },
              { value: "false", label: "停用" },
            ],
            className: "w-32",
            testId: "agency-filter-active",
          },
        ]
      : [
          { kind: "search", key: "q", label: "搜索公司名或说明", maxLength: 64, className: "w-56", testId: "agency-search" },
          { kind: "date-range", from: "from", to: "to", testId: "agency-date" },
        ];

  return (
    <div className="flex flex-col gap-4" data-testid="agency-page">
      <div className="grid gap-4 sm:grid-cols-2">
        <StatCard
          title="累计佣金"
          icon={<Coins />}
          loading={totalCommission === undefined}
          value={<span data-testid="agency-total-commission">{totalCommission === undefined ? "-" : formatYuan(totalCommission)}</span>}
          hint="推荐的公司每次购买，按平台设置的比例计入余额"
        />
        <StatCard title="推荐的公司" icon={<Users />} loading={!invites.data} value={<span>{invites.data?.totalCount ?? "-"}</span>} />
      </div>
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
          <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
            <CardTitle>{route.meta.title}</CardTitle>
            <CardDescription>
              平台登记为由本公司推荐的公司，以及它们购买时本公司获得的佣金（已计入账户余额，可在钱包记录中查看）。
            </CardDescription>
          </div>
          <RefreshButton fetching={active.isFetching} onRefresh={() => void active.refetch()} data-testid="agency-refresh" />
        </CardHeader>
        <CardContent className="flex flex-col gap-3 pt-4">
          <ListTabs
            tabs={TABS}
            value={state.tab}
            onChange={(t) => listState.update({ tab: t, from: "", to: "", active: "all" })}
            label="列表"
            testId="agency-tab"
          />
          <ListToolbar filters={filters} {...listState.toolbar} resetTestId="agency-reset" testId="agency-filters" />
          {state.tab === "invites" ? (
            <DataTable
              aria-label="推荐的公司"
              columns={inviteColumns(setEditing)}
              {...listTable(invites, listState, AGENCY_PAGE_SIZES)}
              rowKey={(r) => r.id}
              emptyText={filtered ? "没有符合条件的公司" : "还没有推荐的公司：平台登记推荐关系后会显示在这里"}
              className="[&_table]:min-w-[900px]"
            />
          ) : (
            <DataTable
              aria-label="佣金记录"
              columns={transactionColumns}
              {...listTable(transactions, listState, AGENCY_PAGE_SIZES)}
              rowKey={(r) => r.id}
              emptyText={filtered ? "没有符合条件的记录" : "还没有佣金记录"}
              className="[&_table]:min-w-[800px]"
            />
          )}
        </CardContent>
      </Card>
      <RemarkDialog record={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
