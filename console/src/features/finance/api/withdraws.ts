// Withdrawals: the seller asks for money out to an Alipay account (RequestWithdraw: the money is held at once); the
// host pays it out and approves, or rejects with a reason (the money returns to the balance). Keyed like top-ups.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import type { AuditWithdrawInput, RequestWithdrawInput } from "#shared/contract/wallet.ts";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import type { WithdrawsQuery } from "../finance-search-params.ts";
import { financeKeys } from "./wallet-logs.ts";

const getWithdrawsQueryOptions = (q: WithdrawsQuery) =>
  queryOptions({
    queryKey: financeKeys.withdraws(q),
    queryFn: ({ signal }) => api.withdraw.getWithdraws(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useWithdraws = (q: WithdrawsQuery, enabled = true) => useQuery({ ...getWithdrawsQueryOptions(q), enabled });

const getHostWithdrawsQueryOptions = (q: WithdrawsQuery) =>
  queryOptions({
    queryKey: financeKeys.hostWithdraws(q),
    queryFn: ({ signal }) => api.withdraw.getHostWithdraws(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useHostWithdraws = (q: WithdrawsQuery, enabled = true) => useQuery({ ...getHostWithdrawsQueryOptions(q), enabled });

/** Sent with the submission's Idempotency-Key (useSubmitKey). */
export const requestWithdraw = (body: RequestWithdrawInput, options?: CallOptions) => api.withdraw.requestWithdraw(body, options);
export const auditWithdraw = (body: AuditWithdrawInput, options?: CallOptions) => api.withdraw.auditWithdraw(body, options);

export function useRequestWithdraw({ mutationConfig }: MutationHookOptions<typeof requestWithdraw> = {}) {
  const queryClient = useQueryClient();
  const mutationFn = useSubmitKey(requestWithdraw);
  return useMutation(
    withCallerConfig({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: financeKeys.all }) }, mutationConfig),
  );
}

export function useAuditWithdraw({ mutationConfig }: MutationHookOptions<typeof auditWithdraw> = {}) {
  const queryClient = useQueryClient();
  const mutationFn = useSubmitKey(auditWithdraw);
  return useMutation(
    withCallerConfig({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: financeKeys.all }) }, mutationConfig),
  );
}
