// The agency's calls (spec §7 Agency): the tenants it recommended with the commission each earned it, its remark on one
// (EditRemark), and its commission entries.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InputOf } from "#shared/api/define.ts";
import type { getAgencyTransactionRecordQuery, getInviteRecordsQuery } from "#shared/contract/agency.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

export type InviteRecordsQuery = InputOf<typeof getInviteRecordsQuery>;
export type AgencyTransactionsQuery = InputOf<typeof getAgencyTransactionRecordQuery>;

const agencyKeys = {
  all: ["agency"] as const,
  invites: (q: InviteRecordsQuery) => [...agencyKeys.all, "invites", q] as const,
  transactions: (q: AgencyTransactionsQuery) => [...agencyKeys.all, "transactions", q] as const,
};

const getInviteRecordsQueryOptions = (q: InviteRecordsQuery) =>
  queryOptions({
    queryKey: agencyKeys.invites(q),
    queryFn: ({ signal }) => api.agency.getInviteRecords(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useInviteRecords = (q: InviteRecordsQuery) => useQuery(getInviteRecordsQueryOptions(q));

const getAgencyTransactionsQueryOptions = (q: AgencyTransactionsQuery) =>
  queryOptions({
    queryKey: agencyKeys.transactions(q),
    queryFn: ({ signal }) => api.agency.getAgencyTransactionRecord(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useAgencyTransactions = (q: AgencyTransactionsQuery) => useQuery(getAgencyTransactionsQueryOptions(q));

export const editAgencyRemark = (v: { id: string; remark: string }) => api.agency.editRemark(v);

export function useEditAgencyRemark({ mutationConfig }: MutationHookOptions<typeof editAgencyRemark> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: editAgencyRemark, onSettled: () => queryClient.invalidateQueries({ queryKey: agencyKeys.all }) },
      mutationConfig,
    ),
  );
}
