// The wallet's ledger table (GetWalletLogs) under its total. A total capped at WALLET_LOG_COUNT_CAP is a lower bound:
// the line above the table says "1,000+" and the pager's own "共 N 条", which cannot, is hidden, as in the listing
// and task lists (the page is not pulled back to a last page that is not known: settledTotal).
import type { WalletLogPage } from "#shared/contract/wallet.ts";
import { cn } from "#shared/ui/cn.ts";
import { DataTable } from "#shared/ui/data-table.tsx";
import { listTable, type ListPaging } from "../../components/list/list-table.ts";
import { walletLogColumns } from "./finance-columns.tsx";
import { FINANCE_PAGE_SIZES } from "./finance-search-params.ts";

const columns = walletLogColumns();

export function WalletLogTable(props: {
  /** GetWalletLogs' query (useQuery's answer). */
  query: { data?: WalletLogPage; isFetching: boolean; isPlaceholderData: boolean };
  list: ListPaging;
  emptyText: string;
}) {
  const { data } = props.query;
  const table = listTable(props.query, props.list, FINANCE_PAGE_SIZES);
  const { total } = table.pagination;
  const capped = data?.totalCountCapped ?? false;
  return (
    <div className="flex flex-col gap-2">
      <span className="text-muted-foreground self-end text-sm" data-testid="wallet-total" data-total={total} data-capped={capped}>
        共 <b className="text-foreground tabular-nums">{`${total.toLocaleString("zh-CN")}${capped ? "+" : ""}`}</b> 条记录
      </span>
      <DataTable
        aria-label="钱包记录"
        columns={columns}
        {...table}
        rowKey={(r) => r.id}
        emptyText={props.emptyText}
        className={cn("[&_table]:min-w-[900px]", capped && "[&_[data-slot=pagination-total]]:hidden")}
      />
    </div>
  );
}
