// The two record lists (top-ups, withdrawals) as /finance/charge/list (the seller's) and /admin/recharge (the host's
// review) both wire them: the active tab's query with its page kept in range, the filters (the tab's statuses, the
// order, the days; the host adds a search), the tab bar, the toolbar and the active tab's table, whose columns
// (status badge with the rejection reason, the receipt's thumbnail opening large) come from finance-columns.tsx.
import type { ReactNode } from "react";
import type { ChargeRecord, Withdrawal } from "#shared/contract/wallet.ts";
import { DataTable, type DataTableColumn } from "#shared/ui/data-table.tsx";
import { listTable, type ListTable, type PageQuery } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilter, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { sortFilter } from "../../components/list/sort-filter.ts";
import { chargeStatusLabels, withdrawStatusLabels } from "./finance-names.ts";
import {
  CHARGE_SORTS,
  FINANCE_PAGE_SIZES,
  toRecordsQuery,
  type ChargeListState,
  type ChargeRecordsQuery,
  type RechargeReviewState,
  type RecordTab,
} from "./finance-search-params.ts";
import { RecordTabs } from "./record-tabs.tsx";

type RecordsState = ChargeListState | RechargeReviewState;

/** What the pages read of a list's query (useQuery's answer). */
type RecordQuery<T> = PageQuery<T> & { refetch: () => unknown };

type ListHandle<S extends RecordsState> = {
  state: S;
  update: (change: Partial<S>) => void;
  setPage: (page: number) => void;
  onPageChange: (page: number, size: number) => void;
};

/** Both tabs' queries (only the shown one asks), the shown one, its total; a page past the end goes back in range. */
export function useRecordQueries<S extends RecordsState>(
  list: ListHandle<S>,
  useCharges: (q: ChargeRecordsQuery, enabled: boolean) => RecordQuery<ChargeRecord>,
  useWithdraws: (q: ChargeRecordsQuery, enabled: boolean) => RecordQuery<Withdrawal>,
) {
  const q = toRecordsQuery(list.state);
  const charges = useCharges(q, list.state.tab === "charge");
  const withdraws = useWithdraws(q, list.state.tab === "withdraw");
  const active: RecordQuery<ChargeRecord | Withdrawal> = list.state.tab === "charge" ? charges : withdraws;
  const total = active.data?.totalCount ?? 0;
  useKeepPageInRange(list.state, settledTotal(active), list.setPage);
  return { charges, withdraws, active, total };
}

/** One tab's table: its name, its columns, what it says when empty (with and without filters). */
type TableSpec<T> = { label: string; columns: DataTableColumn<T>[]; empty: string; emptyFiltered: string };

type TableLook = { className: string; filtered: boolean };

function RecordTable<T extends { id: string }>({ spec, table, look }: { spec: TableSpec<T>; table: ListTable<T>; look: TableLook }) {
  return (
    <DataTable
      aria-label={spec.label}
      columns={spec.columns}
      {...table}
      rowKey={(r) => r.id}
      emptyText={look.filtered ? spec.emptyFiltered : spec.empty}
      className={look.className}
    />
  );
}

export type RecordListsProps<S extends RecordsState> = {
  list: ListHandle<S>;
  queries: ReturnType<typeof useRecordQueries<S>>;
  charge: TableSpec<ChargeRecord>;
  withdraw: TableSpec<Withdrawal>;
  /** The tab bar's suffix (记录, 审核) and what a change of tab also changes. */
  tabSuffix: string;
  onTab: (tab: RecordTab) => void;
  /** A search box after the status (the host's). */
  search?: ListFilter;
  filtered: boolean;
  onReset: () => void;
  /** The test ids' prefix (charge, recharge). */
  testId: string;
  /** The tables' minimum width (the host's have the company column). */
  tableClassName: string;
  /** Between the toolbar and the table. */
  children?: ReactNode;
};

export function RecordLists<S extends RecordsState>(p: RecordListsProps<S>) {
  const { state } = p.list;
  const { charges, withdraws } = p.queries;
  const statusLabels = state.tab === "charge" ? chargeStatusLabels : withdrawStatusLabels;
  const filters: ListFilters = [
    {
      kind: "facet",
      key: "status",
      label: "状态",
      all: "全部状态",
      options: Object.entries(statusLabels).map(([value, label]) => ({ value, label })),
      className: "w-44",
      testId: `${p.testId}-filter-status`,
    },
    p.search ?? null,
    sortFilter(CHARGE_SORTS, `${p.testId}-sort`),
    { kind: "date-range", from: "from", to: "to", testId: `${p.testId}-date` },
  ];
  const look: TableLook = { className: p.tableClassName, filtered: p.filtered };
  return (
    <>
      <RecordTabs value={state.tab} onChange={p.onTab} suffix={p.tabSuffix} />
      <ListToolbar
        filters={filters}
        state={state}
        onChange={p.list.update}
        onReset={p.onReset}
        canReset={p.filtered}
        resetTestId={`${p.testId}-reset`}
        testId={`${p.testId}-filters`}
      />
      {p.children}
      {state.tab === "charge" ? (
        <RecordTable spec={p.charge} table={listTable(charges, p.list, FINANCE_PAGE_SIZES)} look={look} />
      ) : (
        <RecordTable spec={p.withdraw} table={listTable(withdraws, p.list, FINANCE_PAGE_SIZES)} look={look} />
      )}
    </>
  );
}
