// /finance/wallet/list (spec §2 钱包记录, issue 19): the company's balance with 充值 and 提现, and the ledger of every
// balance movement (GetWalletLogs): type, signed amount, the balance after it, why and who, filtered by type, account
// (a main account's) and days, every filter in the URL, and 导出: the filtered entries as an xlsx file (wallet-export.tsx).
import { ArrowDownToLine, ArrowUpFromLine, Wallet } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { formatYuan } from "#shared/contract/wallet.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Skeleton } from "#shared/ui/skeleton.tsx";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { ownerFilter, useOwnerFilterOptions } from "../../components/list/owner-filter.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { sortFilter } from "../../components/list/sort-filter.ts";
import { useUserStore } from "../../stores/user.ts";
import { useWalletLogs } from "./api/wallet-logs.ts";
import { ChargeDialog, WithdrawDialog } from "./finance-dialogs.tsx";
import { walletLogTypeLabels } from "./finance-names.ts";
import { toWalletFilter, toWalletQuery, WALLET_SORTS, walletListSchema } from "./finance-search-params.ts";
import { HostFinanceNotice } from "./host-notice.tsx";
import { WalletExportButton } from "./wallet-export.tsx";
import { WalletLogTable } from "./wallet-log-table.tsx";

/** The export takes the list's filters, not its paging or sorting (the file is newest first). */
function exportFilter(state: Parameters<typeof toWalletFilter>[0]) {
  const { Sorting: _sorting, ...filter } = toWalletFilter(state);
  return filter;
}

function WalletScreen({ route }: PageProps) {
  const listState = useListUrlState(walletListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;
  const list = useWalletLogs(toWalletQuery(state));
  const total = list.data?.totalCount ?? 0;
  // A capped total is only a lower bound: the last page is not known.
  useKeepPageInRange(state, settledTotal(list, list.data?.totalCountCapped ?? false), listState.setPage);
  const owners = useOwnerFilterOptions();
  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const [dialog, setDialog] = useState<"charge" | "withdraw" | null>(null);
  const balance = list.data?.balance;

  const filters: ListFilters = [
    {
      kind: "facet",
      key: "type",
      label: "类型",
      all: "全部类型",
      options: Object.entries(walletLogTypeLabels).map(([value, label]) => ({ value, label })),
      className: "w-36",
      testId: "wallet-filter-type",
    },
    ownerFilter(owners, { label: "操作人", all: "全部账号", testId: "wallet-filter-user" }),
    sortFilter(WALLET_SORTS, "wallet-sort"),
    { kind: "date-range", from: "from", to: "to", testId: "wallet-date" },
  ];

  return (
    <div className="flex flex-col gap-4" data-testid="wallet-page">
      <Card>
        <CardContent className="flex flex-wrap items-center justify-between gap-4 p-5">
          <div className="flex items-center gap-4">
            <div className="bg-primary/10 text-primary flex size-12 items-center justify-center rounded-lg">
              <Wallet className="size-6" />
            </div>
            <div className="flex flex-col gap-1">
              <span className="text-muted-foreground text-sm">账户余额（元）</span>
              {balance === undefined ? (
                <Skeleton className="h-8 w-32" />
              ) : (
                <span className="text-3xl font-semibold tabular-nums" data-testid="wallet-balance" data-balance={balance}>
                  {formatYuan(balance)}
                </span>
              )}
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button onClick={() => setDialog("charge")} data-testid="wallet-charge">
              <ArrowDownToLine />
              充值
            </Button>
            {isMainAccount ? (
              <Button variant="outline" onClick={() => setDialog("withdraw")} data-testid="wallet-withdraw">
                <ArrowUpFromLine />
                提现
              </Button>
            ) : null}
            <Button variant="link" asChild>
              <Link to="/finance/charge/list">充值与提现记录</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
          <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
            <CardTitle>{route.meta.title}</CardTitle>
            <CardDescription>余额的每一笔变动：充值到账、消费、提现与退回、平台调整、推荐佣金，以及变动后的余额。</CardDescription>
          </div>
          <div className="flex items-center gap-2">
            <WalletExportButton filter={exportFilter(state)} disabled={total === 0} />
            <RefreshButton fetching={list.isFetching} onRefresh={() => void list.refetch()} data-testid="wallet-refresh" />
          </div>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 pt-4">
          <ListToolbar filters={filters} {...listState.toolbar} resetTestId="wallet-reset" testId="wallet-filters" />
          <WalletLogTable
            query={list}
            list={listState}
            emptyText={filtered ? "没有符合条件的记录" : "还没有余额变动：充值审核通过后会出现在这里"}
          />
        </CardContent>
      </Card>
      <ChargeDialog open={dialog === "charge"} onOpenChange={(o) => setDialog(o ? "charge" : null)} />
      <WithdrawDialog open={dialog === "withdraw"} onOpenChange={(o) => setDialog(o ? "withdraw" : null)} balance={balance} />
    </div>
  );
}

export default function WalletPage(props: PageProps) {
  const isHost = useUserStore((s) => s.isHost);
  return isHost ? <HostFinanceNotice /> : <WalletScreen {...props} />;
}
