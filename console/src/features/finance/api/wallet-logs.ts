// The wallet's ledger (GetWalletLogs): a page of entries with the tenant's balance now. Refetched after anything on
// the finance screens moves money (financeKeys.all, the console's shared finance root: a purchase elsewhere moves it).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";
import type { ChargeRecordsQuery, WalletLogsQuery, WithdrawsQuery } from "../finance-search-params.ts";

export const financeKeys = {
  all: sharedKeys.finance,
  walletLogs: (q: WalletLogsQuery) => [...financeKeys.all, "wallet-logs", q] as const,
  charges: (q: ChargeRecordsQuery) => [...financeKeys.all, "charges", q] as const,
  hostCharges: (q: ChargeRecordsQuery) => [...financeKeys.all, "host-charges", q] as const,
  withdraws: (q: WithdrawsQuery) => [...financeKeys.all, "withdraws", q] as const,
  hostWithdraws: (q: WithdrawsQuery) => [...financeKeys.all, "host-withdraws", q] as const,
  receivingAccounts: () => [...financeKeys.all, "receiving-accounts"] as const,
};

const getWalletLogsQueryOptions = (q: WalletLogsQuery) =>
  queryOptions({
    queryKey: financeKeys.walletLogs(q),
    queryFn: ({ signal }) => api.walletLog.getWalletLogs(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useWalletLogs = (q: WalletLogsQuery) => useQuery(getWalletLogsQueryOptions(q));

/** The balance alone (the first entry of an unfiltered ledger page carries it). */
const getWalletBalanceQueryOptions = () => {
  const q: WalletLogsQuery = { SkipCount: 0, MaxResultCount: 1 };
  return queryOptions({
    queryKey: financeKeys.walletLogs(q),
    queryFn: ({ signal }) => api.walletLog.getWalletLogs(q, { signal }),
    select: (page) => page.balance,
  });
};

export const useWalletBalance = () => useQuery(getWalletBalanceQueryOptions());
