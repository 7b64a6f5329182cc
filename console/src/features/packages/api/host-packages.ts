// The host's side of sub-account packages: every package (withdrawn ones too), creating or editing one
// (CreateOrUpdateSubAccOrderInfo) and every tenant's purchases (GetHostSubAccountOrders).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InputOf } from "#shared/api/define.ts";
import type { getHostSubAccountOrdersQuery, SaveSubAccPackageInput } from "#shared/contract/subaccount-orders.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { packageKeys } from "./packages.ts";

export type HostPurchasesQuery = InputOf<typeof getHostSubAccountOrdersQuery>;

const getHostPurchasesQueryOptions = (q: HostPurchasesQuery) =>
  queryOptions({
    queryKey: packageKeys.hostPurchases(q),
    queryFn: ({ signal }) => api.subAccountOrder.getHostSubAccountOrders(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useHostPurchases = (q: HostPurchasesQuery) => useQuery(getHostPurchasesQueryOptions(q));

export const savePackage = (v: SaveSubAccPackageInput) => api.subAccountOrder.createOrUpdateSubAccOrderInfo(v);

export function useSavePackage({ mutationConfig }: MutationHookOptions<typeof savePackage> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      { mutationFn: savePackage, onSettled: () => queryClient.invalidateQueries({ queryKey: packageKeys.all }) },
      mutationConfig,
    ),
  );
}
