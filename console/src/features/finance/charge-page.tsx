// /finance/charge/list (spec §2 充值记录, issue 19): the company's top-ups (amount, how it was paid, the receipt, the
// review's status and reason) with 充值 (upload the transfer receipt, then submit for the host's review), and in a
// second tab its withdrawals (held when requested, returned when rejected). Status, days and order in the URL.
import { ArrowDownToLine, ArrowUpFromLine } from "lucide-react";
import { useState } from "react";
import { formatYuan } from "@shared/contract/wallet.ts";
import type { PageProps } from "@shared/routes/table.ts";
import { Button } from "@shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@shared/ui/card.tsx";
import { DataTable } from "@shared/ui/data-table.tsx";
import { RefreshButton } from "@shared/ui/refresh-button.tsx";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useUserStore } from "../../stores/user.ts";
import { useChargeRecords } from "./api/charge-records.ts";
import { useWalletBalance } from "./api/wallet-logs.ts";
import { useWithdraws } from "./api/withdraws.ts";
import { chargeColumns, withdrawColumns } from "./finance-columns.tsx";
import { ChargeDialog, WithdrawDialog } from "./finance-dialogs.tsx";
import { chargeStatusLabels, withdrawStatusLabels } from "./finance-names.ts";
import { CHARGE_SORTS, chargeListSchema, FINANCE_PAGE_SIZES, toRecordsQuery } from "./finance-search-params.ts";
import { HostFinanceNotice } from "./host-notice.tsx";
import { RecordTabs } from "./record-tabs.tsx";

const chargeCols = chargeColumns();
const withdrawCols = withdrawColumns();

function ChargeScreen({ route }: PageProps) {
  const listState = useListUrlState(chargeListSchema, useTabSearchParams(route.path));
  const { state } = listState;
  const q = toRecordsQuery(state);
  const charges = useChargeRecords(q, state.tab === "charge");
  const withdraws = useWithdraws(q, state.tab === "withdraw");
  const active = state.tab === "charge" ? charges : withdraws;
  const total = active.data?.totalCount ?? 0;
  useKeepPageInRange(state, settledTotal(active), listState.setPage);
  const balance = useWalletBalance().data;
  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const [dialog, setDialog] = useState<"charge" | "withdraw" | null>(null);
  // Filters other than the tab: the tab is not something to reset.
  const filtered = state.status !== "all" || !!state.from || !!state.to || state.sort !== "creationTime desc";

  const statusLabels = state.tab === "charge" ? chargeStatusLabels : withdrawStatusLabels;
  const filters: ListFilters = [
    {
      kind: "facet",
      key: "status",
      label: "状态",
      all: "全部状态",
      options: Object.entries(statusLabels).map(([value, label]) => ({ value, label })),
      className: "w-44",
      testId: "charge-filter-status",
    },
    {
      kind: "facet",
      key: "sort",
      label: "排序",
      options: Object.entries(CHARGE_SORTS).map(([value, label]) => ({ value, label })),
      className: "w-36",
      testId: "charge-sort",
    },
    { kind: "date-range", from: "from", to: "to", testId: "charge-date" },
  ];
  const loading = active.isFetching && ((active.data?.items.length ?? 0) === 0 || active.isPlaceholderData);
  const paging = { page: state.page, pageSize: state.size, total, pageSizeOptions: FINANCE_PAGE_SIZES, onChange: listState.onPageChange };

  return (
    <Card data-testid="charge-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            转账后上传凭证提交充值，平台审核通过后计入余额；提现申请提交后金额冻结，驳回时退回。
            {balance !== undefined ? (
              <>
                {" "}
                当前余额{" "}
                <b className="text-foreground tabular-nums" data-testid="charge-balance">
                  {formatYuan(balance)}
                </b>
              </>
            ) : null}
          </CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <RefreshButton fetching={active.isFetching} onRefresh={() => void active.refetch()} data-testid="charge-refresh" />
          {isMainAccount ? (
            <Button variant="outline" onClick={() => setDialog("withdraw")} data-testid="charge-withdraw">
              <ArrowUpFromLine />
              申请提现
            </Button>
          ) : null}
          <Button onClick={() => setDialog("charge")} data-testid="charge-new">
            <ArrowDownToLine />
            充值
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <RecordTabs value={state.tab} onChange={(tab) => listState.update({ tab, status: "all" })} suffix="记录" />
        <ListToolbar
          filters={filters}
          state={state}
          onChange={listState.update}
          onReset={() => listState.update({ status: "all", from: "", to: "", sort: "creationTime desc" })}
          canReset={filtered}
          resetTestId="charge-reset"
          testId="charge-filters"
        />
        {state.tab === "charge" ? (
          <DataTable
            aria-label="充值记录"
            columns={chargeCols}
            rows={charges.data?.items ?? []}
            rowKey={(r) => r.id}
            loading={loading}
            emptyText={filtered ? "没有符合条件的充值记录" : "还没有充值记录：点击“充值”上传转账凭证"}
            pagination={paging}
            className="[&_table]:min-w-[1000px]"
          />
        ) : (
          <DataTable
            aria-label="提现记录"
            columns={withdrawCols}
            rows={withdraws.data?.items ?? []}
            rowKey={(r) => r.id}
            loading={loading}
            emptyText={filtered ? "没有符合条件的提现记录" : "还没有提现记录"}
            pagination={paging}
            className="[&_table]:min-w-[1000px]"
          />
        )}
      </CardContent>
      <ChargeDialog open={dialog === "charge"} onOpenChange={(o) => setDialog(o ? "charge" : null)} />
      <WithdrawDialog open={dialog === "withdraw"} onOpenChange={(o) => setDialog(o ? "withdraw" : null)} balance={balance} />
    </Card>
  );
}

export default function ChargePage(props: PageProps) {
  const isHost = useUserStore((s) => s.isHost);
  return isHost ? <HostFinanceNotice /> : <ChargeScreen {...props} />;
}
