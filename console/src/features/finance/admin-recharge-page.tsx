// /admin/recharge (spec §2 充值审核, issue 19; host only): every company's top-ups (GetHostChargeRecords), pending first,
// with the receipt's thumbnail; 审核 opens the receipt large with the amount and company, to approve (the wallet is
// credited once) or reject with a reason. A second tab does the same for withdrawals (approve once paid out; reject
// returns the held money). Status, search, days and order in the URL. 收款账户 edits where sellers transfer top-ups.
import { Landmark } from "lucide-react";
import { useState } from "react";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { useListUrlState, useReplaceSearchParams } from "../../components/list/use-list-url-state.ts";
import { useHostChargeRecords } from "./api/charge-records.ts";
import { useHostWithdraws } from "./api/withdraws.ts";
import { chargeColumns, withdrawColumns } from "./finance-columns.tsx";
import { ReviewDialog, type ReviewTarget } from "./finance-dialogs.tsx";
import { rechargeReviewSchema } from "./finance-search-params.ts";
import { ReceivingAccountsDialog } from "./receiving-accounts-dialog.tsx";
import { RecordLists, useRecordQueries } from "./record-lists.tsx";

export default function AdminRechargePage({ route }: PageProps) {
  const listState = useListUrlState(rechargeReviewSchema, useReplaceSearchParams());
  const { state } = listState;
  const queries = useRecordQueries(listState, useHostChargeRecords, useHostWithdraws);
  const { active, total } = queries;
  const [review, setReview] = useState<ReviewTarget | null>(null);
  const [accountsOpen, setAccountsOpen] = useState(false);
  const chargeCols = chargeColumns({ host: { onReview: (record) => setReview({ kind: "charge", record }) } });
  const withdrawCols = withdrawColumns({ host: { onReview: (record) => setReview({ kind: "withdraw", record }) } });
  const filtered = state.status !== "1" || !!state.q || !!state.from || !!state.to || state.sort !== "creationTime desc";

  return (
    <Card data-testid="admin-recharge-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            核对转账凭证后通过充值（金额计入该公司余额，只入账一次），或填写原因驳回；提现在打款后通过，驳回则退回冻结的金额。
          </CardDescription>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => setAccountsOpen(true)} data-testid="receiving-accounts-edit">
            <Landmark />
            收款账户
          </Button>
          <RefreshButton fetching={active.isFetching} onRefresh={() => void active.refetch()} data-testid="recharge-refresh" />
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <RecordLists
          list={listState}
          queries={queries}
          charge={{ label: "充值审核", columns: chargeCols, empty: "没有待审核的充值申请", emptyFiltered: "没有符合条件的充值申请" }}
          withdraw={{ label: "提现审核", columns: withdrawCols, empty: "没有待审核的提现申请", emptyFiltered: "没有符合条件的提现申请" }}
          tabSuffix="审核"
          onTab={(tab) => listState.update({ tab })}
          search={{
            kind: "search",
            key: "q",
            label: "搜索",
            placeholder: "公司名称或备注",
            maxLength: 64,
            className: "sm:w-56",
            testId: "recharge-search",
          }}
          filtered={filtered}
          onReset={() => listState.update({ status: "1", q: "", from: "", to: "", sort: "creationTime desc" })}
          testId="recharge"
          tableClassName="[&_table]:min-w-[1100px]"
        >
          <div className="text-muted-foreground text-sm" data-testid="recharge-total" data-total={total}>
            共 <b className="text-foreground tabular-nums">{total.toLocaleString("zh-CN")}</b> 条
          </div>
        </RecordLists>
      </CardContent>
      <ReviewDialog target={review} onClose={() => setReview(null)} />
      <ReceivingAccountsDialog open={accountsOpen} onOpenChange={setAccountsOpen} />
    </Card>
  );
}
