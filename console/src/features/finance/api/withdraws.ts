// Withdrawals: the seller asks for money out to an Alipay account (RequestWithdraw: the money is held at once); the
// host pays it out and approves, or rejects with a reason (the money returns to the balance). Keyed like top-ups.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditWithdrawInput, RequestWithdrawInput } from "#shared/contract/wallet.ts";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey } from "../../../lib/query-client.ts";
import type { WithdrawsQuery } from "../finance-search-params.ts";
import { financeKeys } from "./wallet-logs.ts";

export const useWithdraws = (q: WithdrawsQuery, enabled = true) =>
  useQuery({
    queryKey: financeKeys.withdraws(q),
    queryFn: ({ signal }) => api.withdraw.getWithdraws(q, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

export const useHostWithdraws = (q: WithdrawsQuery, enabled = true) =>
  useQuery({
    queryKey: financeKeys.hostWithdraws(q),
    queryFn: ({ signal }) => api.withdraw.getHostWithdraws(q, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

export function useRequestWithdraw() {
  const queryClient = useQueryClient();
  const run = useSubmitKey((body: RequestWithdrawInput, o: { idempotencyKey: string }) => api.withdraw.requestWithdraw(body, o));
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: financeKeys.all }) });
}

export function useAuditWithdraw() {
  const queryClient = useQueryClient();
  const run = useSubmitKey((body: AuditWithdrawInput, o: { idempotencyKey: string }) => api.withdraw.auditWithdraw(body, o));
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries({ queryKey: financeKeys.all }) });
}
