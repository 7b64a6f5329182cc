// The wallet's ledger (GetWalletLogs): a page of entries with the tenant's balance now. Refetched after anything on
// the finance screens moves money (financeKeys.all).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import type { WalletLogsQuery } from "../finance-search-params.ts";

export const financeKeys = {
  all: ["finance"] as const,
  walletLogs: (q: WalletLogsQuery) => [...financeKeys.all, "wallet-logs", q] as const,
  charges: (q: object) => [...financeKeys.all, "charges", q] as const,
  hostCharges: (q: object) => [...financeKeys.all, "host-charges", q] as const,
  withdraws: (q: object) => [...financeKeys.all, "withdraws", q] as const,
  hostWithdraws: (q: object) => [...financeKeys.all, "host-withdraws", q] as const,
};

export const useWalletLogs = (q: WalletLogsQuery) =>
  useQuery({
    queryKey: financeKeys.walletLogs(q),
    queryFn: ({ signal }) => api.walletLog.getWalletLogs(q, { signal }),
    placeholderData: keepPreviousData,
  });

/** The balance alone (the first entry of an unfiltered ledger page carries it). */
export const useWalletBalance = () => {
  const q: WalletLogsQuery = { SkipCount: 0, MaxResultCount: 1 };
  return useQuery({
    queryKey: financeKeys.walletLogs(q),
    queryFn: ({ signal }) => api.walletLog.getWalletLogs(q, { signal }),
    select: (page) => page.balance,
  });
};
