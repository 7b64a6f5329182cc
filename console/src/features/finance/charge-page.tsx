// /finance/charge/list (spec §2 充值记录, issue 19): the company's top-ups (amount, how it was paid, the receipt, the
// review's status and reason) with 充值 (upload the transfer receipt, then submit for the host's review), and in a
// second tab its withdrawals (held when requested, returned when rejected). Status, days and order in the URL.
import { ArrowDownToLine, ArrowUpFromLine } from "lucide-react";
import { useState } from "react";
import { formatYuan } from "#shared/contract/wallet.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useUserStore } from "../../stores/user.ts";
import { useChargeRecords } from "./api/charge-records.ts";
import { useWalletBalance } from "./api/wallet-logs.ts";
import { useWithdraws } from "./api/withdraws.ts";
import { chargeColumns, withdrawColumns } from "./finance-columns.tsx";
import { ChargeDialog, WithdrawDialog } from "./finance-dialogs.tsx";
import { chargeListSchema } from "./finance-search-params.ts";
import { HostFinanceNotice } from "./host-notice.tsx";
import { RecordLists, useRecordQueries } from "./record-lists.tsx";

const chargeCols = chargeColumns();
const withdrawCols = withdrawColumns();

function ChargeScreen({ route }: PageProps) {
  const listState = useListUrlState(chargeListSchema, useTabSearchParams(route.path));
  const { state } = listState;
  const queries = useRecordQueries(listState, useChargeRecords, useWithdraws);
  const { active } = queries;
  const balance = useWalletBalance().data;
  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const [dialog, setDialog] = useState<"charge" | "withdraw" | null>(null);
  // Filters other than the tab: the tab is not something to reset.
  const filtered = state.status !== "all" || !!state.from || !!state.to || state.sort !== "creationTime desc";

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
        <RecordLists
          list={listState}
          queries={queries}
          charge={{
            label: "充值记录",
            columns: chargeCols,
            empty: "还没有充值记录：点击“充值”上传转账凭证",
            emptyFiltered: "没有符合条件的充值记录",
          }}
          withdraw={{ label: "提现记录", columns: withdrawCols, empty: "还没有提现记录", emptyFiltered: "没有符合条件的提现记录" }}
          tabSuffix="记录"
          onTab={(tab) => listState.update({ tab, status: "all" })}
          filtered={filtered}
          onReset={() => listState.update({ status: "all", from: "", to: "", sort: "creationTime desc" })}
          testId="charge"
          tableClassName="[&_table]:min-w-[1000px]"
        />
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
